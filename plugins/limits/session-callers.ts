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

export function countOf(sessions: Iterable<Session>, caller: SessionCaller): number {
  let n = 0;
  for (const s of sessions) if (callerOf(s)?.key === caller.key) n++;
  return n;
}
