/**
 * A TCP hop between the replicas and Redis that can add latency on demand: every chunk in
 * either direction waits `delayMs / 2` before it is passed on, in order, so a round trip costs
 * `delayMs` more. Redis itself cannot be made slow per reply (DEBUG SLEEP stalls it whole);
 * this is the network being slow, which is the fault a replica meets in real life. It can
 * also cut the way to Redis (connections reset, new ones refused) while Redis runs on with
 * its data: a partition, or Redis restarted with persistence, as the replicas see it.
 */
import { createServer, createConnection, type Server, type Socket } from 'node:net';

export interface DelayProxy {
  port: number;
  /** Round-trip latency added from now on (0: none). */
  setDelay(ms: number): void;
  /** Cuts the way to Redis (true: every connection reset, new ones closed at once) or restores it. */
  setCut(cut: boolean): void;
  stop(): Promise<void>;
}

/** Passes `from`'s chunks to `to`, each after `delay()` / 2 ms, never reordering them. */
function pipeDelayed(from: Socket, to: Socket, delay: () => number): void {
  let chain = Promise.resolve();
  from.on('data', (chunk: Buffer) => {
    const wait = delay() / 2;
    chain = chain.then(() => (wait > 0 ? new Promise((r) => setTimeout(r, wait)) : undefined)).then(() => void (to.destroyed || to.write(chunk)));
  });
  from.on('close', () => void chain.then(() => to.destroy()));
  from.on('error', () => to.destroy());
}

export async function startDelayProxy(targetPort: number): Promise<DelayProxy> {
  let delayMs = 0;
  let cut = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    }
    pipeDelayed(client, upstream, () => delayMs);
    pipeDelayed(upstream, client, () => delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    setDelay: (ms) => void (delayMs = ms),
    setCut: (value) => {
      cut = value;
      if (cut) for (const s of sockets) s.destroy();
    },
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
