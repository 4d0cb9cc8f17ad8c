/**
 * The Kubernetes CustomResourceDefinitions of MCPServer and Workflow, rendered from the same
 * JSON Schemas that validate files, so the two cannot drift (`switchboard crds` prints them;
 * a test keeps deploy/crds.yaml equal). Kubernetes wants structural schemas: references are
 * inlined, a recursive one (a workflow step inside a step) and a union of types (a command
 * that is a string or a list) become `x-kubernetes-preserve-unknown-fields`, and what only
 * Switchboard's own validation can express (if/then, additionalProperties: false, defaults)
 * is left to it: the API server stores what was written, Switchboard validates it on load.
 */
import { stringify } from 'yaml';
import { loadSchema } from '../../kernel/index.js';

export const CRD_GROUP = 'switchboard.dev';
export const CRD_VERSION = 'v1alpha1';

type Node = Record<string, unknown>;

const KEPT = ['type', 'description', 'enum', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'required'] as const;

function resolve(root: Node, ref: string): Node {
  let node: unknown = root;
  for (const p of ref.replace(/^#\//, '').split('/')) node = (node as Node)[p];
  return node as Node;
}

const ANY: Node = { 'x-kubernetes-preserve-unknown-fields': true };

/** One JSON Schema node as a structural OpenAPI v3 node. `seen`: the references being inlined (recursion stops there). */
function structural(root: Node, node: Node, seen: readonly string[]): Node {
  if (typeof node.$ref === 'string') {
    if (seen.includes(node.$ref)) return { type: 'object', ...ANY, ...(node.description ? { description: node.description } : {}) };
    const target = structural(root, resolve(root, node.$ref), [...seen, node.$ref]);
    return node.description ? { ...target, description: node.description } : target;
  }
  if (node.oneOf || node.anyOf) return { ...ANY, ...(node.description ? { description: node.description } : {}) };
  const out: Node = {};
  for (const k of KEPT) if (node[k] !== undefined) out[k] = node[k];
  if (node.const !== undefined) out.enum = [node.const];
  if (Array.isArray(out.type)) return { ...ANY, ...(node.description ? { description: node.description } : {}) };
  if (node.items && typeof node.items === 'object') out.items = structural(root, node.items as Node, seen);
  if (node.properties) {
    out.type = 'object';
    out.properties = Object.fromEntries(Object.entries(node.properties as Record<string, Node>).map(([k, v]) => [k, structural(root, v, seen)]));
  } else if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    out.type = 'object';
    out.additionalProperties = structural(root, node.additionalProperties as Node, seen);
  } else if (out.type === 'object') {
    Object.assign(out, ANY);
  }
  if (out.type === undefined) {
    // An enum says its type; anything else untyped (a default of any shape) is any JSON.
    const values = Array.isArray(out.enum) ? (out.enum as unknown[]) : [];
    if (values.length > 0 && values.every((v) => typeof v === 'string')) out.type = 'string';
    else if (values.length > 0 && values.every((v) => typeof v === 'number')) out.type = 'number';
    else return { ...ANY, ...(node.description ? { description: node.description } : {}) };
  }
  return out;
}

const SERVER_STATUS: Node = {
  type: 'object',
  description: 'Written by Switchboard: what the reconciler last observed.',
  properties: {
    state: { type: 'string' },
    health: { type: 'string' },
    tools: { type: 'integer' },
    lastError: { type: 'string' },
    lastRestartedAt: { type: 'string', description: 'The restartRequestedAt value last processed.' },
    nextRetryAfter: { type: 'string', description: 'Next reconnect attempt of the backoff.' },
    observedGeneration: { type: 'integer' },
  },
};

const WORKFLOW_STATUS: Node = {
  type: 'object',
  description: 'Written by Switchboard: whether the workflow can run now.',
  properties: {
    available: { type: 'boolean', description: 'Every tool it calls (nested workflows followed) is in the catalogue.' },
    missing: { type: 'array', items: { type: 'string' }, description: 'The tools it calls that are not in the catalogue now, sorted.' },
    observedGeneration: { type: 'integer' },
  },
};

function crd(kind: 'MCPServer' | 'Workflow', plural: string, spec: Node, columns: Node[], status: Node): Node {
  const versionSchema: Node = { type: 'object', properties: { spec, status }, required: ['spec'] };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${CRD_GROUP}` },
    spec: {
      group: CRD_GROUP,
      scope: 'Namespaced',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List`, shortNames: kind === 'MCPServer' ? ['mcps'] : ['wf'] },
      versions: [
        {
          name: CRD_VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: versionSchema },
          subresources: { status: {} },
          additionalPrinterColumns: [...columns, { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
        },
      ],
    },
  };
}

/** The two CRDs, in the order they are applied. */
export function customResourceDefinitions(): Node[] {
  const server = loadSchema('mcpserver') as Node;
  const serverSpec = structural(server, { ...server, $ref: undefined }, []);
  // The name is the resource's metadata.name.
  delete (serverSpec.properties as Node).name;
  serverSpec.required = (serverSpec.required as string[]).filter((r) => r !== 'name');
  serverSpec.description = server.description;
  const workflow = loadSchema('workflow') as Node;
  const workflowSpec = structural(workflow, { $ref: '#/definitions/spec' }, []);
  return [
    crd(
      'MCPServer',
      'mcpservers',
      serverSpec,
      [
        { name: 'Type', type: 'string', jsonPath: '.spec.type' },
        { name: 'State', type: 'string', jsonPath: '.status.state' },
        { name: 'Health', type: 'string', jsonPath: '.status.health' },
        { name: 'Tools', type: 'integer', jsonPath: '.status.tools' },
        { name: 'Suspended', type: 'boolean', jsonPath: '.spec.suspended' },
      ],
      SERVER_STATUS,
    ),
    crd(
      'Workflow',
      'workflows',
      workflowSpec,
      [
        { name: 'Available', type: 'boolean', jsonPath: '.status.available' },
        { name: 'Missing', type: 'string', jsonPath: '.status.missing' },
        { name: 'Description', type: 'string', jsonPath: '.spec.description', priority: 1 },
      ],
      WORKFLOW_STATUS,
    ),
  ];
}

/** deploy/crds.yaml (and the Helm chart's crds/), as `switchboard crds` prints it. */
export function renderCrds(): string {
  return `# Generated by \`switchboard crds\` from schemas/; do not edit.\n${customResourceDefinitions()
    .map((d) => `---\n${stringify(d, { lineWidth: 0 })}`)
    .join('')}`;
}
