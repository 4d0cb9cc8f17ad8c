/**
 * A full garbage collection in another Node process, through its inspector
 * (`--inspect=127.0.0.1:0`; HeapProfiler.collectGarbage), so memory figures taken from
 * outside show what the process keeps rather than garbage V8 has not collected yet.
 * Needs the WebSocket global: Node 22, or Node 20 with --experimental-websocket.
 */

/** The inspector's WebSocket URL from the process's "Debugger listening on ws://..." line. */
export function inspectorUrl(log: string): string {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(log)?.[1];
  if (!url) throw new Error('the process printed no inspector URL: start it with --inspect=127.0.0.1:0');
  return url;
}

export async function collectGarbage(url: string, times = 2): Promise<void> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${url}`)), { once: true });
  });
  try {
    for (let id = 1; id <= times; id++) {
      await new Promise<void>((resolve) => {
        const onMessage = (event: MessageEvent) => {
          if ((JSON.parse(String(event.data)) as { id?: number }).id !== id) return;
          socket.removeEventListener('message', onMessage);
          resolve();
        };
        socket.addEventListener('message', onMessage);
        socket.send(JSON.stringify({ id, method: 'HeapProfiler.collectGarbage' }));
      });
    }
  } finally {
    socket.close();
  }
}
