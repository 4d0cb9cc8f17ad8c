/**
 * What the event loop and a sandbox worker say to each other. Everything that crosses is
 * plain data, and what comes from or goes to a script is a JSON string: no object of the host
 * ever reaches the sandbox, and nothing the script built reaches the host unparsed.
 */
import type { MessagePort } from 'node:worker_threads';

/** The budgets of one script (options `plugins.code-mode.options`; wallMs possibly lowered by timeoutSeconds). */
export interface Budgets {
  wallMs: number;
  cpuMs: number;
  memoryBytes: number;
  stackBytes: number;
  maxCalls: number;
  maxConcurrentCalls: number;
  maxResultBytes: number;
  maxLogBytes: number;
}

/** A budget a script can exceed, named as in the options (the CODE_LIMIT error's `details.limit`). */
export type LimitName = keyof Budgets | 'maxScriptsPerCaller';

/** What a script asks of the host: a tool call, a search of the catalogue, or a tool's description. */
export type HostOp = 'call' | 'search' | 'describe';

export type ToWorker =
  | { type: 'run'; run: number; code: string; names: readonly string[]; budgets: Budgets }
  /** `json`: `{ok: true, value}` or `{ok: false, error: {code, message}}`, parsed in the sandbox. */
  | { type: 'answer'; run: number; call: number; json: string };

/**
 * An abort, sent on the worker's abort channel rather than with the other messages: the
 * worker reads it synchronously from its interrupt handler when the shared counter says one
 * is waiting, so it reaches a script that spins without ever yielding to the worker's loop.
 */
export interface AbortMessage {
  run: number;
  limit: LimitName | 'cancelled';
}

/** What a worker is started with (workerData): the abort channel and the counter of aborts sent on it. */
export interface WorkerSetup {
  aborts: MessagePort;
  /** An Int32Array's buffer of one element, incremented after each abort is posted. */
  abortCount: SharedArrayBuffer;
}

export type RunOutcome =
  | { ok: true; json: string }
  | { ok: false; kind: 'limit'; limit: LimitName; message: string }
  | { ok: false; kind: 'cancelled'; message: string }
  | { ok: false; kind: 'error'; message: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'call'; run: number; call: number; op: HostOp; name: string; args: string }
  | { type: 'end'; run: number; outcome: RunOutcome; logs: string[]; cpuMs: number; startMs: number };
