/**
 * Whose a session is, for the per-caller session limit: the person signed in (OAuth), or
 * else the client's network address (as trusted proxies report it: Session.clientAddress).
 * Without either (stdio, in-memory) there is one client and no one to share with, so no
 * per-caller limit applies.
 */
import type { Session } from '../../kernel/index.js';

export interface SessionCaller {
  readonly key: string;
  /** How an error names the caller: never a token, at most a subject or an address. */
  readonly shown: string;
}

export function callerOf(session: Session): SessionCaller | undefined {
  const subject = session.identity?.subject;
  if (subject) return { key: `sub:${subject}`, shown: `caller '${subject}'` };
  const address = session.clientAddress ?? session.peer;
  if (address) return { key: `addr:${address}`, shown: `client address ${address}` };
  return undefined;
}

/**
 * Whether cluster mode counts this caller's sessions across replicas: a person always; a
 * client address only when trusted proxies name it (`addressesAreClients`). Behind a balancer
 * without them every client has the balancer's address, and one cap across all replicas would
 * be one cap for every client: such addresses are counted per replica, as in one process.
 */
export function countedAcrossReplicas(caller: SessionCaller, addressesAreClients: boolean): boolean {
  return caller.key.startsWith('sub:') || addressesAreClients;
}

export function countOf(sessions: Iterable<Session>, caller: SessionCaller): number {
  let n = 0;
  for (const s of sessions) if (callerOf(s)?.key === caller.key) n++;
  return n;
}
