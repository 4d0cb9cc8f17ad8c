/**
 * Which addresses an outbound fetch must not reach unless an operator allowed it: private,
 * loopback, link-local, unique-local, carrier-grade NAT, unspecified and multicast ranges
 * (and IPv4 mapped into IPv6, so `::ffff:127.0.0.1` is no way around the check).
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) blocked.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return blocked.check(address, 'ipv4');
}

const LOOPBACK_LITERAL = /^(127\.\d+\.\d+\.\d+|\[?::1\]?)$/;

/** A loopback IP literal or `localhost`: where native apps receive redirects (RFC 8252 section 7.3). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || LOOPBACK_LITERAL.test(hostname);
}
