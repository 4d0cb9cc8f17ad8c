/**
 * plugins/workflows/output-schema.ts: the output schema a workflow declares, read from its
 * output template, and the rule for when it declares none.
 */
import { expect } from 'chai';
import { outputSchemaOf } from '../../plugins/workflows/output-schema.js';
import { compileValue } from '../../plugins/workflows/templates.js';

const schemaOf = (output: unknown) => outputSchemaOf(compileValue(output, (path) => `output ${path}`));
const propertiesOf = (output: unknown) => (schemaOf(output) as { properties: Record<string, unknown> } | undefined)?.properties;
const EXECUTION_ID = { type: 'string', description: "The run's id: its record in core_workflow_execution_get." };

describe('workflow output schema: what the output template says of a run', () => {
  it('declares none without a template, or for a template that is exactly one action', () => {
    expect(outputSchemaOf(undefined)).to.equal(undefined);
    expect(schemaOf('{{ .results.a }}')).to.equal(undefined);
    expect(schemaOf('{{- .results.a | toJson | fromJson -}}')).to.equal(undefined);
  });

  it('a mapping: an object with exactly its keys and the execution id, all required', () => {
    expect(schemaOf({ a: 'x', b: '{{ .input.b }}' })).to.deep.equal({
      type: 'object',
      description: "The rendering of the workflow's output template, with the run's execution_id.",
      properties: { execution_id: EXECUTION_ID, a: { type: 'string' }, b: {} },
      required: ['execution_id', 'a', 'b'],
      additionalProperties: false,
    });
  });

  it('types literals by their own type, text templates as strings, single actions as any value', () => {
    expect(propertiesOf({ s: 'plain', i: 3, n: 2.5, t: true, z: null, nan: Number.NaN, txt: 'n={{ .input.n }}', one: '{{ len .input.s }}' })).to.deep.equal({
      execution_id: EXECUTION_ID,
      s: { type: 'string' },
      i: { type: 'integer' },
      n: { type: 'number' },
      t: { type: 'boolean' },
      z: { type: 'null' },
      nan: { type: 'null' },
      txt: { type: 'string' },
      one: {},
    });
  });

  it('walks nested mappings and lists; a list of one kind says its items', () => {
    expect(propertiesOf({ m: { k: [1, 2], mixed: ['a', 1], empty: [] } })?.m).to.deep.equal({
      type: 'object',
      properties: {
        k: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'integer' } },
        mixed: { type: 'array', minItems: 2, maxItems: 2 },
        empty: { type: 'array', minItems: 0, maxItems: 0 },
      },
      required: ['k', 'mixed', 'empty'],
      additionalProperties: false,
    });
  });

  it("never lets the template's execution_id stand for the run's", () => {
    expect(propertiesOf({ execution_id: 7, a: 1 })).to.deep.equal({ execution_id: EXECUTION_ID, a: { type: 'integer' } });
  });

  it('a list, a literal or a text template: its value under `output`', () => {
    expect(propertiesOf(['{{ .a }}', 'b'])).to.deep.equal({ execution_id: EXECUTION_ID, output: { type: 'array', minItems: 2, maxItems: 2 } });
    expect(propertiesOf('done')).to.deep.equal({ execution_id: EXECUTION_ID, output: { type: 'string' } });
    expect(propertiesOf(42)).to.deep.equal({ execution_id: EXECUTION_ID, output: { type: 'integer' } });
    expect(propertiesOf('total {{ .results.a.total }}')).to.deep.equal({ execution_id: EXECUTION_ID, output: { type: 'string' } });
  });
});
