/** The Workflow kind: resource documents (`apiVersion`, `kind: Workflow`, `metadata`, `spec`); the workflows plugin owns it. */
import type { ResourceKindDefinition } from '../../kernel/index.js';

export const WORKFLOW_KIND: ResourceKindDefinition = {
  name: 'workflow',
  plugin: 'workflows',
  kind: 'Workflow',
  plural: 'workflows',
  schema: 'workflow',
  shape: 'resource',
  snapshotField: 'workflows',
};
