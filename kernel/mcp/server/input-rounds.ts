/**
 * Multi round-trip requests for 2026-07-28 clients: a legacy upstream that asks "its client"
 * something during a call (sampling/createMessage, elicitation/create, roots/list) cannot
 * reach a modern client, which has no session to be asked over. So the call keeps running
 * on this replica, the question is parked, and the client's request is answered with
 * `resultType: "input_required"`, the question as `inputRequests` and a sealed
 * `requestState`; the client's retry (the same tools/call with `inputResponses` and that
 * `requestState`) answers the parked question, and the call goes on to its result or to the
 * next question.
 *
 * The upstream's question is a live JSON-RPC request on this replica's connection to it (a
 * pipe, or a response stream): no other replica can answer it, so the retry must come back
 * here. `requestState` is sealed (AES-256-GCM, a key of this process: nothing else needs to
 * open it) and binds the parked call, the caller and the tool, so it can be neither forged
 * nor replayed by someone else; a replica that cannot open it (another replica, or this one
 * after a restart) says so with -32602, and the client starts the call again
 * (docs/decisions.md, "Multi round-trip across replicas").
 *
 * Bounded: a parked call waits PARK_MS for its retry, then its questions are refused to the
 * upstream (which ends the call); at most MAX_PARKED wait at once (beyond that a question is
 * refused at once).
 */
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import type { CallToolResult, JSONRPCNotification } from '#mcp-sdk/types.js';
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { Cancellation } from '../../cancellation.js';

export const PARK_MS = 10 * 60_000;
export const MAX_PARKED = 1_000;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What the call asks the client, as the client's embedded request. */
export interface InputRequest {
  method: string;
  params: Record<string, unknown>;
}

export type RoundOutcome =
  { kind: 'complete'; result: CallToolResult } | { kind: 'input_required'; inputRequests: Record<string, InputRequest>; requestState: string };

/** How the call reaches the client of the moment: questions parked, notifications on the current round's stream. */
export interface RoundChannel {
  ask(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
  notify(message: JSONRPCNotification): void;
  readonly cancellation: Cancellation;
}

interface Question extends InputRequest {
  resolve(result: Record<string, unknown>): void;
  reject(err: Error): void;
  asked: boolean;
}

interface Sealed {
  run: string;
  caller: string;
  tool: string;
}

class Run {
  readonly questions = new Map<string, Question>();
  readonly cancellation = new Cancellation();
  stream: ((n: JSONRPCNotification) => void) | undefined;
  expiry: NodeJS.Timeout | undefined;
  result: Promise<CallToolResult> | undefined;
  private wake: (() => void) | undefined;
  private counter = 0;

  constructor(readonly id: string) {}

  readonly channel: RoundChannel = {
    cancellation: this.cancellation,
    notify: (n) => this.stream?.(n),
    ask: (method, params, signal) =>
      new Promise((resolve, reject) => {
        const key = `q${++this.counter}`;
        this.questions.set(key, { method, params, resolve, reject, asked: false });
        signal.addEventListener('abort', () => {
          this.questions.delete(key);
          reject(new McpError(ErrorCode.RequestTimeout, 'the call that asked this ended'));
        });
        this.wake?.();
      }),
  };

  /** Resolves with the result, or once a question waits to be asked (gathered with those asked at the same moment). */
  async next(): Promise<{ kind: 'complete'; result: CallToolResult } | { kind: 'ask' }> {
    const asked = new Promise<'ask'>((resolve) => (this.wake = () => setImmediate(() => resolve('ask'))));
    if ([...this.questions.values()].some((q) => !q.asked)) this.wake!();
    const first = await Promise.race([this.result!, asked]);
    this.wake = undefined;
    return first === 'ask' ? { kind: 'ask' } : { kind: 'complete', result: first };
  }
}

export class InputRounds {
  private readonly parked = new Map<string, Run>();
  private readonly key = randomBytes(32);

  /**
   * One round of a tools/call: a new call (`start` runs it with the channel it must ask
   * through) or, with `requestState`, the continuation of a parked one. `caller` is who may
   * continue it (the person, else the client address); `cancellation` is this round's
   * request (closing its response cancels the call, as 2026-07-28 says).
   */
  async round(
    params: Record<string, unknown>,
    caller: string,
    stream: (n: JSONRPCNotification) => void,
    cancellation: Cancellation,
    start: (channel: RoundChannel) => Promise<CallToolResult>,
  ): Promise<RoundOutcome> {
    const tool = typeof params.name === 'string' ? params.name : '';
    let run: Run;
    if (params.requestState !== undefined) {
      run = this.resume(params.requestState, caller, tool);
      this.answer(run, params.inputResponses);
    } else {
      if (this.parked.size >= MAX_PARKED)
        throw new McpError(ErrorCode.InternalError, `Switchboard holds ${MAX_PARKED} calls waiting for their clients' input; try again later`);
      run = new Run(randomUUID());
      run.result = start(run.channel);
      // Settled whatever happens; its rejection is read by next().
      run.result.catch(() => undefined);
    }
    run.stream = stream;
    const stop = cancellation.listen((why) => run.cancellation.abort(why));
    try {
      const outcome = await run.next();
      if (outcome.kind === 'complete') {
        this.forget(run);
        return outcome;
      }
      const inputRequests: Record<string, InputRequest> = {};
      for (const [key, q] of run.questions) {
        if (q.asked) continue;
        q.asked = true;
        inputRequests[key] = { method: q.method, params: q.params };
      }
      this.park(run);
      return { kind: 'input_required', inputRequests, requestState: this.seal({ run: run.id, caller, tool }) };
    } catch (err) {
      this.forget(run);
      throw err;
    } finally {
      stop();
      run.stream = undefined;
    }
  }

  private resume(state: unknown, caller: string, tool: string): Run {
    const opened = typeof state === 'string' ? this.open(state) : undefined;
    if (!opened)
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: 'requestState' was not issued by this Switchboard replica (another replica, or before a restart, or altered); call the tool again without it",
      );
    if (opened.caller !== caller || opened.tool !== tool)
      throw new McpError(ErrorCode.InvalidParams, "Invalid params: 'requestState' belongs to another caller or another tool call");
    const run = this.parked.get(opened.run);
    if (!run)
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: the call 'requestState' continues has ended (answered already, or it waited too long); call the tool again",
      );
    clearTimeout(run.expiry);
    this.parked.delete(run.id);
    return run;
  }

  /** The retry's answers go to the questions they name; one left unanswered is asked again. */
  private answer(run: Run, responses: unknown): void {
    const given = typeof responses === 'object' && responses !== null ? (responses as Record<string, unknown>) : {};
    for (const [key, q] of run.questions) {
      const r = given[key];
      if (typeof r === 'object' && r !== null && !Array.isArray(r)) {
        run.questions.delete(key);
        q.resolve(r as Record<string, unknown>);
      } else q.asked = false;
    }
  }

  private park(run: Run): void {
    this.parked.set(run.id, run);
    run.expiry = setTimeout(() => {
      this.forget(run);
      for (const q of run.questions.values())
        q.reject(
          new McpError(ErrorCode.InternalError, `the 2026-07-28 client did not answer within ${PARK_MS / 60_000} minutes (no retry with inputResponses)`),
        );
      run.cancellation.abort(new Error('input was never given'));
    }, PARK_MS);
    run.expiry.unref();
  }

  private forget(run: Run): void {
    clearTimeout(run.expiry);
    this.parked.delete(run.id);
  }

  private seal(value: Sealed): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  private open(sealed: string): Sealed | undefined {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const v = JSON.parse(Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')) as Sealed;
      return typeof v.run === 'string' && typeof v.caller === 'string' && typeof v.tool === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }
}
