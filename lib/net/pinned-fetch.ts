/**
 * fetch for URLs that come from configuration or from clients (an identity provider's
 * issuer, a client metadata document, a key set). The host name is resolved once, every
 * address checked, and the connection made to the checked address: no second lookup, so
 * no DNS-rebinding window between the check and the connect. TLS still verifies the name.
 * Redirects are never followed: a 3xx is the response (whoever asked decides what it means).
 */
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { isPrivateAddress } from './address-class.js';
import { pinnedLookup } from './outbound-policy.js';

export class PrivateAddressError extends Error {
  readonly code = 'PRIVATE_ADDRESS';
  constructor(
    readonly url: string,
    readonly address: string,
  ) {
    super(`${new URL(url).hostname} resolves to private IP address ${address}`);
    this.name = 'PrivateAddressError';
  }
}

interface Limits {
  /** Bytes of response body read at most (not with `stream`). */
  maxBodyBytes?: number;
  /** Without a signal of the caller's (not with `stream`). */
  timeoutMs?: number;
  /**
   * The response is handed over once its headers arrive and its body read as it comes (an
   * event stream never ends); the caller's signal is the only time limit.
   */
  stream?: boolean;
}

export type PinnedFetchOptions = Limits &
  (
    | {
        /** Let private, loopback and link-local addresses through (an operator's explicit flag). */
        allowPrivate: boolean;
      }
    | {
        /** Resolves and checks the host instead (the outbound policy): the address returned is the one connected to. */
        resolve: (url: URL) => Promise<{ address: string; family: number }>;
      }
  );

/** Resolves `hostname` and refuses it when any address is private (unless allowed). */
export async function resolveChecked(url: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const found = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await lookup(hostname, { all: true });
  if (!allowPrivate) {
    const bad = found.find((a) => isPrivateAddress(a.address));
    if (bad) throw new PrivateAddressError(url, bad.address);
  }
  return found[0]!;
}

function headersOf(res: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const one of v) h.append(k, one);
    else if (v !== undefined) h.set(k, v);
  }
  return h;
}

function responseOf(res: IncomingMessage, url: string, body: Buffer | ReadableStream<Uint8Array>): Response {
  const status = res.statusCode ?? 500;
  const nullBody = status === 204 || status === 304;
  if (nullBody && !Buffer.isBuffer(body)) res.resume();
  const response = new Response(nullBody ? null : body, { status, statusText: res.statusMessage ?? '', headers: headersOf(res) });
  Object.defineProperty(response, 'url', { value: url });
  return response;
}

/** A fetch-shaped function (what oauth4webapi's customFetch and oidc-provider's fetch take). */
export function pinnedFetch(options: PinnedFetchOptions): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const target = new URL(url);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error(`refusing to fetch ${target.protocol} URL ${url}`);
    const pin = pinnedLookup('resolve' in options ? await options.resolve(target) : await resolveChecked(url, options.allowPrivate));
    const headers = new Headers(init.headers);
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : init.body instanceof URLSearchParams
            ? init.body.toString()
            : undefined;
    if (init.body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const signal = init.signal ?? (options.stream ? undefined : AbortSignal.timeout(options.timeoutMs ?? 10_000));
    return new Promise<Response>((resolve, reject) => {
      const req = send(target, { method: init.method ?? 'GET', headers: Object.fromEntries(headers), lookup: pin, ...(signal ? { signal } : {}) }, (res) => {
        if (options.stream) {
          resolve(responseOf(res, url, Readable.toWeb(res) as ReadableStream<Uint8Array>));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            req.destroy(new Error(`response from ${target.origin} is larger than ${limit} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(responseOf(res, url, Buffer.concat(chunks))));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  };
}
