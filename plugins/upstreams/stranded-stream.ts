/**
 * Over the older HTTP+SSE transport (`type: sse`) every answer rides the connection's one event
 * stream. A partition, a dropped NAT or balancer entry, or a proxy whose far side is gone can
 * strand that stream without a word: no end, no error, and the server still takes the POSTs
 * (202), so every call times out, for good. The transport has no keep-alives to judge silence by,
 * so a call that times out is the sign: a ping goes out, and with no answer within PROBE_MS the
 * stream is taken for dead and the connection made again. A server that answers the ping is
 * merely slow (the call was), and is left alone. One probe at a time per connection.
 */
import { SwitchboardError } from '../../kernel/index.js';
import type { UpstreamSession } from './client/upstream-session.js';

/** How long a ping may go unanswered before the stream that should carry its answer is taken for dead. */
export const PROBE_MS = 5_000;

export class StrandedStreamCheck {
  private probing: UpstreamSession | undefined;

  /** `stranded`: `session`'s stream was found dead, for `reason`. */
  constructor(private readonly stranded: (session: UpstreamSession, reason: string) => void) {}

  /** `calling`, a request of `session`, unchanged; when it times out, the stream is probed. */
  watch<T>(calling: Promise<T>, session: UpstreamSession): Promise<T> {
    return calling.catch((err: unknown) => {
      if (err instanceof SwitchboardError && err.code === 'TIMEOUT') void this.probe(session);
      throw err;
    });
  }

  private async probe(session: UpstreamSession): Promise<void> {
    if (this.probing === session || !session.answersWithin) return;
    this.probing = session;
    try {
      if (!(await session.answersWithin(PROBE_MS)))
        this.stranded(
          session,
          `a call timed out and a ping got no answer within ${PROBE_MS / 1000} s: the event stream that carries every answer is taken for dead`,
        );
    } finally {
      if (this.probing === session) this.probing = undefined;
    }
  }
}
