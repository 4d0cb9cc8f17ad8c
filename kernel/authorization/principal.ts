/**
 * Who a session's caller is, for the authorizer: a signed-in person (OAuth protection on), or,
 * without OAuth, the local caller (stdio, or a peer on this machine) or an anonymous network
 * caller. Built once per session and configuration (the admins list can be reloaded).
 */
import type { AuthorizationSettings, RecordedPrincipal, Settings } from '../config/settings.js';
import { isLoopback } from '../config/surfaces.js';
import type { Principal } from '../contracts/authorization.js';
import type { Identity } from '../request-context.js';
import type { Session } from '../sessions.js';

const SLOT = Symbol('principal');

interface Cached {
  settings: Settings;
  principal: Principal;
}

/** A peer address on this machine: IPv4 loopback (plain or IPv4-mapped) or ::1. */
export function isLoopbackAddress(address: string): boolean {
  return /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address) || address === '::1';
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}

/** Whether an `authorization.admins` entry names this person: `sub:<s>`, `group:<g>`, an email, or a bare subject. */
export function namedAdmin(entry: string, person: { subject: string; email?: string; groups: readonly string[] }): boolean {
  if (entry.startsWith('group:')) return person.groups.includes(entry.slice('group:'.length));
  if (entry.startsWith('sub:')) return person.subject === entry.slice('sub:'.length);
  if (entry.includes('@') && person.email !== undefined && entry.toLowerCase() === person.email.toLowerCase()) return true;
  return entry === person.subject;
}

export function personPrincipal(identity: Identity, settings: AuthorizationSettings): Principal {
  const email = typeof identity.claims.email === 'string' ? identity.claims.email : undefined;
  const groups = stringsOf(identity.claims[settings.groupsClaim]);
  const person = { subject: identity.subject, groups, ...(email !== undefined ? { email } : {}) };
  return {
    kind: 'person',
    key: `person:${identity.subject}`,
    ...person,
    admin: settings.admins.some((entry) => namedAdmin(entry, person)),
    claims: identity.claims,
  };
}

/**
 * A caller known only by its address (no OAuth): local on this machine, anonymous otherwise.
 * A listener bound beyond loopback (`bindAddress`) makes every peer anonymous, loopback ones
 * included: behind a proxy, a port-forward or a service mesh's sidecar (which forwards from
 * 127.0.0.6) a remote caller arrives from a loopback address, and must not become the
 * administrator by it.
 */
export function peerPrincipal(address: string | undefined, transport: Session['transport'], bindAddress: string): Principal {
  if (address === undefined) return { kind: 'local', key: 'local', admin: true, transport };
  if (isLoopback(bindAddress) && isLoopbackAddress(address)) return { kind: 'local', key: 'local', admin: true, transport };
  return { kind: 'anonymous', key: `anonymous:${address}`, admin: false, address };
}

function principalFor(session: Session, settings: Settings): Principal {
  if (session.identity) return personPrincipal(session.identity, settings.authorization);
  return peerPrincipal(session.peer, session.transport, settings.aggregator.host);
}

/** The session's principal under `settings` (cached on the session until the settings object changes). */
export function principalOf(session: Session, settings: Settings): Principal {
  const cached = session.slots.get(SLOT) as Cached | undefined;
  if (cached && cached.settings === settings) return cached.principal;
  const principal = principalFor(session, settings);
  session.slots.set(SLOT, { settings, principal } satisfies Cached);
  return principal;
}

/** What to record of `p` (nothing for a principal known by its key alone). */
export function recordPrincipal(p: Principal): RecordedPrincipal | undefined {
  if (p.kind !== 'person') return undefined;
  return { ...(p.email !== undefined ? { email: p.email } : {}), groups: [...p.groups] };
}

/**
 * The principal a recorded key stands for, as the authorizer decides on it now: `person:<sub>`
 * with its recorded email and groups (administrator if the admins list names them now),
 * `local`, or `anonymous:<address>`. Undefined for a key of no known form.
 */
export function recordedPrincipal(key: string, recorded: RecordedPrincipal | undefined, settings: AuthorizationSettings): Principal | undefined {
  if (key === 'local') return { kind: 'local', key: 'local', admin: true, transport: 'stdio' };
  if (key.startsWith('anonymous:')) return { kind: 'anonymous', key, admin: false, address: key.slice('anonymous:'.length) };
  if (!key.startsWith('person:') || key.length === 'person:'.length) return undefined;
  const subject = key.slice('person:'.length);
  const groups = (recorded?.groups ?? []).filter((g) => typeof g === 'string');
  const person = { subject, groups, ...(recorded?.email !== undefined ? { email: recorded.email } : {}) };
  return { kind: 'person', key, ...person, admin: settings.admins.some((entry) => namedAdmin(entry, person)), claims: {} };
}

/** How a principal is named to people: an email, a subject, `local`, an address. */
export function describePrincipal(p: Principal): string {
  if (p.kind === 'person') return p.email ?? p.subject;
  if (p.kind === 'local') return 'local';
  return p.address;
}
