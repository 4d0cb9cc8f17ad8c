/**
 * The URL a client addressed: DPoP's htu (auth-server), the URLs the server card names
 * (http-server). Behind a TLS-terminating proxy the socket says http and the proxy's
 * address; X-Forwarded-Proto and -Host say what the client used. They are believed only
 * from trustedProxyCIDRs; from anyone else they are dropped, so a client cannot make a
 * proof for one URL pass at another, nor a card name a host of its choosing.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
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

  trusts(req: IncomingMessage): boolean {
    const peer = req.socket.remoteAddress;
    return this.any && peer !== undefined && this.trustsAddress(peer);
  }

  private trustsAddress(address: string): boolean {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return this.list.check(mapped[1]!, 'ipv4');
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  /**
   * The address of the client behind the request, for counting what one client does: the
   * peer, or, when the peer is a trusted proxy, the nearest X-Forwarded-For hop that is not
   * one (hops further left were written by whoever sent the request, and prove nothing).
   */
  clientAddress(req: IncomingMessage): string {
    const peer = req.socket.remoteAddress ?? 'unknown';
    if (!this.any || !this.trustsAddress(peer)) return peer;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => h.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (isIP(hop) === 0) break;
      if (!this.trustsAddress(hop)) return hop;
    }
    return peer;
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
