/**
 * A call's cancellation. Its AbortSignal is made only when someone reads `signal`: making an
 * AbortSignal and listening on it costs about 4 µs in Node 20, which on the stdio call_tool
 * path was a tenth of Switchboard's own work per call, for a signal that almost never fires.
 * The hot path listens with `listen` (a callback list) and reads `aborted`; a handler that
 * needs a signal (for fetch, for the SDK) reads `signal` and gets one, already aborted if the
 * call was.
 */
type Listener = (reason: unknown) => void;

export class Cancellation {
  private controller: AbortController | undefined;
  private listeners: Listener[] | undefined;
  private why: unknown;
  private fired = false;

  /** A cancellation that fires when `signal` does (a request the SDK dispatched). */
  static following(signal: AbortSignal): Cancellation {
    const c = new Cancellation();
    if (signal.aborted) c.abort(signal.reason);
    else signal.addEventListener('abort', () => c.abort(signal.reason), { once: true });
    return c;
  }

  get aborted(): boolean {
    return this.fired;
  }

  /** Why it fired; undefined while it has not. */
  get reason(): unknown {
    return this.why;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.fired) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  /** AbortController's own method, so the SDK can hold one of these where it keeps its controllers. */
  abort(reason?: unknown): void {
    if (this.fired) return;
    this.fired = true;
    this.why = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.controller?.abort(this.why);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const l of listeners) l(this.why);
  }

  /** Calls `listener` once when this fires (at once if it has); returns how to stop listening. */
  listen(listener: Listener): () => void {
    if (this.fired) {
      listener(this.why);
      return () => undefined;
    }
    (this.listeners ??= []).push(listener);
    return () => {
      const i = this.listeners?.indexOf(listener) ?? -1;
      if (i >= 0) this.listeners!.splice(i, 1);
    };
  }

  /** A cancellation that fires with this one, and can also fire on its own; `release` stops following. */
  child(): { cancellation: Cancellation; release: () => void } {
    const cancellation = new Cancellation();
    const release = this.listen((reason) => cancellation.abort(reason));
    return { cancellation, release };
  }
}
