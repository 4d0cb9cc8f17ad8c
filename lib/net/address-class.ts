/**
 * What kind of address an IP is, for the outbound policy: every class named here is one a
 * caller must not make Switchboard reach (the host itself, its network, the cloud's metadata
 * service). `undefined` is an ordinary public address. IPv4 mapped into IPv6
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is classed as the IPv4 address it carries: BlockList
 * matches IPv4 rules against mapped addresses, so no form of the same address slips through.
 * The other IPv6 forms that carry an IPv4 address (6to4, NAT64, IPv4-translated,
 * IPv4-compatible, Teredo: ipv4-in-ipv6.ts) are classed by the address they carry too.
 */
import { BlockList, isIP } from 'node:net';
import { embeddedIPv4 } from './ipv4-in-ipv6.js';

export type AddressClass =
  'cloud-metadata' | 'loopback' | 'unspecified' | 'private' | 'link-local' | 'unique-local' | 'carrier-grade NAT' | 'multicast' | 'reserved';

type Net = readonly [address: string, prefix: number];

/** First match wins: metadata addresses sit inside link-local, unique-local and CGNAT ranges and must be named as what they are. */
const CLASSES: readonly (readonly [AddressClass, readonly Net[], readonly Net[]])[] = [
  // AWS/GCP/Azure/OpenStack, AWS ECS task metadata, Oracle; AWS over IPv6; Alibaba.
  [
    'cloud-metadata',
    [
      ['169.254.169.254', 32],
      ['169.254.170.2', 32],
      ['192.0.0.192', 32],
      ['100.100.100.200', 32],
    ],
    [['fd00:ec2::254', 128]],
  ],
  ['loopback', [['127.0.0.0', 8]], [['::1', 128]]],
  // 0.0.0.0 reaches the host's own listeners on Linux.
  ['unspecified', [['0.0.0.0', 8]], [['::', 128]]],
  [
    'private',
    [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
    [],
  ],
  ['link-local', [['169.254.0.0', 16]], [['fe80::', 10]]],
  [
    'unique-local',
    [],
    [
      ['fc00::', 7],
      ['fec0::', 10],
    ],
  ],
  ['carrier-grade NAT', [['100.64.0.0', 10]], []],
  ['multicast', [['224.0.0.0', 4]], [['ff00::', 8]]],
  // IETF protocol assignments, benchmarking, 240/4 and broadcast; local-use NAT64 (RFC 8215),
  // whose prefix length (and so where the IPv4 address sits) only the local network knows.
  [
    'reserved',
    [
      ['192.0.0.0', 24],
      ['198.18.0.0', 15],
      ['240.0.0.0', 4],
    ],
    [['64:ff9b:1::', 48]],
  ],
];

const LISTS: readonly (readonly [AddressClass, BlockList])[] = CLASSES.map(([name, v4, v6]) => {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return [name, list] as const;
});

/** The class of an IP address, or undefined for a public one (and for anything that is not an IP). */
export function addressClass(address: string): AddressClass | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [name, list] of LISTS) if (list.check(address, type)) return name;
  if (family === 4) return undefined;
  const embedded = embeddedIPv4(address);
  if (!embedded) return undefined;
  for (const ipv4 of embedded.ipv4) {
    const carried = addressClass(ipv4);
    if (carried) return carried;
  }
  // A deprecated form (IPv4-compatible, Teredo) has no public use worth a connection either.
  return embedded.deprecated ? 'reserved' : undefined;
}

/** True for every address a caller must not reach unaided: any class above. */
export function isPrivateAddress(address: string): boolean {
  return addressClass(address) !== undefined;
}

const LOOPBACK_LITERAL = /^(127\.\d+\.\d+\.\d+|\[?::1\]?)$/;

/** A loopback IP literal or `localhost`: where native apps receive redirects (RFC 8252 section 7.3). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || LOOPBACK_LITERAL.test(hostname);
}
