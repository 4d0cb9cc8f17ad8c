/**
 * One tools/call run as a task of the upstream (2025-11-25 tasks): the call creates the task,
 * tasks/get follows it at the upstream's poll interval (held between a floor and a ceiling,
 * task-bounds.ts) or sooner when the upstream announces a status, and tasks/result brings
 * the final result once the task needs input or is done. tasks/result is where an upstream
 * delivers what it asks during the task (elicitation, sampling): it is tracked like a
 * tools/call, so the relay hands those requests to the calling client.
 *
 * An upstream may ignore the task augmentation (MCP allows a receiver to) and answer the
 * tools/call with its result: that is the call's result, as from a plain call.
 *
 * The whole task is bounded by the call timeout. The caller's cancellation and the timeout
 * stop following and send tasks/cancel; the connection's loss fails the call at once (there
 * is nobody left to cancel). A cancellation that comes while the creating tools/call is still
 * in flight answers the caller at once, but the tools/call itself is left to be answered: the
 * upstream may have made its task already, and only the id it answers with lets that work be
 * cancelled (aborting the request, which sends notifications/cancelled, left a 30-second task
 * running: the upstream drops its answer to a cancelled request). An upstream that ignored the
 * augmentation and runs the call plainly is then left to finish it. The upstream's task id is opaque data checked for length, used
 * only on this connection: it names nothing Switchboard routes by.
 */
import type { Client } from '#mcp-sdk/client/index.js';
import { ErrorCode, McpError, RELATED_TASK_META_KEY, type CallToolResult } from '#mcp-sdk/types.js';
import { nextRequestId, PASSTHROUGH, SwitchboardError, TimeoutError, type CallContext, type JsonObject, type Logger } from '../../../kernel/index.js';
import type { ClientRelay } from './client-relay.js';
import { pollInterval, taskState, upstreamTaskId, type UpstreamTaskState } from './task-bounds.js';

/** tasks/cancel is a courtesy to the upstream: it gets this long, and the caller does not wait for it. */
const CANCEL_TIMEOUT_MS = 5_000;

export interface UpstreamTaskDeps {
  client: Client;
  server: string;
  relay: ClientRelay;
  /** Aborted when the connection closes. */
  lost: AbortSignal;
  scrub: (text: string) => string;
  log: Logger;
}

type Outcome = { ok: true; result: CallToolResult } | { ok: false; error: unknown };

function cancelled(reason: unknown): Error {
  return reason instanceof McpError || reason instanceof SwitchboardError
    ? reason
    : new SwitchboardError('CANCELLED', `the call was cancelled: ${String(reason)}`);
}

/** The final result without the upstream's related-task marker: its task id means nothing to the caller. */
function withoutUpstreamTask(result: CallToolResult): CallToolResult {
  const meta = result._meta;
  if (!meta || !(RELATED_TASK_META_KEY in meta)) return result;
  const { [RELATED_TASK_META_KEY]: _upstream, ...rest } = meta;
  const out: CallToolResult = { ...result };
  if (Object.keys(rest).length > 0) out._meta = rest;
  else delete out._meta;
  return out;
}

/** An answer with no `task` that is a CallToolResult (its content a list): the upstream ran the call plainly. */
function isPlainResult(created: unknown): created is CallToolResult {
  if (typeof created !== 'object' || created === null || 'task' in created) return false;
  return Array.isArray((created as { content?: unknown }).content);
}

/**
 * `pending`'s answer, or `stop`'s reason as soon as it aborts; an answer that comes after that
 * goes to `late` (a failure then is nobody's to hear).
 */
function untilStopped<T>(pending: Promise<T>, stop: AbortSignal, late: (value: T) => void): Promise<T> {
  const asError = (reason: unknown): Error => (reason instanceof Error ? reason : new Error(String(reason)));
  const giveUp = () => {
    pending.then(late, () => undefined);
    return asError(stop.reason);
  };
  if (stop.aborted) return Promise.reject(giveUp());
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(giveUp());
    stop.addEventListener('abort', onStop, { once: true });
    pending.then(
      (value) => {
        stop.removeEventListener('abort', onStop);
        resolve(value);
      },
      (error: unknown) => {
        stop.removeEventListener('abort', onStop);
        reject(asError(error));
      },
    );
  });
}

export async function runUpstreamTask(deps: UpstreamTaskDeps, name: string, args: JsonObject, call: CallContext, timeoutMs: number): Promise<CallToolResult> {
  const { client, server, relay } = deps;
  const deadline = Date.now() + timeoutMs;
  // Every way the task can end early aborts this, with the error the call fails with.
  const stop = new AbortController();
  if (call.cancellation.aborted) throw cancelled(call.cancellation.reason);
  const stopListening = call.cancellation.listen((reason) => stop.abort(cancelled(reason)));
  const timer = setTimeout(() => stop.abort(new TimeoutError(`tool '${name}' on server '${server}'`, timeoutMs)), timeoutMs);
  const onLost = () => stop.abort(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
  if (deps.lost.aborted) onLost();
  else deps.lost.addEventListener('abort', onLost, { once: true });
  // The SDK's own timeout is left a margin: the task's deadline (above) is the one that speaks.
  // Each request gets a signal of its own: the SDK never removes its listener from the one it
  // is given, and a task polled for an hour would pile them up on `stop`.
  const request = async (method: string, params: JsonObject): Promise<unknown> => {
    if (stop.signal.aborted) throw stop.signal.reason;
    const one = new AbortController();
    const forward = () => one.abort(stop.signal.reason);
    stop.signal.addEventListener('abort', forward, { once: true });
    try {
      return await client.request({ method, params }, PASSTHROUGH, { signal: one.signal, timeout: Math.max(1, deadline - Date.now()) + 1_000 });
    } finally {
      stop.signal.removeEventListener('abort', forward);
    }
  };
  // For the whole task the call is in flight on this connection (the relay's rule 2).
  const inFlight = Symbol(name);
  relay.track(inFlight, call);
  let taskId: string | undefined;
  /** The upstream task reached a final status: there is nothing left to cancel. */
  let ended = false;
  let wake: (() => void) | undefined;
  try {
    const ttl = call.task?.ttl ?? timeoutMs;
    const creating = client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl } } }, PASSTHROUGH, {
      timeout: Math.max(1, deadline - Date.now()) + 1_000,
    });
    const created = await untilStopped(creating, stop.signal, (late) => {
      if (isPlainResult(late) || deps.lost.aborted) return;
      try {
        const lateId = upstreamTaskId(server, late);
        client
          .request({ method: 'tasks/cancel', params: { taskId: lateId } }, PASSTHROUGH, { timeout: CANCEL_TIMEOUT_MS })
          .catch((e: unknown) => deps.log.debug(`tasks/cancel of tool '${name}' (created after it was cancelled): ${String(e)}`));
      } catch (e) {
        deps.log.debug(`tool '${name}': its task came after it was cancelled and could not be read: ${String(e)}`);
      }
    });
    // MCP lets a receiver ignore the task augmentation and answer as to a plain call: that answer is the result.
    if (isPlainResult(created)) return withoutUpstreamTask(created);
    taskId = upstreamTaskId(server, created);
    relay.trackTask(taskId, call, () => wake?.());
    call.task?.runsAs({ server, taskId });
    const id = taskId;

    let outcome: Outcome | undefined;
    let fetching: Promise<void> | undefined;
    const fetchResult = () => {
      fetching ??= (async () => {
        const resultId = nextRequestId(client) ?? Symbol('tasks/result');
        relay.track(resultId, call);
        try {
          outcome = { ok: true, result: withoutUpstreamTask((await request('tasks/result', { taskId: id })) as CallToolResult) };
          ended = true;
        } catch (error) {
          outcome = { ok: false, error };
        } finally {
          relay.untrack(resultId);
        }
      })();
    };
    let mirrored = '';
    const mirror = (state: UpstreamTaskState) => {
      if (!call.task || (state.status !== 'working' && state.status !== 'input_required')) return;
      const key = `${state.status}\n${state.statusMessage ?? ''}`;
      if (key === mirrored) return;
      mirrored = key;
      call.task.status(state.status, state.statusMessage === undefined ? undefined : deps.scrub(state.statusMessage));
    };

    for (;;) {
      const state = taskState(server, await request('tasks/get', { taskId: id }));
      mirror(state);
      ended = state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled';
      if (state.status === 'cancelled')
        throw new SwitchboardError('CANCELLED', `tool '${name}' on server '${server}': the server cancelled its task`, { server });
      // Input is asked, and the result given, through tasks/result: it blocks until the task ends.
      if (state.status !== 'working') fetchResult();
      if (state.status === 'completed' || state.status === 'failed') await fetching;
      else
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, pollInterval(state.pollInterval));
          function done() {
            clearTimeout(t);
            stop.signal.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          }
          wake = done;
          stop.signal.addEventListener('abort', done, { once: true });
          void fetching?.then(done);
        });
      if (stop.signal.aborted) throw stop.signal.reason;
      if (outcome) {
        if (outcome.ok) return outcome.result;
        throw outcome.error;
      }
    }
  } catch (err) {
    const reason: unknown = stop.signal.aborted ? stop.signal.reason : err;
    // The caller gave up, time ran out, or following failed: the upstream's work stops too
    // (not once it ended, nor when the connection is gone).
    if (taskId !== undefined && !ended && !deps.lost.aborted) {
      client
        .request({ method: 'tasks/cancel', params: { taskId } }, PASSTHROUGH, { timeout: CANCEL_TIMEOUT_MS })
        .catch((e: unknown) => deps.log.debug(`tasks/cancel of tool '${name}': ${String(e)}`));
    }
    throw reason;
  } finally {
    clearTimeout(timer);
    stopListening();
    deps.lost.removeEventListener('abort', onLost);
    relay.untrack(inFlight);
    if (taskId !== undefined) relay.untrackTask(taskId);
  }
}
