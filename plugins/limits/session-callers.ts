/**
 * Whose a session is, for the per-caller session limit: the person signed in (OAuth), or
 * else the client's network address. Without either (stdio, in-memory) there is one client
 * and no one to share with, so no per-caller limit applies.
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
  if (session.peer) return { key: `addr:${session.peer}`, shown: `client address ${session.peer}` };
  return undefined;
}

/** A signed-in person (counted across replicas in cluster mode), not a network address (behind a balancer, the balancer's). */
export function isPerson(caller: SessionCaller): boolean {
  return caller.key.startsWith('sub:');
}

export function countOf(sessions: Iterable<Session>, caller: SessionCaller): number {
  let n = 0;
  for (const s of sessions) if (callerOf(s)?.key === caller.key) n++;
  return n;
}
