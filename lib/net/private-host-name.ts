/**
 * Host names that lead to a private place without showing an address: what a check that
 * never resolves the name (icons, which the client fetches from its own network) refuses.
 * The outbound policy needs none of this: it resolves every name and judges the addresses.
 *
 * - Single-label names (`metadata`, `instance-data`, `intranet`) resolve only through the
 *   local network's search domains.
 * - Special-use and private-use suffixes: `.localhost` (RFC 6761), `.local` (mDNS),
 *   `.internal` (ICANN's private-use TLD; `metadata.google.internal`,
 *   `instance-data.ec2.internal`), `.home.arpa` (RFC 8375), and the habitual `.lan`,
 *   `.intranet`, `.corp`, `.localdomain`; the cloud metadata name `metadata.goog`.
 * - Names that spell an address out: four decimal labels (`10.0.0.1.nip.io`), or one label
 *   with four dashed decimals (`app-127-0-0-1.sslip.io`, `ip-10-0-0-1.example`), classed as
 *   that address; under the wildcard-address services (nip.io, sslip.io, xip.io, traefik.me)
 *   also eight hex digits (`7f000001.nip.io`) and sslip.io's dashed IPv6 (`--1.sslip.io`).
 * - Services whose every name is the loopback address: localtest.me, lvh.me, vcap.me.
 *
 * Not caught: any other name its owner points at a private address. Only resolving tells,
 * and what the client's resolver answers is not ours to know.
 */
import { isIP } from 'node:net';
import { addressClass, type AddressClass } from './address-class.js';

const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'lan', 'intranet', 'corp', 'localdomain'];
const METADATA_NAMES = new Set(['metadata.goog']);
const WILDCARD_ADDRESS_DOMAINS = ['nip.io', 'sslip.io', 'xip.io', 'traefik.me'];
const LOOPBACK_DOMAINS = ['localtest.me', 'lvh.me', 'vcap.me'];

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX = /^[0-9a-f]{8}$/;

/** Every run of four decimal octets in `parts`, as a dotted quad (every window: a decoy in front hides nothing). */
function quads(parts: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 4 <= parts.length; i++) {
    const four = parts.slice(i, i + 4);
    if (four.every((p) => OCTET.test(p))) out.push(four.join('.'));
  }
  return out;
}

export type HostNameRefusal =
  | { why: 'single-label' | 'metadata-name' }
  | { why: 'private-suffix' | 'loopback-domain'; suffix: string }
  | { why: 'spelled-address'; address: string; addressClass: AddressClass };

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** The address a label (or run of labels) of `host` spells out, when it is a non-public one. */
function spelledAddress(host: string): { address: string; addressClass: AddressClass } | undefined {
  const labels = host.split('.');
  const candidates = quads(labels);
  for (const label of labels) candidates.push(...quads(label.split('-')));
  if (WILDCARD_ADDRESS_DOMAINS.some((d) => under(host, d)))
    for (const label of labels) {
      if (HEX.test(label)) candidates.push((label.match(/../g) ?? []).map((h) => parseInt(h, 16)).join('.'));
      const v6 = label.replaceAll('-', ':');
      if (label.includes('-') && isIP(v6) === 6) candidates.push(v6);
    }
  for (const address of candidates) {
    const cls = addressClass(address);
    if (cls) return { address, addressClass: cls };
  }
  return undefined;
}

/** Why `host` (lowercased, no brackets or trailing dot; not an IP literal) is no public name, or undefined. */
export function privateHostName(host: string): HostNameRefusal | undefined {
  if (!host.includes('.')) return { why: 'single-label' };
  const suffix = PRIVATE_SUFFIXES.find((s) => under(host, s));
  if (suffix) return { why: 'private-suffix', suffix };
  if (METADATA_NAMES.has(host)) return { why: 'metadata-name' };
  const loopback = LOOPBACK_DOMAINS.find((d) => under(host, d));
  if (loopback) return { why: 'loopback-domain', suffix: loopback };
  const spelled = spelledAddress(host);
  return spelled ? { why: 'spelled-address', ...spelled } : undefined;
}
