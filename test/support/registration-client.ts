/**
 * Dynamic client registration (RFC 7591) as the registration tests send it: a small valid
 * document, one registration from an address behind the trusted proxy, distinct addresses from
 * a counter, and the protected Switchboard those tests register with.
 */
import { CLIENT_REDIRECT, protectedForSuite, type OAuthSetup } from './oauth-setup.js';
import { floodPost } from './health-poller.js';

/** At most this many clients stay registered in openRegistration(). */
export const MAX_CLIENTS = 50;

/** A valid registration document: a public client with one redirect. */
export const SMALL = { redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none', client_name: 'flood' };

export interface Answer {
  status: number;
  body: { error?: string; error_description?: string; client_id?: string };
  retryAfter: string | null;
}

/**
 * One registration as a client behind the trusted proxy at 127.0.0.1 sends it (its address in
 * X-Forwarded-For); by node:http (floodPost), not fetch: the floods send 21,000 of them.
 */
export async function register(base: string, doc: unknown, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await floodPost(`${base}/oauth/register`, typeof doc === 'string' ? doc : JSON.stringify(doc), {
    'content-type': 'application/json',
    'x-forwarded-for': from,
    ...headers,
  });
  const retryAfter = res.headers['retry-after'];
  return { status: res.status, body: res.text ? (JSON.parse(res.text) as Answer['body']) : {}, retryAfter: typeof retryAfter === 'string' ? retryAfter : null };
}

/** Addresses of distinct clients: 10.x.y.z from a counter. */
export const address = (n: number): string => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/**
 * For the enclosing mocha suite: open registration behind a trusted proxy at 127.0.0.1, at
 * most MAX_CLIENTS clients (started before the suite, stopped after it).
 */
export function openRegistrationForSuite(): () => OAuthSetup {
  return protectedForSuite({
    upstream: false,
    serverYaml: `      trustedProxyCIDRs: [127.0.0.1/32]\n      registration:\n        maxClients: ${MAX_CLIENTS}`,
  });
}
