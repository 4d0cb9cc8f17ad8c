/**
 * The IPv4 address an IPv6 address carries, for the address classes (address-class.ts): an
 * IPv6 form that leads to 127.0.0.1 or 10.0.0.1 must be classed as that address, or a caller
 * writes `[2002:7f00:1::]` where `127.0.0.1` is refused.
 *
 * | form | prefix | where the IPv4 address sits | classed |
 * |---|---|---|---|
 * | IPv4-mapped (RFC 4291) | ::ffff:0:0/96 | last 32 bits | as it (BlockList does this too) |
 * | IPv4-translated (RFC 2765, SIIT) | ::ffff:0:0:0/96 | last 32 bits | as it |
 * | NAT64 well-known (RFC 6052) | 64:ff9b::/96 | last 32 bits | as it (DNS64 gives public names this form) |
 * | 6to4 (RFC 3056) | 2002::/16 | bits 16-47 | as it |
 * | IPv4-compatible (RFC 4291, deprecated) | ::/96 | last 32 bits | as it; a public one is reserved |
 * | Teredo (RFC 4380) | 2001::/32 | client: last 32 bits inverted; server: bits 32-63 | the client's, else the server's class; public ones reserved |
 *
 * A public IPv4 address in a deprecated form (IPv4-compatible, Teredo) is `deprecated`: no
 * service needs Switchboard to reach it that way, and Teredo's obfuscated client address is
 * just where a private address would hide.
 */
import { isIP } from 'node:net';

export interface EmbeddedIPv4 {
  /** The address carried; for Teredo, the client's, then the server's. */
  ipv4: readonly string[];
  /** The form is deprecated (IPv4-compatible, Teredo): a public address in it still has no business here. */
  deprecated: boolean;
}

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, a trailing dotted quad folded in). */
export function ipv6Groups(address: string): number[] {
  let a = address.toLowerCase();
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const split = a.indexOf('::');
  const head = (split >= 0 ? a.slice(0, split) : a).split(':').filter((g) => g !== '');
  const tail =
    split >= 0
      ? a
          .slice(split + 2)
          .split(':')
          .filter((g) => g !== '')
      : [];
  const fill: string[] = new Array<string>(8 - head.length - tail.length).fill('0');
  return [...head, ...fill, ...tail].map((g) => parseInt(g, 16));
}

function ipv4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

const zero = (groups: readonly number[], from: number, to: number) => groups.slice(from, to).every((g) => g === 0);

/** The IPv4 address `address` (an IPv6 address) carries, or undefined when it is not one of the forms above. */
export function embeddedIPv4(address: string): EmbeddedIPv4 | undefined {
  if (isIP(address) !== 6) return undefined;
  const g = ipv6Groups(address);
  const last = ipv4Of(g[6]!, g[7]!);
  if (zero(g, 0, 5) && g[5] === 0xffff) return { ipv4: [last], deprecated: false };
  if (zero(g, 0, 4) && g[4] === 0xffff && g[5] === 0) return { ipv4: [last], deprecated: false };
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(g, 2, 6)) return { ipv4: [last], deprecated: false };
  if (g[0] === 0x2002) return { ipv4: [ipv4Of(g[1]!, g[2]!)], deprecated: false };
  if (zero(g, 0, 6)) return { ipv4: [last], deprecated: true };
  if (g[0] === 0x2001 && g[1] === 0) return { ipv4: [ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff), ipv4Of(g[2]!, g[3]!)], deprecated: true };
  return undefined;
}
