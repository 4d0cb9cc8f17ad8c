/**
 * A connection to Redis that has died without a word (a partition, a NAT or balancer entry
 * dropped, a host gone without a reset) stays `ready` in ioredis: nothing closes it, TCP
 * keep-alive would notice after about two hours, and a command's timeout fails that command
 * only. Every command then times out on that replica, for good, while its /health says ok;
 * an idle subscriber connection, which sends nothing, never even sees a timeout, and the
 * broadcasts and session channels of the other replicas stop reaching it. So each connection
 * is asked PING every `intervalMs`; one that gives no answer within its command timeout is
 * closed and connected again (ioredis subscribes its channels again on reconnect), and the
 * reason is what /health says until it is back.
 */
import type { Redis } from 'ioredis';

/** One of the connections a replica holds, by its role in the log ('commands', 'subscriber'). */
export interface ProbedConnection {
  role: string;
  redis: Redis;
}

/** ioredis' words for a command that outlived `commandTimeout`. */
const TIMED_OUT = 'Command timed out';

/** Whether `err` is a command that got no answer within its timeout (not a refusal, not a closed connection). */
export function unanswered(err: unknown): boolean {
  return err instanceof Error && err.message === TIMED_OUT;
}

/**
 * Starts probing; the answer stops it. `onSilent` hears the role and the reason before the
 * connection is closed (the owner's health then says it). The timer never keeps the process
 * alive.
 */
export function probeSilentConnections(
  connections: readonly ProbedConnection[],
  options: { intervalMs: number; onSilent: (role: string, reason: string) => void },
): () => void {
  const inFlight = new Set<string>();
  const probe = ({ role, redis }: ProbedConnection): void => {
    if (redis.status !== 'ready' || inFlight.has(role)) return;
    inFlight.add(role);
    const connection = redis.stream;
    redis
      .ping()
      .catch((err: unknown) => {
        // Only silence counts: a refusal (LOADING, NOAUTH) is an answer, and a connection that
        // dropped meanwhile is being connected again already.
        if (!unanswered(err) || redis.status !== 'ready' || redis.stream !== connection) return;
        options.onSilent(role, `the ${role} connection answered no PING in time: taken for dead, connecting again`);
        redis.disconnect(true);
      })
      .finally(() => inFlight.delete(role));
  };
  const timer = setInterval(() => {
    for (const connection of connections) probe(connection);
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
