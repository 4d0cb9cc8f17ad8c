import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { customResourceDefinitions, renderCrds } from '../../plugins/store-kubernetes/crds.js';
import { loadSchema } from '../../kernel/config/validate.js';
import { ROOT } from '../support/harness.js';

describe('Kubernetes CRDs', () => {
  it("deploy/crds.yaml and the Helm chart's copy are exactly what the schemas render (regenerate with `node bin/switchboard.js crds`)", () => {
    expect(readFileSync(join(ROOT, 'deploy/crds.yaml'), 'utf8')).to.equal(renderCrds());
    expect(readFileSync(join(ROOT, 'deploy/helm/switchboard/crds/crds.yaml'), 'utf8')).to.equal(renderCrds());
  });

  it('give every field of an MCP server definition (but its name) and of a workflow spec a place in the resource spec', () => {
    const [server, workflow] = customResourceDefinitions() as {
      spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }[] };
    }[];
    const specOf = (crd: typeof server) => Object.keys(crd!.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties);
    const serverFields = Object.keys((loadSchema('mcpserver') as { properties: Record<string, unknown> }).properties).filter((f) => f !== 'name');
    expect(specOf(server)).to.have.members(serverFields);
    const workflowSpec = (loadSchema('workflow') as { definitions: { spec: { properties: Record<string, unknown> } } }).definitions.spec.properties;
    expect(specOf(workflow)).to.have.members(Object.keys(workflowSpec));
  });
});
