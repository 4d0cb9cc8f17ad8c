/**
 * The meta-tool run_code: one script, many tool calls, one answer. The script's API is made
 * per call from the caller's own view (the request's toolset and authorization): the names it
 * may call, and nothing else. Every call it makes is a real call through the kernel's invoker
 * with the request's identity (authorization, toolset, argument validation, scrubbing,
 * onCall/onCallEnd for events and metrics), nested one level below run_code, so a workflow's
 * depth limit and the client channel (elicitation, sampling) apply as for call_tool.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '#mcp-sdk/types.js';
import {
  asSwitchboardError,
  callerOf,
  describePrincipal,
  errorResult,
  objectResult,
  SwitchboardError,
  TooLargeError,
  type CallContext,
  type CatalogueEntry,
  type JsonObject,
  type KernelApi,
  type MetaToolDefinition,
} from '../../kernel/index.js';
import type { Budgets, HostOp, RunOutcome } from './messages.js';
import type { CodeModeOptions } from './options.js';
import { signatureOf } from './signature.js';
import { limitMessage } from './limit-message.js';
import type { RunEnd, WorkerPool } from './worker-pool.js';
import { RunRecord, type CallSummary } from './run-record.js';

/** At most this many results from one tools.search. */
const MAX_SEARCH = 50;
/** Calls named in the execution's event; the rest are counted. */
const EVENT_CALLS = 20;

/** What a tool call gives the script: its structured content, else its text, else its content as is. */
function valueOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = result.content;
  if (content.every((c) => c.type === 'text')) return content.map((c) => (c as { text: string }).text).join('\n');
  return content;
}

function errorOf(result: CallToolResult): { code: string; message: string } {
  const error = (result.structuredContent as { error?: { code?: unknown } } | undefined)?.error;
  const message = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  return { code: typeof error?.code === 'string' ? error.code : 'TOOL_ERROR', message };
}

function visible(kernel: KernelApi, call: CallContext): readonly CatalogueEntry[] {
  const view = call.request.view;
  const all = kernel.catalogue.all();
  return view ? all.filter((e) => view.includes(e)) : all;
}

export class RunCode {
  /** Scripts running per caller (principal key). */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly kernel: KernelApi,
    private readonly pool: WorkerPool,
    private readonly options: () => CodeModeOptions,
  ) {}

  definition(): MetaToolDefinition {
    return {
      name: 'run_code',
      description:
        'Run JavaScript (an async function body) that calls tools and returns only what you need: `return (await tools.x_server_tool({...})).field`. ' +
        'In scope: tools.<name>(args) for every tool you can call (tools["x_a_b-c"](args) when the name is no identifier), tools.call(name, args), ' +
        'tools.search(query) (ranked like filter_tools), tools.describe(name) (schemas and a TypeScript signature), parallel([() => ..., ...]), console.log. ' +
        'No filesystem, network, timers or modules. Returns {result, logs, calls}.',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      // As a task, the task's id is the run's execution_id and tasks/cancel ends the script.
      execution: { taskSupport: 'optional' },
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['code'],
        properties: {
          code: { type: 'string', minLength: 1, maxLength: 100_000, description: 'The body of an async function; `return` gives the result (JSON).' },
          timeoutSeconds: { type: 'number', exclusiveMinimum: 0, description: 'Wall time for this script, at most the configured budget.' },
        },
      },
      handler: (args, call) => this.run(args.code as string, args.timeoutSeconds as number | undefined, call),
    };
  }

  private async run(code: string, timeoutSeconds: number | undefined, call: CallContext): Promise<CallToolResult> {
    const options = this.options();
    const principal = callerOf(this.kernel, call);
    const count = this.running.get(principal.key) ?? 0;
    if (count >= options.maxScriptsPerCaller) {
      throw new SwitchboardError('CODE_LIMIT', limitMessage('maxScriptsPerCaller', options.maxScriptsPerCaller), { limit: 'maxScriptsPerCaller' });
    }
    this.running.set(principal.key, count + 1);
    try {
      return await this.execute(code, timeoutSeconds, call, options, { key: principal.key, name: describePrincipal(principal) });
    } finally {
      const left = (this.running.get(principal.key) ?? 1) - 1;
      if (left === 0) this.running.delete(principal.key);
      else this.running.set(principal.key, left);
    }
  }

  private async execute(code: string, timeoutSeconds: number | undefined, call: CallContext, options: CodeModeOptions, caller: { key: string; name: string }) {
    // A task's run is known by the task's id, as a workflow's is.
    const executionId = call.task?.id ?? randomUUID();
    const history = this.kernel.services.find('executions');
    const input: JsonObject = timeoutSeconds === undefined ? { code } : { code, timeoutSeconds };
    const record = history ? new RunRecord(history, executionId, input, caller) : undefined;
    const wallMs = timeoutSeconds === undefined ? options.wallMs : Math.max(1, Math.min(options.wallMs, Math.ceil(timeoutSeconds * 1000)));
    const budgets: Budgets = { ...pickBudgets(options), wallMs };
    const entries = visible(this.kernel, call);
    const names = entries.map((e) => e.name);
    const { cancellation, release } = call.cancellation.child();
    const inner: CallContext = { ...call, cancellation, depth: call.depth + 1 };
    delete inner.progress;
    delete inner.task;
    const calls: CallSummary[] = [];
    const started = performance.now();
    const summarise = (c: CallSummary): void => {
      calls.push(c);
      record?.called(c);
    };

    const ask = async (op: HostOp, name: string, args: string): Promise<string> => {
      const t0 = performance.now();
      try {
        const value = await this.answer(op, name, args, inner, entries);
        summarise({ op, name, at: round(t0 - started), ms: round(performance.now() - t0), ok: true });
        return JSON.stringify({ ok: true, value });
      } catch (err) {
        const e = err instanceof ToolFailure ? err.error : toolError(err);
        summarise({ op, name, at: round(t0 - started), ms: round(performance.now() - t0), ok: false, error: e.code });
        return JSON.stringify({ ok: false, error: e });
      }
    };

    let result: RunEnd;
    try {
      const { id, end } = await this.pool.run(code, names, budgets, ask).catch(async (err: unknown) => {
        // Never started (code mode shutting down): the record says so rather than staying `running`.
        await record?.ended({ ok: false, kind: 'error', message: asSwitchboardError(err).message }, undefined, [], this.kernel.secrets);
        throw err;
      });
      const wall = setTimeout(() => this.pool.abort(id, 'wallMs'), wallMs);
      const unlisten = call.cancellation.listen(() => this.pool.abort(id, 'cancelled'));
      try {
        result = await end;
      } finally {
        clearTimeout(wall);
        unlisten();
      }
    } finally {
      // Calls still in flight when the script ended are cancelled upstream.
      cancellation.abort('the script ended');
      release();
    }
    const stats = { wallMs: round(performance.now() - started), cpuMs: round(result.cpuMs), startMs: round(result.startMs), calls: calls.length };
    this.event(executionId, caller, result.outcome, calls);
    const value = result.outcome.ok ? (JSON.parse(result.outcome.json) as unknown) : undefined;
    // Stored before the answer, so the record the answer names is there to read.
    await record?.ended(result.outcome, value, result.logs, this.kernel.secrets);
    if (result.outcome.ok) return objectResult({ execution_id: executionId, result: value, logs: result.logs, calls: [...calls], stats });
    const details: JsonObject = { execution_id: executionId, logs: result.logs, calls: [...calls], stats };
    const outcome = result.outcome;
    if (outcome.kind === 'limit') return errorResult(new SwitchboardError('CODE_LIMIT', outcome.message, { limit: outcome.limit, ...details }));
    if (outcome.kind === 'cancelled') return errorResult(new SwitchboardError('CANCELLED', outcome.message, details));
    return errorResult(new SwitchboardError('CODE_FAILED', `the script failed: ${outcome.message}`, details));
  }

  private async answer(op: HostOp, name: string, args: string, inner: CallContext, entries: readonly CatalogueEntry[]): Promise<unknown> {
    switch (op) {
      case 'call': {
        const { maxArgumentBytes } = this.kernel.settings().aggregator.limits;
        const bytes = Buffer.byteLength(args);
        if (bytes > maxArgumentBytes) throw new TooLargeError("The tool call's arguments", bytes, maxArgumentBytes);
        const parsed: unknown = JSON.parse(args);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          throw new SwitchboardError('INVALID_ARGUMENTS', `Invalid arguments for '${name}': arguments must be an object`);
        }
        const result = await this.kernel.tools.call(name, parsed as JsonObject, inner);
        if (result.isError) throw new ToolFailure(errorOf(result));
        return valueOf(result);
      }
      case 'search': {
        const search = this.kernel.services.find('tool-search');
        if (!search) throw new SwitchboardError('UNSUPPORTED', 'tools.search needs the meta-tools plugin');
        const { limit } = JSON.parse(args) as { limit?: unknown };
        const n = typeof limit === 'number' && limit >= 1 ? Math.min(MAX_SEARCH, Math.floor(limit)) : 10;
        return (await search.rank(name, entries)).slice(0, n).map(({ entry, score }) => ({ ...entry.discovery, score, signature: signatureOf(entry) }));
      }
      case 'describe': {
        const entry = this.kernel.tools.resolve(name, inner);
        const out: JsonObject = { ...entry.discovery, description: entry.description, inputSchema: entry.inputSchema, signature: signatureOf(entry) };
        if (entry.outputSchema) out.outputSchema = entry.outputSchema;
        return out;
      }
    }
  }

  /** The execution on the event log, filed under run_code with its id: who ran it, how it ended, the calls it made. */
  private event(executionId: string, caller: { key: string; name: string }, outcome: RunOutcome, calls: readonly CallSummary[]): void {
    const events = this.kernel.services.find('events');
    if (!events) return;
    const named = calls.slice(0, EVENT_CALLS).map((c) => `${c.op === 'call' ? '' : `${c.op}:`}${c.name}${c.ok ? '' : ` (${c.error})`}`);
    const more = calls.length > EVENT_CALLS ? ` and ${calls.length - EVENT_CALLS} more` : '';
    const how = outcome.ok ? 'completed' : outcome.kind === 'limit' ? `stopped (${outcome.limit})` : outcome.kind === 'cancelled' ? 'cancelled' : 'failed';
    events.record({
      type: outcome.ok ? 'Normal' : 'Warning',
      reason: outcome.ok ? 'CodeExecutionCompleted' : 'CodeExecutionFailed',
      resource: { type: 'Tool', name: 'run_code' },
      execution_id: executionId,
      message: `Code execution ${executionId} ${how}: ${calls.length} call(s)${named.length ? `: ${named.join(', ')}${more}` : ''}`,
      actor: caller,
    });
  }
}

/** A tool's own error result, as the script sees it. */
class ToolFailure extends Error {
  constructor(readonly error: { code: string; message: string }) {
    super(error.message);
  }
}

function toolError(err: unknown): { code: string; message: string } {
  const e = asSwitchboardError(err);
  return { code: e.code, message: e.message };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function pickBudgets(o: CodeModeOptions): Omit<Budgets, 'wallMs'> {
  return {
    cpuMs: o.cpuMs,
    memoryBytes: o.memoryBytes,
    stackBytes: o.stackBytes,
    maxCalls: o.maxCalls,
    maxConcurrentCalls: o.maxConcurrentCalls,
    maxResultBytes: o.maxResultBytes,
    maxLogBytes: o.maxLogBytes,
  };
}
