/**
 * The document a run returns (reference-behaviour.md §1). Completed, without an output
 * template: `{execution_id, workflow, status, input, steps, template_vars}`, steps being one
 * entry per step reached (step-entry.ts), plus the keys of a final, not output-enabled
 * step's object result, never over the document's own. With a workflow-level `output`
 * template: the rendering plus `execution_id`. With `_debug`: the full document, every
 * entry with its result, the rendering under `output`. A failed or cancelled run: the full
 * document with a top-level `error`. Step `outputs` (the first engine's form) stay as
 * `outputs`.
 */
import type { JsonObject } from '../../kernel/index.js';
import type { CompiledWorkflow } from './compile-workflow.js';
import { documentEntry, type StepEntry } from './step-entry.js';
import type { RunData } from './step-runner.js';
import type { RenderError } from './templates.js';

export interface DocumentParts {
  executionId: string;
  data: RunData;
  entries: readonly StepEntry[];
  /** template_vars, in order of first use. */
  inputs: ReadonlySet<string>;
  outputs: Record<string, unknown>;
  /** `_debug`: every entry's result, and the output template's rendering under `output`. */
  debug: boolean;
}

/**
 * `doc` is what the run's text shows; `shaped`, with `_debug` and an output template, is the
 * rendering plus `execution_id` the debug document replaced: what structuredContent holds
 * when the workflow declares an output schema (decisions.md "Structured output").
 */
export type Completion = { ok: true; doc: JsonObject; shaped?: JsonObject } | { ok: false; doc: JsonObject; error: string };

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

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function envelope(wf: CompiledWorkflow, p: DocumentParts, status: string, showAll: boolean, error?: string): JsonObject {
  const doc: JsonObject = { execution_id: p.executionId, workflow: wf.def.name, status, input: p.data.input };
  if (error !== undefined) doc.error = error;
  doc.steps = p.entries.map((e) => documentEntry(e, showAll || e.outputEnabled));
  doc.template_vars = [...p.inputs];
  if (Object.keys(p.outputs).length) doc.outputs = p.outputs;
  return doc;
}

/**
 * The last-step convenience: a final plain tool step that completed, is not output-enabled
 * and returned an object lends its keys to the document, adding only keys it lacks.
 */
function mergeLastStep(wf: CompiledWorkflow, p: DocumentParts, doc: JsonObject): void {
  const step = wf.steps.at(-1);
  const last = p.entries.at(-1);
  if (step?.kind !== 'tool' || !last || last.id !== step.id || last.record.path !== undefined) return;
  if (last.status !== 'completed' || step.output || !isObject(last.value)) return;
  for (const [k, v] of Object.entries(last.value)) if (!(k in doc)) doc[k] = v;
}

function fullDocument(wf: CompiledWorkflow, p: DocumentParts, showAll: boolean, status = 'completed'): JsonObject {
  const doc = envelope(wf, p, status, showAll);
  mergeLastStep(wf, p, doc);
  return doc;
}

/** The workflow's output template as the engine rendered it (off the event loop when it can loop). */
export type OutputRendering = { rendered: unknown } | { error: RenderError };

export function completedDocument(wf: CompiledWorkflow, p: DocumentParts, output: OutputRendering | undefined): Completion {
  if (!wf.output || !output) return { ok: true, doc: jsonSafe(fullDocument(wf, p, p.debug)) as JsonObject };
  if ('error' in output) {
    // A failure that loses nothing: every step's result is in the document.
    const error = `failed to render output template: ${output.error.message}`;
    const doc = jsonSafe(fullDocument(wf, p, true, 'failed')) as JsonObject;
    doc.output_error = error;
    return { ok: false, doc, error };
  }
  const rendered = jsonSafe(output.rendered);
  const shaped = shapedDocument(p.executionId, rendered);
  if (p.debug) {
    const doc = jsonSafe(fullDocument(wf, p, true)) as JsonObject;
    doc.output = rendered;
    return { ok: true, doc, shaped };
  }
  return { ok: true, doc: shaped };
}

/** The rendering's own keys, never over the execution id; a list or a string goes under `output`. */
function shapedDocument(executionId: string, rendered: unknown): JsonObject {
  const doc: JsonObject = { execution_id: executionId };
  if (isObject(rendered)) {
    for (const [k, v] of Object.entries(rendered)) if (k !== 'execution_id') doc[k] = v;
  } else doc.output = rendered;
  return doc;
}

/** A failed or cancelled run: the full document, with the human message as `error`. */
export function failedDocument(wf: CompiledWorkflow, p: DocumentParts, status: 'failed' | 'cancelled', error: string): JsonObject {
  return jsonSafe(envelope(wf, p, status, p.debug, error)) as JsonObject;
}
