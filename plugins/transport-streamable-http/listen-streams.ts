/**
 * The HTTP side of 2026-07-28 `subscriptions/listen`: the POST's response becomes an SSE
 * stream that stays open (the kernel's listens.ts decides what goes on it). Here: the SSE
 * framing, one keep-alive comment per interval on every open stream (one timer for all of
 * them), and backpressure. A client that stops reading leaves its writes waiting in Node's
 * buffer; the kernel then keeps at most one pending notification per kind, and a stream
 * still not drained after `stallSeconds` is dropped, so a listen that never reads holds a
 * bounded amount of memory and, at most, that long.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KernelApi, ListenHandle, ListenStream, RequestEnvelope, StatelessCaller } from '../../kernel/index.js';

export interface ListenOptions {
  /** Open listens one caller (a person, or a client address when anonymous) may hold on this replica. */
  maxPerCaller: number;
  /** Open listens this replica holds. */
  maxOpen: number;
  /** An SSE comment this often keeps intermediaries from closing a quiet stream. */
  keepAliveSeconds: number;
  /** A stream whose client has not read for this long is dropped. */
  stallSeconds: number;
}

export const LISTEN_DEFAULTS: ListenOptions = { maxPerCaller: 16, maxOpen: 1024, keepAliveSeconds: 15, stallSeconds: 60 };

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' };

class SseListen implements ListenStream {
  handle: ListenHandle | undefined;
  /** Keep-alive ticks the client has not read through. */
  stalledTicks = 0;

  constructor(readonly res: ServerResponse) {}

  write(message: object): boolean {
    if (this.res.writableEnded || this.res.destroyed) return false;
    if (!this.res.headersSent) this.res.writeHead(200, SSE_HEADERS);
    return this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }
}

export class ListenStreams {
  private readonly open = new Set<SseListen>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly kernel: KernelApi,
    private readonly options: ListenOptions,
  ) {}

  async serve(
    request: { id: string | number; method: string; params?: Record<string, unknown> },
    envelope: RequestEnvelope,
    caller: StatelessCaller,
    res: ServerResponse,
  ): Promise<true> {
    const stream = new SseListen(res);
    // Set by the 'close' listener while the kernel opens the listen.
    const state = { gone: false };
    res.on('close', () => {
      state.gone = true;
      this.open.delete(stream);
      stream.handle?.closed();
    });
    res.on('drain', () => {
      stream.stalledTicks = 0;
      stream.handle?.drained();
    });
    const outcome = await this.kernel.endpoint.listen(request, envelope, caller, stream, {
      perCaller: this.options.maxPerCaller,
      total: this.options.maxOpen,
    });
    if (outcome.kind === 'refused') {
      if (!state.gone && !res.headersSent) {
        const body = JSON.stringify(outcome.message);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }
      return true;
    }
    stream.handle = outcome.handle;
    if (state.gone) outcome.handle.closed();
    else if (!res.writableEnded) {
      this.open.add(stream);
      this.arm();
    }
    return true;
  }

  /** Ends every stream gracefully (the listen's result, then the end): the replica is stopping. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.kernel.endpoint.endListens();
  }

  private arm(): void {
    if (this.timer) return;
    const every = this.options.keepAliveSeconds * 1000;
    const stallTicks = Math.max(1, Math.ceil(this.options.stallSeconds / this.options.keepAliveSeconds));
    this.timer = setInterval(() => {
      for (const stream of this.open) {
        const res = stream.res;
        if (res.writableNeedDrain) {
          // Nothing written while the client does not read; dropped once it has not for stallSeconds.
          if (++stream.stalledTicks >= stallTicks) res.destroy();
          continue;
        }
        res.write(':\n\n');
      }
      if (this.open.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, every);
    this.timer.unref();
  }
}

/** The caller of a POST as the kernel's stateless side knows them. */
export function callerOf(kernel: KernelApi, req: IncomingMessage): StatelessCaller {
  const http = kernel.services.get('http');
  const identity = http.identityOf(req);
  const peer = req.socket.remoteAddress;
  const clientAddress = http.clientAddressOf(req);
  // Assigned rather than spread: this runs on every stateless request.
  const caller: StatelessCaller = { kind: 'streamable-http', headers: req.headers };
  if (identity) caller.identity = identity;
  if (peer) caller.peer = peer;
  if (clientAddress) caller.clientAddress = clientAddress;
  return caller;
}
