/**
 * The outbound address policy: where Switchboard may connect on a caller's behalf
 * (core_mcpserver_detect, remote servers created or re-pointed through core tools, their
 * sign-in discovery). A caller-chosen URL must not turn Switchboard into a way into the host,
 * its private network or the cloud's metadata service, so every non-public address class
 * (address-class.ts) is refused unless `aggregator.network.allow` admits it.
 *
 * Resolution is pinned: the name is resolved once, every address checked, and the connection
 * made to the checked address, so a name that answers a public address to the check and a
 * private one to the connect (DNS rebinding) gets nowhere.
 *
 * The allow list is compiled once per settings snapshot (`outboundPolicy(settings)`), not per
 * connection: a hot reload yields a new snapshot and so a new policy.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { McpServerDefinition, Settings } from '../../kernel/config/settings.js';
import { ForbiddenError } from '../../kernel/errors.js';
import { addressClass, type AddressClass } from './address-class.js';

export const NETWORK_ALLOW = 'aggregator.network.allow';

export interface PinnedAddress {
  address: string;
  family: number;
}

/** A caller's URL leads to an address the policy refuses: FORBIDDEN, naming host, class and the setting. */
export class OutboundRefusedError extends ForbiddenError {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: AddressClass,
    field?: string,
  ) {
    const where = host === address ? `'${host}' is a ${addressClass} address` : `'${host}' resolves to ${address}, a ${addressClass} address`;
    // Metadata addresses are admitted only by address (a host-name entry never admits them).
    const entry = addressClass === 'cloud-metadata' || host === address ? address : host;
    super(
      `Forbidden: ${field ? `${field}: ` : ''}${where}; Switchboard connects on a caller's behalf only to public addresses unless ${NETWORK_ALLOW} admits it (e.g. "${entry}") [rule: ${NETWORK_ALLOW}]`,
      { host, address, addressClass, rule: NETWORK_ALLOW, ...(field ? { field } : {}) },
    );
  }
}

/** Strips IPv6 brackets and a trailing dot, lowercases: the form host-name entries are matched in. */
export function normalHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

interface Compiled {
  addresses: BlockList;
  hosts: Set<string>;
  /** `*.svc.local` kept as `.svc.local`: admits names below it, not the name itself. */
  suffixes: string[];
  problems: AllowEntryProblem[];
}

/** An entry of aggregator.network.allow that means nothing: which one, and why. */
export interface AllowEntryProblem {
  index: number;
  message: string;
}

function compile(entries: readonly string[]): Compiled {
  const out: Compiled = { addresses: new BlockList(), hosts: new Set(), suffixes: [], problems: [] };
  entries.forEach((raw, i) => {
    const entry = raw.trim();
    const slash = entry.indexOf('/');
    if (slash >= 0) {
      const net = normalHost(entry.slice(0, slash));
      const bits = entry.slice(slash + 1);
      const family = isIP(net);
      const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
      if (family === 0 || !(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) {
        out.problems.push({ index: i, message: `'${raw}' is not a CIDR (an IPv4 or IPv6 address, '/', a prefix length up to ${family === 6 ? 128 : 32})` });
        return;
      }
      out.addresses.addSubnet(net, prefix, family === 4 ? 'ipv4' : 'ipv6');
      return;
    }
    const host = normalHost(entry);
    const family = isIP(host);
    if (family) out.addresses.addAddress(host, family === 4 ? 'ipv4' : 'ipv6');
    else if (host.startsWith('*.') && HOST_NAME.test(host.slice(2))) out.suffixes.push(host.slice(1));
    else if (HOST_NAME.test(host)) out.hosts.add(host);
    else out.problems.push({ index: i, message: `'${raw}' is neither a CIDR, an IP address, a host name nor a '*.suffix' pattern` });
  });
  return out;
}

export class OutboundPolicy {
  private readonly allow: Compiled;

  constructor(entries: readonly string[]) {
    this.allow = compile(entries);
  }

  /** Entries that mean nothing (a settings check reports them; they admit nothing). */
  get problems(): readonly AllowEntryProblem[] {
    return this.allow.problems;
  }

  private hostAllowed(host: string): boolean {
    return this.allow.hosts.has(host) || this.allow.suffixes.some((s) => host.endsWith(s));
  }

  /** The class that keeps `host` (resolved to `address`) out, or undefined when it may be reached. */
  refusal(hostname: string, address: string): AddressClass | undefined {
    const cls = addressClass(address);
    if (cls === undefined) return undefined;
    if (this.allow.addresses.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6')) return undefined;
    // A name is the operator's word for that service, not for whatever the name may be made to point at the metadata endpoint.
    if (cls !== 'cloud-metadata' && this.hostAllowed(normalHost(hostname))) return undefined;
    return cls;
  }

  /** Throws OutboundRefusedError when `address` (what `hostname` resolved to) is refused. */
  check(hostname: string, address: string, field?: string): void {
    const cls = this.refusal(hostname, address);
    if (cls !== undefined) throw new OutboundRefusedError(normalHost(hostname), address, cls, field);
  }

  /**
   * Resolves `hostname` once and checks every address it has (one refused address refuses
   * the name: which one the connect would pick is not ours to know). Returns the address to
   * connect to. Resolution failures (ENOTFOUND) are thrown as they are.
   */
  async resolve(hostname: string, field?: string): Promise<PinnedAddress> {
    const host = normalHost(hostname);
    const family = isIP(host);
    const found = family ? [{ address: host, family }] : await lookup(host, { all: true, verbatim: true });
    if (found.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
    for (const a of found) this.check(host, a.address, field);
    return found[0]!;
  }
}

/** A LookupFunction that answers with the pinned address only (what node:http and node:net take). */
export function pinnedLookup(pinned: PinnedAddress): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: PinnedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

const compiled = new WeakMap<Settings['aggregator']['network'], OutboundPolicy>();

/** The policy of a settings snapshot, compiled on first use. */
export function outboundPolicy(settings: Pick<Settings, 'aggregator'>): OutboundPolicy {
  const network = settings.aggregator.network;
  let policy = compiled.get(network);
  if (!policy) {
    policy = new OutboundPolicy(network.allow);
    compiled.set(network, policy);
  }
  return policy;
}

/**
 * Whether a definition's connections obey the policy: it was created through a core tool
 * (`registeredBy`), or a core tool chose its URL (`urlSetBy`). What the operator wrote in a
 * file is the operator's choice and may name loopback or private hosts.
 */
export function outboundChecked(def: Pick<McpServerDefinition, 'registeredBy' | 'urlSetBy'>): boolean {
  return def.registeredBy !== undefined || def.urlSetBy !== undefined;
}
