/**
 * The document a completed run returns. By default `{execution_id, workflow, status, input,
 * steps}` where steps are those marked `output: true` (or the last step when none is). A
 * workflow-level `output` template replaces the steps with its rendering; when it cannot be
 * rendered the run still completes, and the document carries the error beside every step's
 * raw result. Step `outputs` (the first engine's form) stay available as `outputs`.
 */
import type { JsonObject } from '../../kernel/index.js';
import type { CompiledWorkflow } from './compile-workflow.js';
import { TemplateError } from '#gotpl';
import type { RunData } from './step-runner.js';
import type { Budget } from '#gotpl';
import { renderValue } from './templates.js';

export interface ShownStep {
  id: string;
  tool: string;
  status: string;
  result: unknown;
}

export interface DocumentParts {
  executionId: string;
  data: RunData;
  /** Every completed or tolerated top-level step, in order. */
  steps: ShownStep[];
  marked: ShownStep[];
  outputs: Record<string, unknown>;
  /** What rendering the output template may spend. */
  budget: Budget;
}

/** JSON has no NaN or Infinity: they become null rather than break a client's parser. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = jsonSafe(v);
    return out;
  }
  return value;
}

export function resultDocument(wf: CompiledWorkflow, p: DocumentParts): JsonObject {
  const doc: JsonObject = { execution_id: p.executionId, workflow: wf.def.name, status: 'completed', input: p.data.input };
  if (wf.output) {
    try {
      doc.output = jsonSafe(renderValue(wf.output, { ...p.data, execution_id: p.executionId }, p.budget));
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      doc.output_error = `the output template could not be rendered: ${err.message}`;
      doc.steps = jsonSafe(p.steps);
    }
  } else {
    const last = p.steps.at(-1);
    doc.steps = jsonSafe(p.marked.length ? p.marked : last ? [last] : []);
  }
  if (Object.keys(p.outputs).length) doc.outputs = jsonSafe(p.outputs);
  return doc;
}
