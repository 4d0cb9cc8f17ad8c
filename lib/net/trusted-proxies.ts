/**
 * The URL a client addressed: DPoP's htu (auth-server), the URLs the server card names
 * (http-server). Behind a TLS-terminating proxy the socket says http and the proxy's
 * address; X-Forwarded-Proto and -Host say what the client used. They are believed only
 * from trustedProxyCIDRs; from anyone else they are dropped, so a client cannot make a
 * proof for one URL pass at another, nor a card name a host of its choosing.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

export class TrustedProxies {
  private readonly list = new BlockList();
  private readonly any: boolean;

  constructor(cidrs: readonly string[]) {
    for (const cidr of cidrs) {
      const [net, bits] = cidr.split('/');
      const family = isIP(net ?? '') === 6 ? 'ipv6' : 'ipv4';
      if (!net || isIP(net) === 0) throw new Error(`trustedProxyCIDRs: '${cidr}' is not a CIDR`);
      this.list.addSubnet(net, bits === undefined ? (family === 'ipv6' ? 128 : 32) : Number(bits), family);
    }
    this.any = cidrs.length > 0;
  }

  /**
   * A socket's peer never changes, and each request asks up to three times (scrub,
   * clientAddress, requestUrl): the verdict is kept with the socket, not worked out again
   * through BlockList (a SocketAddress made at every look, 20-30 us a request in a flood).
   */
  private readonly verdicts = new WeakMap<Socket, boolean>();

  trusts(req: IncomingMessage): boolean {
    const socket = req.socket;
    const known = this.verdicts.get(socket);
    if (known !== undefined) return known;
    const peer = socket.remoteAddress;
    if (peer === undefined) return false; // a socket already closed: nothing to keep
    const verdict = this.trustsAddress(peer);
    this.verdicts.set(socket, verdict);
    return verdict;
  }

  private trustsAddress(address: string): boolean {
    if (!this.any) return false;
    const v4 = unmapped(address);
    const family = isIP(v4);
    return family !== 0 && this.list.check(v4, family === 6 ? 'ipv6' : 'ipv4');
  }

  /**
   * The client's address: from a trusted proxy, X-Forwarded-For read from the right (each
   * proxy appends the address it was reached from), skipping hops that are trusted proxies
   * themselves; the first one that is not is the client as far as anyone trustworthy saw it.
   * Hops left of it are the client's own say and never believed. Without a trusted proxy, or
   * with a hop that is not an address, the socket's peer.
   */
  clientAddress(req: IncomingMessage): string | undefined {
    const peer = req.socket.remoteAddress;
    if (peer === undefined || !this.trusts(req)) return peer && unmapped(peer);
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '');
    let client = unmapped(peer);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = unmapped(hops[i]!);
      if (isIP(hop) === 0) break;
      client = hop;
      if (!this.trustsAddress(hop)) break;
    }
    return client;
  }

  /** Removes forwarded headers an untrusted peer sent, so nothing downstream believes them. */
  scrub(req: IncomingMessage): void {
    if (this.trusts(req)) return;
    for (const h of ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-for', 'x-forwarded-port', 'forwarded']) Reflect.deleteProperty(req.headers, h);
  }

  /** scheme://host/path of the request as the client addressed it (no query, no fragment). */
  requestUrl(req: IncomingMessage, path: string): string {
    const trusted = this.trusts(req);
    const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
    const proto = (trusted && first(req.headers['x-forwarded-proto'])) || (req.socket instanceof TLSSocket ? 'https' : 'http');
    const host = (trusted && first(req.headers['x-forwarded-host'])) || req.headers.host || 'localhost';
    return `${proto}://${host}${path}`;
  }
}

/** An IPv4 address as IPv4 (`::ffff:10.0.0.1` is 10.0.0.1), anything else as it is. */
function unmapped(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}
