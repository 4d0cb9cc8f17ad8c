/**
 * Opening and closing an HTTP(S) listener the same way everywhere: listening resolves once
 * bound (or rejects with the reason, naming where), closing ends keep-alive connections too,
 * so a stop never waits for an idle client to leave.
 */
import type { Server } from 'node:http';

export function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`${what}: cannot listen on ${host}:${port}: ${err.message}`)));
    server.listen(port, host, () => {
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound.port : port);
    });
  });
}

export function closeListener(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
