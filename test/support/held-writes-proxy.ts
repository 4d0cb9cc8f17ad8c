/**
 * A TCP proxy on loopback in front of a server (Redis, for the tests) that holds what a
 * client sends for `holdMs` when it matches `held`, and passes everything else at once. The
 * order on each connection is kept: a held chunk delays what follows it on that connection
 * only. A fault to replay a race: a write held long enough that every replica starting
 * meanwhile reads before it lands.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface HeldWritesProxy {
  /** 127.0.0.1 and the proxy's port. */
  port: number;
  /** Chunks held so far. */
  held(): number;
  close(): Promise<void>;
}

export async function startHeldWritesProxy(targetPort: number, holdMs: number, held: (chunk: Buffer) => boolean): Promise<HeldWritesProxy> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    sockets.add(client).add(upstream);
    // Each chunk waits for the one before it, so a held chunk holds the connection's later ones too.
    let last: Promise<void> = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const hold = held(chunk);
      if (hold) count++;
      last = last.then(
        () =>
          new Promise<void>((resolve) => {
            const send = (): void => {
              if (!upstream.destroyed) upstream.write(chunk);
              resolve();
            };
            if (hold) setTimeout(send, holdMs).unref();
            else send();
          }),
      );
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    held: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
