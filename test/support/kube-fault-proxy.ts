/**
 * A plain-HTTP stand-in for the test API server that passes every call through to it (over
 * TLS, trusting its CA) except those a test chooses to refuse, which it answers itself the way
 * an overloaded API server does: 500 with a Status body. Watches stream through as they come,
 * unless the test has every watch cut as soon as it starts, as a balancer with a short idle
 * timeout would, or held unanswered, as a connection whose peer is gone is.
 * (The Kubernetes client speaks plain HTTP only with TLS checks switched off, which names no
 * certificate here.)
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { request } from 'node:https';
import { join } from 'node:path';
import type { KubeEnv } from './kube-env.js';

export interface KubeCall {
  method: string;
  path: string;
  body: string;
}

export interface KubeFaultProxy {
  /** The calls refused so far, in order. */
  readonly refused: KubeCall[];
  /** Ends every watch passed through so far, as an API server that restarts does (its clients watch again). */
  endWatches(): void;
  /** While on, each watch is ended as soon as its answer's headers went through; `cut` counts them. */
  cutWatches(on: boolean): void;
  readonly cut: KubeCall[];
  /** The next `count` watches are answered 200 with only an ERROR event (410 Expired), as for a compacted resource version. */
  expireWatches(count: number): void;
  readonly expired: KubeCall[];
  /** While on, each new watch gets no answer at all (its connection stays open); `held` counts them. */
  holdWatches(on: boolean): void;
  readonly held: KubeCall[];
  /** A kubeconfig file in `dir` that reaches the API server through this proxy with `token`. */
  kubeconfig(dir: string, token: string): Promise<string>;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `refuse` decides per call; it sees each call once. */
export async function startKubeFaultProxy(kube: KubeEnv, refuse: (call: KubeCall) => boolean): Promise<KubeFaultProxy> {
  const target = new URL(kube.server);
  const refused: KubeCall[] = [];
  const watches = new Set<ServerResponse>();
  const cut: KubeCall[] = [];
  let cutting = false;
  const held: KubeCall[] = [];
  let holding = false;
  const expired: KubeCall[] = [];
  let toExpire = 0;
  const server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const call = { method: req.method ?? 'GET', path: req.url ?? '/', body };
      if (refuse(call)) {
        refused.push(call);
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'InternalError', message: 'refused by the test', code: 500 }));
        return;
      }
      const watch = /[?&]watch=true/.test(call.path);
      if (watch && holding) {
        held.push(call);
        return;
      }
      if (watch && toExpire > 0) {
        toExpire--;
        expired.push(call);
        res.writeHead(200, { 'content-type': 'application/json' });
        const status = {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'Expired',
          message: 'too old resource version (expired by the test)',
          code: 410,
        };
        res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
        return;
      }
      if (watch) {
        watches.add(res);
        res.on('close', () => watches.delete(res));
      }
      const { host: _host, connection: _connection, ...headers } = req.headers;
      const upstream = request({ hostname: target.hostname, port: target.port, path: call.path, method: call.method, headers, ca: kube.ca }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // A watch's headers come long before its first event, and its client waits for them.
        res.flushHeaders();
        if (watch && cutting && answer.statusCode === 200) {
          cut.push(call);
          answer.destroy();
          res.end();
          return;
        }
        answer.pipe(res);
      });
      upstream.on('error', (err) => res.destroy(err));
      res.on('close', () => upstream.destroy());
      upstream.end(body || undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    refused,
    cut,
    endWatches() {
      for (const res of watches) res.end();
    },
    cutWatches(on) {
      cutting = on;
    },
    expired,
    expireWatches(count) {
      toExpire = count;
    },
    held,
    holdWatches(on) {
      holding = on;
    },
    async kubeconfig(dir, token) {
      const file = join(dir, `kubeconfig-proxy-${port}`);
      await writeFile(
        file,
        `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: "${token}"}}]\ncontexts: [{name: c, context: {cluster: c, user: u, namespace: switchboard}}]\ncurrent-context: c\n`,
      );
      return file;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
