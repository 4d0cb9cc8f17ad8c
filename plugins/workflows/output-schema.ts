/**
 * The output schema of a workflow tool, read from its `output` template once, when the
 * definition compiles (decisions.md "Structured output"). A workflow declares one
 * only when the template fixes the shape of what a run returns: the rendering plus
 * `execution_id` (result-document.ts). That is so for a mapping (its keys, always all
 * there), a list, a literal and a template with text around its actions (always a string,
 * under `output`); it is not for a template that is exactly one action, whose value may be
 * an object (its keys become the document's) or anything else (under `output`). Inside a
 * mapping or a list the same reading types each value: a literal by its own type, a text
 * template as a string, a single action as any JSON value.
 */
import type { JsonSchemaObject } from '../../kernel/index.js';
import type { CompiledValue } from './templates.js';

const EXECUTION_ID = { type: 'string', description: "The run's id: its record in core_workflow_execution_get." };

function literalSchema(value: unknown): JsonSchemaObject {
  if (value === null) return { type: 'null' };
  switch (typeof value) {
    case 'string':
      return { type: 'string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      // NaN and Infinity leave a run as null (result-document.ts).
      if (!Number.isFinite(value)) return { type: 'null' };
      return Number.isInteger(value) ? { type: 'integer' } : { type: 'number' };
    default:
      return {};
  }
}

/** What one value of the template renders to. */
function valueSchema(cv: CompiledValue): JsonSchemaObject {
  switch (cv.kind) {
    case 'literal':
      return literalSchema(cv.value);
    case 'template':
      // One action keeps its value's type, which nothing says before the run.
      return cv.template.yieldsValue ? {} : { type: 'string' };
    case 'object':
      return objectSchema(cv.entries);
    case 'array': {
      const items = cv.items.map(valueSchema);
      const first = JSON.stringify(items[0]);
      const schema: JsonSchemaObject = { type: 'array', minItems: items.length, maxItems: items.length };
      if (items.length > 0 && items.every((i) => JSON.stringify(i) === first)) schema.items = items[0];
      return schema;
    }
  }
}

function objectSchema(entries: readonly (readonly [string, CompiledValue])[]): JsonSchemaObject {
  const properties: Record<string, unknown> = {};
  for (const [key, value] of entries) properties[key] = valueSchema(value);
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The schema of what a run returns, or undefined when `output` leaves its shape to the run. */
export function outputSchemaOf(output: CompiledValue | undefined): JsonSchemaObject | undefined {
  if (output === undefined) return undefined;
  if (output.kind === 'template' && output.template.yieldsValue) return undefined;
  const properties: Record<string, unknown> = { execution_id: EXECUTION_ID };
  if (output.kind === 'object') {
    // The template's keys, never over the execution id (result-document.ts).
    for (const [key, value] of output.entries) if (key !== 'execution_id') properties[key] = valueSchema(value);
  } else properties.output = valueSchema(output);
  return {
    type: 'object',
    description: "The rendering of the workflow's output template, with the run's execution_id.",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}
