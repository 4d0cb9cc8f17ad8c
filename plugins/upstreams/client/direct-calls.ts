/**
 * tools/call on the hot path without the SDK's request machinery. A call without progress
 * needs only: an id, the line out, the answer back by id, a timeout and cancellation. The
 * SDK's Client.request also keeps progress and response-handler maps, checks the answer's
 * shape with zod and wraps it twice in promises; for the one request every call_tool makes
 * that was measurable against the stdio floor. Answers are recognised by their own ids
 * (strings, which the SDK never uses) before the SDK sees the message (message-router.ts);
 * everything else (the upstream's own requests, notifications, other answers) goes on.
 * Errors are the SDK's (McpError with the same codes), so mapUpstreamError reads them alike.
 *
 * A 2026-07-28 upstream's tools/call takes the same path (modern-upstream.ts): the v2 client's
 * request machinery costs more again (its codec classifies and decodes every answer, an
 * AbortController and two maps per request). Its request differs only in what it carries
 * (ModernSend: the `_meta` envelope, SEP-2243 headers); it is given up alike, by a
 * cancellation the HTTP transport turns into the end of its POST.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult, type JSONRPCMessage } from '#mcp-sdk/types.js';
import { SwitchboardError, type Cancellation } from '../../../kernel/index.js';
import { UpstreamAnswerError } from './call-errors.js';
import type { StreamSendOptions } from './http-client-transport.js';

const PREFIX = 'sb:';

/** The cancellation of our request `id`; a 2026-07-28 one carries the envelope. */
function cancelled(requestId: string, reason: string, envelope: Readonly<Record<string, unknown>> | undefined): JSONRPCMessage {
  const params = envelope ? { requestId, reason, _meta: envelope } : { requestId, reason };
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params };
}

/** A cancellation's reason as the SDK's request() would reject with it. */
function asCallError(reason: unknown): Error {
  return reason instanceof McpError ? reason : new SwitchboardError('CANCELLED', `the call was cancelled: ${String(reason)}`);
}

/** How a 2026-07-28 request goes out beyond what a legacy one needs. */
export interface ModernSend {
  /** The request's own headers (SEP-2243's `Mcp-Param-*`), when it has any. */
  headers: Readonly<Record<string, string>> | undefined;
  /**
   * The `_meta` every 2026-07-28 message carries: a cancellation's too. Over HTTP the transport
   * turns that cancellation into the end of the request's POST, which is how that revision
   * cancels there (http-client-transport.ts); over stdio it is sent as it is.
   */
  envelope: Readonly<Record<string, unknown>>;
}

/**
 * Given a call's result the moment its answer is taken, before the call's promise settles: the
 * way a ResultSink behind the call hears of it (kernel/tools.ts). Only an object result is
 * handed on; the promise settles with the same result either way.
 */
export type EarlyResult = (result: Record<string, unknown>) => void;

interface Pending {
  resolve(result: CallToolResult): void;
  reject(error: Error): void;
  early: EarlyResult | undefined;
}

/** A failing sink is not the call's failure: its promise settles all the same, and answers as usual. */
function handEarly(early: EarlyResult, result: unknown): void {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return;
  try {
    early(result as Record<string, unknown>);
  } catch {
    // The answer goes when the call's promise settles, as it does without a sink.
  }
}

export class DirectCalls {
  private next = 0;
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly transport: Transport) {}

  /** The id the next call is sent under (distinct from every id the SDK uses). */
  nextId(): string {
    return `${PREFIX}${++this.next}`;
  }

  /** True when `message` answers one of these calls: it is settled here and goes no further (message-router.ts). */
  take(message: JSONRPCMessage): boolean {
    const m = message as { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (typeof m.id !== 'string' || !m.id.startsWith(PREFIX)) return false;
    const p = this.pending.get(m.id);
    if (!p) return false;
    this.pending.delete(m.id);
    if (m.error) p.reject(new UpstreamAnswerError(m.error.code, m.error.message, m.error.data));
    else {
      if (p.early) handEarly(p.early, m.result);
      p.resolve(m.result as CallToolResult);
    }
    return true;
  }

  /** The transport closed: every call still waiting fails as the SDK's would. */
  closed(): void {
    this.failAll(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
  }

  /**
   * Sends tools/call with `params` under `id` (from nextId()); `modern` for a 2026-07-28 upstream;
   * `early` hears of the result before the call's promise settles.
   */
  call(
    id: string,
    params: Readonly<Record<string, unknown>>,
    cancellation: Cancellation,
    timeoutMs: number,
    modern?: ModernSend,
    early?: EarlyResult,
  ): Promise<CallToolResult> {
    return new Promise<CallToolResult>((resolve, reject) => {
      if (cancellation.aborted) {
        reject(asCallError(cancellation.reason));
        return;
      }
      const settle = () => {
        clearTimeout(timer);
        stopListening();
      };
      const cancel = (error: Error) => {
        if (!this.pending.delete(id)) return;
        settle();
        this.transport.send(cancelled(id, error.message, modern?.envelope)).catch(() => undefined);
        reject(error);
      };
      const timer = setTimeout(() => cancel(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs })), timeoutMs);
      const stopListening = cancellation.listen((reason) => cancel(asCallError(reason)));
      this.pending.set(id, {
        resolve: (r) => {
          settle();
          resolve(r);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
        early,
      });
      const request: JSONRPCMessage = { jsonrpc: '2.0', id, method: 'tools/call', params };
      const options: StreamSendOptions | undefined = modern?.headers && { headers: modern.headers };
      this.transport.send(request, options).catch((err: unknown) => {
        const p = this.pending.get(id);
        this.pending.delete(id);
        p?.reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  private failAll(error: McpError): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(error);
  }
}
