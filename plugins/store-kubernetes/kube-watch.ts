/**
 * One watch of a custom resource kind, over the same node:http(s) connection settings as every
 * other call (kube-api.ts), so that it can never wait without end. The server is asked to end
 * the watch after `timeoutSeconds` (the store then lists and watches again); a watch that has
 * neither answered nor ended a while after that is taken for a dead connection (a kept-alive
 * socket whose peer is gone, a partition) and ended here. The Kubernetes client's own watch
 * set no deadline and handed out its way to stop only once the answer's headers had come.
 *
 * `done` is called once, never before `watchKind` has returned: with null when the server
 * ended the watch in good order, with the error otherwise (a refusal, a Status the stream
 * ended with, the deadline, the connection).
 */
import { KubeApiError, refusalOf, type KubeApi, type KubeObject, type Plural } from './kube-api.js';

export interface WatchHandle {
  /** Ends the watch; `done` is not called for an end asked for here. */
  stop(): void;
}

/** How long after the server was to end a watch it is taken for dead: half as long again, 1-30 s. */
function watchDeadlineMs(timeoutSeconds: number): number {
  return (timeoutSeconds + Math.min(30, Math.max(1, timeoutSeconds / 2))) * 1000;
}

/** A Status the server ends a stream with (a 410 for a resource version too old, say). */
function statusError(obj: unknown): KubeApiError {
  const s = (obj ?? {}) as { code?: number; reason?: string; message?: string };
  return new KubeApiError(s.code ?? 500, s.reason ?? 'Unknown', s.message ?? 'the watch ended with an error');
}

export function watchKind(
  api: KubeApi,
  plural: Plural,
  resourceVersion: string,
  onEvent: (type: string, obj: KubeObject) => void,
  done: (err: Error | null) => void,
  options: { timeoutSeconds: number },
): WatchHandle {
  let finished = false;
  let stopRequest: (() => void) | undefined;
  const deadlineMs = watchDeadlineMs(options.timeoutSeconds);
  const finish = (err: Error | null): void => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    stopRequest?.();
    // Never inside watchKind: the caller keeps its handle first.
    setImmediate(() => done(err));
  };
  const deadline = setTimeout(
    () =>
      finish(
        new Error(
          `the API server did not end the watch of ${plural} ${Math.round(deadlineMs / 1000)} s after it began (asked for ${options.timeoutSeconds} s): taken for a dead connection`,
        ),
      ),
    deadlineMs,
  );
  deadline.unref();
  const query = new URLSearchParams({ watch: 'true', resourceVersion, allowWatchBookmarks: 'true', timeoutSeconds: String(options.timeoutSeconds) });
  api
    .connection(`${api.path(plural)}?${query.toString()}`)
    .then(({ url, send, options: requestOptions }) => {
      if (finished) return;
      const req = send(url, { ...requestOptions, method: 'GET', headers: { ...requestOptions.headers, accept: 'application/json' } }, (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => finish(refusalOf(status, Buffer.concat(chunks).toString('utf8'))));
          return;
        }
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let newline: number;
          while (!finished && (newline = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, newline).trim();
            pending = pending.slice(newline + 1);
            if (!line) continue;
            let event: { type?: string; object?: unknown };
            try {
              event = JSON.parse(line) as typeof event;
            } catch {
              finish(new Error(`the watch of ${plural} sent a line that is not JSON`));
              return;
            }
            if (event.type === 'ERROR') finish(statusError(event.object));
            else if (typeof event.type === 'string') {
              try {
                onEvent(event.type, event.object as KubeObject);
              } catch (err) {
                // Thrown in a socket's data handler it would end the process; the store lists again instead.
                finish(err instanceof Error ? err : new Error(String(err)));
              }
            }
          }
        });
        res.on('end', () => finish(null));
        res.on('error', (err) => finish(err));
        res.on('aborted', () => finish(new Error(`the API server cut the watch of ${plural}`)));
      });
      stopRequest = () => req.destroy();
      req.on('error', (err) => finish(err));
      req.end();
    })
    .catch((err: unknown) => finish(err instanceof Error ? err : new Error(String(err))));
  return {
    stop() {
      finished = true;
      clearTimeout(deadline);
      stopRequest?.();
    },
  };
}
