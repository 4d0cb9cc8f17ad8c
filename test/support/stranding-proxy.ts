/**
 * A TCP proxy on loopback in front of a server (Redis, for the tests) whose connections can be
 * stranded: from `strand()` on, every connection open at that moment passes nothing either way
 * and is never closed, as one is after a partition, a dropped NAT or balancer entry, or a host
 * gone without a reset. Connections made afterwards pass as before (the network healed, the
 * old connections did not). `retarget` sends connections made from then on to another server
 * (a failover moved the name), leaving those open where they are.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface StrandingProxy {
  /** 127.0.0.1 and the proxy's port. */
  port: number;
  /** Connections taken so far. */
  accepted(): number;
  /** Every connection open now goes silent for good. */
  strand(): void;
  /** Connections made from now on go to `port`. */
  retarget(port: number): void;
  close(): Promise<void>;
}

export async function startStrandingProxy(firstTarget: number): Promise<StrandingProxy> {
  let accepted = 0;
  let targetPort = firstTarget;
  const open = new Set<{ client: Socket; upstream: Socket; stranded: boolean }>();
  const server = createServer((client) => {
    accepted++;
    const pair = { client, upstream: createConnection({ host: '127.0.0.1', port: targetPort }), stranded: false };
    open.add(pair);
    // Stranded: what either side sends is dropped here, and neither side hears a close.
    client.on('data', (chunk: Buffer) => void (pair.stranded || pair.upstream.write(chunk)));
    pair.upstream.on('data', (chunk: Buffer) => void (pair.stranded || client.write(chunk)));
    const end = (): void => {
      if (pair.stranded) return;
      open.delete(pair);
      client.destroy();
      pair.upstream.destroy();
    };
    for (const socket of [client, pair.upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => accepted,
    strand() {
      for (const pair of open) pair.stranded = true;
    },
    retarget(port) {
      targetPort = port;
    },
    async close() {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
