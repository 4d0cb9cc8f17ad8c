/**
 * Keep-alive comments on what a transport holds open for a client without saying anything (a
 * session's event stream, a POST whose answer is slow in coming). Proxies and balancers cut
 * a response that says nothing for their idle timeout (nginx and AWS's ALB: 60 s; HAProxy: its
 * `timeout server`), which cut clients' notification streams, and the answer of a tool call
 * that took longer, with it. One timer for all of them, running only while there are any.
 */

/** Something kept alive: writes a comment if it can (its client is reading, it is not over). */
export interface KeptAlive {
  keepAlive(): void;
}

export class StreamKeepAlive {
  private readonly held = new Set<KeptAlive>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly everyMs: number) {}

  add(kept: KeptAlive): void {
    this.held.add(kept);
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const k of this.held) k.keepAlive();
      if (this.held.size === 0) this.stop();
    }, this.everyMs);
    this.timer.unref();
  }

  delete(kept: KeptAlive): void {
    this.held.delete(kept);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The comment written: the SSE format's own way to say nothing. */
export const KEEP_ALIVE_COMMENT = ':\n\n';

/** An interval option's JSON Schema: above 0, at most an hour (Node clamps a timer past 2^31 ms to 1 ms, which would write without pause). */
export function keepAliveSecondsSchema(description: string, defaultSeconds = 15): Record<string, unknown> {
  return { type: 'number', exclusiveMinimum: 0, maximum: 3600, default: defaultSeconds, description };
}
