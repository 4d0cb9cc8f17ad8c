/**
 * Running a catalogue tool: the one path every call takes (call_tool, call_tools, workflow
 * steps). Lookup, visibility, argument validation, onCall, invoke: nothing else happens per
 * call, and the argument validator is compiled once per tool and cached.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
import type { Ajv, ValidateFunction } from 'ajv';
import { argumentProblems } from './argument-problems.js';
import type { Catalogue, CatalogueEntry } from './catalogue.js';
import { createAjv } from './config/validate.js';
import { re2PatternEngine } from './schema-patterns.js';
import type { CallEnd, CallOutcome } from './contracts/observations.js';
import { suggestTool } from './tool-suggestion.js';
import { InvalidArgumentsError, OutsideToolsetError, ServerUnavailableError, SwitchboardError, ToolNotFoundError } from './errors.js';
import type { KernelHooks } from './hooks.js';
import type { Logger } from './log.js';
import { SecretScrubber } from './secrets/scrubber.js';
import type { CallContext, JsonObject, ResultSink } from './tools.js';

const NO_VALIDATOR = null;

/** How far a call got, for its CallEnd. */
interface Progress {
  entry: CatalogueEntry | undefined;
  invoked: boolean;
}

export class ToolInvoker {
  /** Made at the first tool call that needs a validator: a start that never calls one makes none. */
  private ajv: Ajv | undefined;
  private readonly validators = new WeakMap<CatalogueEntry, ValidateFunction | typeof NO_VALIDATOR>();
  /** The tool whose schema is being compiled, named when one of its patterns is left to its upstream. */
  private compiling = '';
  /**
   * Patterns run on RE2 (schema-patterns.ts): an upstream writes them, a caller the text they
   * check, and a backtracking RegExp let one call hold the event loop for as long as it liked.
   */
  private readonly patterns = re2PatternEngine((pattern, why) =>
    this.log.warn(`input schema of '${this.compiling}': pattern ${JSON.stringify(pattern)} is left to its server (RE2 cannot run it: ${why})`),
  );
  private inflight = 0;
  private draining = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly catalogue: Catalogue,
    private readonly hooks: KernelHooks,
    private readonly log: Logger,
    private readonly secrets: SecretScrubber = new SecretScrubber(),
  ) {}

  /** Resolves a name the way call_tool does, including the request's view. */
  resolve(name: string, call: CallContext): CatalogueEntry {
    const entry = this.catalogue.get(name);
    const view = call.request.view;
    if (!entry) throw this.catalogue.whyAbsent(name) ?? new ToolNotFoundError(name, suggestTool(name, this.catalogue.all(), view));
    if (view && !view.includes(entry)) throw view.refusal?.(entry) ?? new OutsideToolsetError(name, view.selectors);
    return entry;
  }

  /**
   * Runs tool `name` for `call`. `sink`: the caller answers with this tool's result as it is
   * (call_tool), so a tool that relays its server's result may write it there at once.
   */
  call(name: string, args: JsonObject, call: CallContext, sink?: ResultSink): Promise<CallToolResult> {
    // Observed only when someone listens: the unobserved path takes no clock reading, and no
    // async frame of its own around run's promise (two promise jobs fewer a call).
    return this.hooks.onCallEnd.isUsed() ? this.observed(name, args, call, sink) : this.run(name, args, call, undefined, sink);
  }

  private async observed(name: string, args: JsonObject, call: CallContext, sink: ResultSink | undefined): Promise<CallToolResult> {
    const progress: Progress = { entry: undefined, invoked: false };
    const started = performance.now();
    try {
      const result = await this.run(name, args, call, progress, sink);
      this.ended(progress, result.isError ? 'error_result' : 'ok', started);
      return result;
    } catch (err) {
      this.ended(progress, progress.invoked ? 'error' : 'refused', started, err);
      throw err;
    }
  }

  private ended(progress: Progress, outcome: CallOutcome, started: number, err?: unknown): void {
    const e = progress.entry;
    const end: CallEnd = { tool: e?.name, server: e?.server, kind: e?.kind, outcome, durationMs: performance.now() - started };
    if (err instanceof SwitchboardError) end.errorCode = err.code;
    this.hooks.onCallEnd.call(end);
  }

  private async run(name: string, args: JsonObject, call: CallContext, progress: Progress | undefined, sink: ResultSink | undefined): Promise<CallToolResult> {
    if (this.draining) throw new ServerUnavailableError('switchboard', 'shutting down');
    const entry = this.resolve(name, call);
    if (progress) progress.entry = entry;
    const validate = this.validatorFor(entry);
    if (validate && !validate(args)) {
      throw new InvalidArgumentsError(name, argumentProblems(validate.errors));
    }
    if (this.hooks.onCall.isUsed()) await this.hooks.onCall.promise(entry, args, call);
    this.inflight++;
    if (progress) progress.invoked = true;
    try {
      const result = await (sink && entry.relaysResult ? entry.invoke(args, call, this.scrubbing(sink)) : entry.invoke(args, call));
      // One size check when no secret is known: the common case costs nothing.
      return this.secrets.size === 0 ? result : this.secrets.scrubResult(result);
    } finally {
      if (--this.inflight === 0 && this.idle.length) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** `sink`, given what the call's own result gets here: scrubbed of known secrets. */
  private scrubbing(sink: ResultSink): ResultSink {
    return this.secrets.size === 0 ? sink : (result) => sink(this.secrets.scrubResult(result));
  }

  /** Refuse new calls and wait (up to `ms`) for the ones running. Returns how many were still running. */
  async drain(ms: number): Promise<number> {
    this.draining = true;
    if (this.inflight === 0) return 0;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return this.inflight;
  }

  private validatorFor(entry: CatalogueEntry): ValidateFunction | null {
    let v = this.validators.get(entry);
    if (v === undefined && entry.checksOwnArguments) this.validators.set(entry, (v = NO_VALIDATOR));
    if (v === undefined) {
      try {
        // The draft an upstream names is not ours to enforce; its constraints are.
        const { $schema: _draft, $id: _id, ...schema } = entry.validationSchema ?? entry.inputSchema;
        this.compiling = entry.name;
        v = (this.ajv ??= createAjv({ code: { regExp: this.patterns } })).compile(schema);
      } catch (err) {
        // A sloppy upstream schema must not make its tools unusable: warn once, pass through.
        this.log.warn(`input schema of '${entry.name}' does not compile (${(err as Error).message}); its calls pass unvalidated`);
        v = NO_VALIDATOR;
      }
      this.validators.set(entry, v);
    }
    return v;
  }
}
