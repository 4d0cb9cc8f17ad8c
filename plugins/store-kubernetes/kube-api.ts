/**
 * The few API calls the store makes on its custom resources, over node:https. Where to
 * connect and how to authenticate (in-cluster service account, KUBECONFIG, exec plugins,
 * client certificates) is @kubernetes/client-node's KubeConfig; the calls themselves are
 * plain REST, so a write can carry another bearer (the caller's) without a second client.
 */
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { CRD_GROUP, CRD_VERSION } from './crds.js';

/** How long one call waits for an answer unless its caller says otherwise. */
const REQUEST_TIMEOUT_MS = 15_000;

/** A custom resource's plural (a registered kind's `plural`): `mcpservers`. */
export type Plural = string;

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; resourceVersion?: string; generation?: number; labels?: Record<string, string>; creationTimestamp?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface KubeList {
  items: KubeObject[];
  metadata: { resourceVersion: string };
}

/** A refusal of the API server, with its status, reason (Forbidden, Conflict, NotFound, ...) and message. */
export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

/** A call that got no answer: the connection refused, reset or failed its TLS handshake, or no answer in time. */
export class KubeUnreachableError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
    this.name = 'KubeUnreachableError';
  }
}

/** A refusal as the API server answered it: its Status body's reason and message, or the text a proxy sent. */
export function refusalOf(status: number, text: string): KubeApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A plain-text answer (a proxy's, or `404 page not found`): its first words are the message.
  }
  const s = (parsed ?? {}) as { reason?: string; message?: string };
  return new KubeApiError(status, s.reason ?? String(status), s.message ?? (text.slice(0, 300) || `HTTP ${status}`));
}

export class KubeApi {
  private readonly server: URL;

  constructor(
    readonly config: KubeConfig,
    readonly namespace: string,
  ) {
    const cluster = config.getCurrentCluster();
    if (!cluster) throw new Error('the Kubernetes configuration names no cluster (set KUBECONFIG, or run in a cluster)');
    this.server = new URL(cluster.server);
  }

  /** In a pod: its service account; elsewhere KUBECONFIG or ~/.kube/config. */
  static fromEnvironment(namespace: string): KubeApi {
    const config = new KubeConfig();
    config.loadFromDefault();
    return new KubeApi(config, namespace);
  }

  path(plural: Plural, name?: string, sub?: 'status'): string {
    return `/apis/${CRD_GROUP}/${CRD_VERSION}/namespaces/${encodeURIComponent(this.namespace)}/${plural}${name ? `/${encodeURIComponent(name)}` : ''}${sub ? `/${sub}` : ''}`;
  }

  /**
   * How a call to `path` is sent: its URL, node:http or node:https by the server's scheme, and
   * the options that carry the configured credentials and TLS settings (a watch sends its own
   * call with them: kube-watch.ts).
   */
  async connection(
    path: string,
  ): Promise<{ url: URL; send: typeof httpRequest; options: Omit<RequestOptions, 'headers'> & { headers: Record<string, string> } }> {
    const options: RequestOptions = { headers: {} };
    await this.config.applyToHTTPSOptions(options);
    const url = new URL(path, this.server);
    return {
      url,
      send: url.protocol === 'https:' ? httpsRequest : httpRequest,
      options: { ...options, headers: { ...(options.headers as Record<string, string>) } },
    };
  }

  /**
   * One call. `bearer` replaces the configured credentials (a write as the caller); the
   * connection's TLS settings stay the configured ones.
   */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    options: { contentType?: string; bearer?: string | undefined; timeoutMs?: number } = {},
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const { url, send, options: opts } = await this.connection(path);
    const headers: Record<string, string> = { ...opts.headers, accept: 'application/json' };
    if (options.bearer) {
      headers.authorization = `Bearer ${options.bearer}`;
      delete opts.cert;
      delete opts.key;
    }
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    return new Promise<T>((resolve, reject) => {
      const req = send(url, { ...opts, method, headers, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          if (status >= 200 && status < 300) return resolve(parsed as T);
          reject(refusalOf(status, text));
        });
        res.on('error', (err) => reject(new KubeUnreachableError(err)));
      });
      req.on('timeout', () =>
        req.destroy(
          new Error(`the Kubernetes API server at ${this.server.origin} did not answer in ${(timeoutMs / 1000).toFixed(timeoutMs % 1000 ? 1 : 0)} s`),
        ),
      );
      req.on('error', (err) => reject(new KubeUnreachableError(err)));
      req.end(payload);
    });
  }

  /**
   * The kinds the cluster serves in Switchboard's API group (the CRDs installed), by their
   * discovery document; subresources (`mcpservers/status`) are left out. Proves the server,
   * the credentials and the CRDs with one request that names no kind. `timeoutMs` lets start-up
   * keep an attempt inside its retry deadline.
   */
  async groupKinds(timeoutMs?: number): Promise<{ plural: string; kind: string }[]> {
    const doc = await this.request<{ resources?: { name: string; kind: string; namespaced?: boolean }[] }>(
      'GET',
      `/apis/${CRD_GROUP}/${CRD_VERSION}`,
      undefined,
      timeoutMs === undefined ? {} : { timeoutMs },
    );
    return (doc.resources ?? []).filter((r) => !r.name.includes('/')).map((r) => ({ plural: r.name, kind: r.kind }));
  }

  list(plural: Plural): Promise<KubeList> {
    return this.request('GET', this.path(plural));
  }

  get(plural: Plural, name: string): Promise<KubeObject> {
    return this.request('GET', this.path(plural, name));
  }
}
