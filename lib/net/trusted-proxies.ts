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
    if (!this.any || !peer) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer);
    return mapped ? this.list.check(mapped[1]!, 'ipv4') : this.list.check(peer, isIP(peer) === 6 ? 'ipv6' : 'ipv4');
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
