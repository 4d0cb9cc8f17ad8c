/**
 * What an upstream asks or says to "its client" during a tool call goes to the client whose
 * call it is. One connection serves every session, so each message is matched to a call:
 *
 * 1. over streamable HTTP, a message that arrives on the response stream of a tools/call
 *    POST belongs to that call (the transport reports which POST carried it);
 * 2. otherwise (stdio, or an unrelated stream), the calls in flight to this server decide:
 *    when they all come from one session, it goes to that session;
 * 3. otherwise nobody can tell: a request is refused with a JSON-RPC error (never left
 *    hanging) and a log message stays in Switchboard's own log.
 *
 * sampling/createMessage, elicitation/create and roots/list are relayed only to a client
 * that declared the matching capability, and what a request asks beyond it (URL-mode
 * elicitation, tools in sampling) only to one that declared that too (relay-admission.ts);
 * the answer (or error) goes back to the upstream. Elicitations are rate-limited per session
 * (elicitation-rate.ts): beyond the burst the upstream is refused at once. A URL-mode elicitation's completion, which
 * may come after the call ended, goes to the client that was asked (elicitation-routes.ts),
 * and so does the completion of the pages an upstream's -32042 answer names.
 * A cancellation from the upstream, or the end of the call, cancels the relayed request.
 * What goes to the client (log messages, relayed requests' parameters) is scrubbed of known
 * secrets on the way: an upstream logging its environment must not hand it to the caller.
 *
 * During a call run as an upstream task (upstream-task.ts), a message that names the task in
 * its related-task metadata belongs to that call, before rules 1 to 3; the upstream's task id
 * is replaced by the caller's own (or removed when the caller asked for no task), and a
 * status notification of the task wakes the call's polling.
 */
import { randomUUID } from 'node:crypto';
import type { Transport } from '#mcp-sdk/shared/transport.js';
import { McpError, RELATED_TASK_META_KEY, type JSONRPCMessage, type LoggingLevel, type RequestId } from '#mcp-sdk/types.js';
import {
  URL_ELICITATION_REQUIRED,
  UrlElicitationRequiredError,
  type CallContext,
  type Logger,
  type SecretsApi,
  type UrlElicitation,
} from '../../../kernel/index.js';
import { upstreamWords } from './call-errors.js';
import { ElicitationRate, rateRefusal } from './elicitation-rate.js';
import { ElicitationRoutes } from './elicitation-routes.js';
import { isRelayed, refusal, type RelayedMethod } from './relay-admission.js';
import { readUrlElicitations } from './url-elicitation-check.js';

type Incoming = { jsonrpc: '2.0'; id?: RequestId; method?: string; params?: Record<string, unknown> };

/** A transport that says which of our requests' streams carried a message, and hands answers on at once. */
export interface RelatingTransport {
  onrelated?: (message: JSONRPCMessage, relatedRequestId: RequestId) => void;
  /** Asked first of each answer as it is read: true when it was taken (a direct call's: direct-calls.ts). */
  onanswer?: (message: JSONRPCMessage) => boolean;
}

export class ClientRelay {
  /** tools/call in flight, by the id we sent it under (a symbol when that id is not known). */
  private readonly inflight = new Map<RequestId | symbol, CallContext>();
  private readonly relatedOf = new WeakMap<object, RequestId>();
  /** Requests being relayed, for the upstream's cancellations. */
  private readonly relaying = new Map<RequestId, AbortController>();
  /** URL-mode elicitations waiting for the upstream's completion. */
  private readonly elicitations = new ElicitationRoutes();
  /** How many elicitations each session may still be asked (per this upstream connection). */
  private readonly elicitationRate = new ElicitationRate();
  /** Calls running as upstream tasks, by the upstream's task id; `wake` polls the task now. */
  private readonly tasks = new Map<string, { call: CallContext; wake: () => void }>();

  constructor(
    readonly server: string,
    private readonly log: Logger,
    private readonly secrets: SecretsApi,
  ) {}

  /** A tools/call about to be sent under `id` for `call`: what the upstream says during it goes to that call's client. */
  track(id: RequestId | symbol, call: CallContext): void {
    this.inflight.set(id, call);
  }

  /** The tools/call sent under `id` ended. */
  untrack(id: RequestId | symbol): void {
    this.inflight.delete(id);
  }

  /** `call` runs as the upstream's task `taskId`: what names the task goes to its client. */
  trackTask(taskId: string, call: CallContext, wake: () => void): void {
    this.tasks.set(taskId, { call, wake });
  }

  untrackTask(taskId: string): void {
    this.tasks.delete(taskId);
  }

  /** The transport saw `message` on the response stream of our request `id` (RelatingTransport). */
  related(message: JSONRPCMessage, id: RequestId): void {
    this.relatedOf.set(message, id);
  }

  private callFor(message: Incoming): CallContext | undefined {
    const task = relatedTask(message);
    if (task !== undefined && this.tasks.size > 0) {
      const byTask = this.tasks.get(task)?.call;
      if (byTask) return byTask;
    }
    const related = this.relatedOf.get(message);
    if (related !== undefined) return this.inflight.get(related);
    const calls = [...this.inflight.values()];
    const session = calls[0]?.request.session;
    return session && calls.every((c) => c.request.session === session) ? calls[0] : undefined;
  }

  /** True when the message was relayed here (the SDK must not see it); `send` answers the upstream. */
  take(message: JSONRPCMessage, send: Transport['send']): boolean {
    const m = message as Incoming;
    if (m.method === undefined) return false;
    if (m.id !== undefined && isRelayed(m.method)) {
      void this.relay(m as Incoming & { id: RequestId; method: RelayedMethod }, send);
      return true;
    }
    if (m.id === undefined && m.method === 'notifications/elicitation/complete') {
      this.forwardCompletion(m.params?.elicitationId);
      return true;
    }
    if (m.id === undefined && m.method === 'notifications/message') {
      this.forwardLog(m);
      return true;
    }
    if (m.id === undefined && m.method === 'notifications/tasks/status' && typeof m.params?.taskId === 'string') {
      const task = this.tasks.get(m.params.taskId);
      if (task) {
        task.wake();
        return true;
      }
    }
    if (m.id === undefined && m.method === 'notifications/cancelled') {
      const ctl = this.relaying.get(m.params?.requestId as RequestId);
      if (ctl) {
        ctl.abort();
        return true;
      }
    }
    return false;
  }

  /**
   * The upstream answered a tools/call of `call` with -32042 (the person must open pages
   * first): the error the caller gets, its pages under Switchboard's ids and their
   * completions routed to the caller; undefined for any other error, or pages refused
   * (those read as any upstream error).
   */
  urlRequired(err: unknown, call: CallContext): UrlElicitationRequiredError | undefined {
    if (!(err instanceof McpError) || err.code !== URL_ELICITATION_REQUIRED) return undefined;
    const pages = readUrlElicitations(err.data);
    if (typeof pages === 'string') {
      this.log.debug(`a -32042 answer from '${this.server}' is passed on as an upstream error: ${pages}`);
      return undefined;
    }
    const client = call.client;
    // Only a client that can be told of a completion is given ids to hear it under; routes are
    // keyed by the upstream's own id, as its completion will name it (scrubbed, it might not match).
    const routing = client?.capabilities()?.elicitation?.url ? client : undefined;
    const scrub = (text: string) => this.secrets.scrubText(text);
    const routed: UrlElicitation[] = pages.map((p) => ({
      ...p,
      url: scrub(p.url),
      message: scrub(p.message),
      elicitationId: routing ? this.elicitations.open(p.elicitationId, routing) : scrub(p.elicitationId),
    }));
    return new UrlElicitationRequiredError(this.server, this.secrets.scrubText(upstreamWords(err.code, err.message)), routed);
  }

  /**
   * A 2026-07-28 upstream's `input_required` embedded request during `call` (modern-upstream.ts):
   * asked of the calling client through its session as a relayed request is, under the same
   * admission (capabilities, elicitation rate), scrubbed the same way. A refusal is thrown as
   * the McpError a relayed request's upstream would have heard, so the call fails naming it.
   */
  async ask(call: CallContext, method: string, requested: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    if (!isRelayed(method)) throw new McpError(-32602, `'${this.server}' asked its client for '${method}', which is not a request a client answers`);
    if (!call.client) throw new McpError(-32603, `'${this.server}' asked for ${method} during a call that has no client to ask (a workflow step or a script)`);
    // A 2026-07-28 URL-mode question has no elicitationId (its key in inputRequests names it, and
    // the retry is its completion); a 2025-11-25 client needs one: Switchboard gives it its own.
    const params =
      method === 'elicitation/create' && requested?.mode === 'url' && requested.elicitationId === undefined
        ? { ...requested, elicitationId: randomUUID() }
        : requested;
    const refused = refusal(this.server, method, params, call.client.capabilities());
    if (refused) throw new McpError(refused.code, refused.message);
    const wait = method === 'elicitation/create' ? this.elicitationRate.take(call.request.session) : undefined;
    if (wait !== undefined) {
      const r = rateRefusal(this.server, wait);
      throw new McpError(r.code, r.message);
    }
    return call.client.request(method, this.secrets.scrubValue(params ?? {}), call.cancellation.signal);
  }

  private forwardCompletion(upstreamId: unknown): void {
    const route = typeof upstreamId === 'string' ? this.elicitations.complete(upstreamId) : undefined;
    if (!route) {
      this.log.debug(`'${this.server}' completed an elicitation Switchboard did not relay (or forgot): dropped`);
      return;
    }
    void route.client
      .notify('notifications/elicitation/complete', { elicitationId: route.id })
      .catch((err: unknown) => this.log.debug(`relaying an elicitation's completion: ${String(err)}`));
  }

  private async relay(m: Incoming & { id: RequestId; method: RelayedMethod }, send: Transport['send']): Promise<void> {
    const answer = (payload: { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } }) =>
      send({ jsonrpc: '2.0', id: m.id, ...payload }).catch((err: unknown) => this.log.debug(`answering ${m.method}: ${String(err)}`));
    const call = this.callFor(m);
    if (!call?.client && m.method === 'roots/list') {
      // Asked outside any call (servers ask at start-up): Switchboard itself has no roots.
      await answer({ result: { roots: [] } });
      return;
    }
    if (!call?.client) {
      await answer({
        error: {
          code: -32603,
          message: `Switchboard cannot tell which client '${m.method}' from server '${this.server}' is for: it did not come during one client's tool call`,
        },
      });
      return;
    }
    const refused = refusal(this.server, m.method, m.params, call.client.capabilities());
    if (refused) {
      await answer({ error: refused });
      return;
    }
    const wait = m.method === 'elicitation/create' ? this.elicitationRate.take(call.request.session) : undefined;
    if (wait !== undefined) {
      this.log.debug(`'${this.server}' asks session ${call.request.session.id} faster than the elicitation limit: refused`);
      await answer({ error: rateRefusal(this.server, wait) });
      return;
    }
    let params = this.secrets.scrubValue(m.params);
    // Admitted URL mode carries a string elicitationId (relay-admission.ts); the route is keyed
    // by it as sent, since the completion will name it so.
    const upstreamId = m.params?.mode === 'url' ? (m.params.elicitationId as string) : undefined;
    if (upstreamId !== undefined) params = { ...params, elicitationId: this.elicitations.open(upstreamId, call.client) };
    const ctl = new AbortController();
    const stop = call.cancellation.listen(() => ctl.abort());
    this.relaying.set(m.id, ctl);
    try {
      const result = await call.client.request(m.method, asCallers(params ?? {}, call), ctl.signal);
      if (upstreamId !== undefined && result.action !== 'accept') this.elicitations.drop(upstreamId);
      await answer({ result });
    } catch (err) {
      if (upstreamId !== undefined) this.elicitations.drop(upstreamId);
      const e = err as { code?: unknown; message?: string };
      await answer({ error: { code: typeof e.code === 'number' ? e.code : -32603, message: e.message ?? String(err) } });
    } finally {
      stop();
      this.relaying.delete(m.id);
    }
  }

  private forwardLog(m: Incoming): void {
    const params = this.secrets.scrubValue(m.params ?? {});
    const call = this.callFor(m);
    const logger = typeof params.logger === 'string' ? `${this.server}/${params.logger}` : this.server;
    if (!call?.client) {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify answers undefined for undefined, a function or a symbol, whatever its type says
      this.log.debug(`log (${String(params.level)}) outside any call: ${JSON.stringify(params.data)?.slice(0, 200)}`);
      return;
    }
    void call.client
      .log({ level: params.level as LoggingLevel, logger, data: params.data })
      .catch((err: unknown) => this.log.debug(`relaying a log message: ${String(err)}`));
  }
}

/** The upstream task a message says it belongs to (its related-task metadata). */
function relatedTask(m: Incoming): string | undefined {
  const meta = m.params?._meta as Record<string, { taskId?: unknown } | undefined> | undefined;
  const id = meta?.[RELATED_TASK_META_KEY]?.taskId;
  return typeof id === 'string' ? id : undefined;
}

/** Parameters relayed to the caller name the caller's task, never the upstream's. */
function asCallers(params: Record<string, unknown>, call: CallContext): Record<string, unknown> {
  const meta = params._meta as Record<string, unknown> | undefined;
  if (!meta || !(RELATED_TASK_META_KEY in meta)) return params;
  const { [RELATED_TASK_META_KEY]: _upstream, ...rest } = meta;
  if (call.task) rest[RELATED_TASK_META_KEY] = { taskId: call.task.id };
  const out = { ...params };
  if (Object.keys(rest).length > 0) out._meta = rest;
  else delete out._meta;
  return out;
}
