/**
 * Access tokens this replica verified lately, so a session's every request does not look its
 * token up again (a Redis round trip in cluster mode, docs/scale-out.md). What is kept is what
 * the lookup found (the token's fields and the person's claims), never the token itself: the
 * key is the token's SHA-256.
 *
 * A copy lives at most MAX_AGE_SECONDS and never past the token's expiry. A revocation (the
 * token revoked, its grant revoked by a logout or a refresh token's reuse) drops the copies
 * on every replica at once: the replica revoking drops its own and publishes the digest or
 * the grant on the broadcast (the kernel's `broadcast` service, Redis pub/sub), and every
 * replica drops its copies when it hears it. Pub/sub keeps nothing for a replica that is
 * away, so while the broadcast is not reliable nothing is cached and what was is dropped: a
 * replica that may have missed a revocation looks every token up again.
 *
 * "At once" means before the revocation is answered: hearing a message is asynchronous, and a
 * request reaching another replica just after the answer could be judged from its copy before
 * that replica read the message (seen on a loaded machine). So every replica acknowledges a
 * revocation once it dropped its copies, and the revoking one waits for as many
 * acknowledgements as replicas the message went to, at most ACK_WAIT_MS: a replica too busy or
 * paused to answer sooner delays a revocation by that much, never forever.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Broadcast } from '../../kernel/index.js';

/** How long a copy may be used; bounds how stale a claim (email, groups) of a signed-in person may be. */
export const MAX_AGE_SECONDS = 30;
/** A bound on memory: about 1 KiB per entry, so some 10 MiB at most. Oldest inserted go first. */
export const MAX_ENTRIES = 10_000;
/** How long a revocation waits for every replica that heard it to say it dropped its copies. */
export const ACK_WAIT_MS = 2_000;
const TOPIC = 'access-tokens-revoked';
const ACK_TOPIC = 'access-tokens-revoked-ack';

/** What a lookup of the token found, enough to judge a request without looking again. */
export interface VerifiedToken {
  subject: string;
  clientId: string | undefined;
  scope: string | undefined;
  /** Epoch seconds; undefined: the token does not expire. */
  exp: number | undefined;
  aud: unknown[];
  jkt: string | undefined;
  grantId: string | undefined;
  /** The person's claims from the identity provider, as the lookup read them. */
  person: Record<string, unknown> | undefined;
}

/** What a revocation drops everywhere: one token (by digest) or every token of a grant. */
export type Revocation = { kind: 'token'; digest: string } | { kind: 'grant'; grantId: string };

/** A revocation as the broadcast carries it: `id` names it in the acknowledgements. */
type Announced = Revocation & { id?: string };

interface Entry {
  token: VerifiedToken;
  /** Epoch seconds after which the copy is not used. */
  until: number;
}

export const tokenDigest = (value: string): string => createHash('sha256').update(value).digest('base64url');

function decode(text: string): Announced | undefined {
  try {
    const r = JSON.parse(text) as { kind?: unknown; digest?: unknown; grantId?: unknown; id?: unknown };
    const id = typeof r.id === 'string' ? { id: r.id } : {};
    if (r.kind === 'token' && typeof r.digest === 'string') return { kind: 'token', digest: r.digest, ...id };
    if (r.kind === 'grant' && typeof r.grantId === 'string') return { kind: 'grant', grantId: r.grantId, ...id };
  } catch {
    // Not ours (another version's message): nothing to drop for it.
  }
  return undefined;
}

export class VerifiedTokens {
  private readonly entries = new Map<string, Entry>();
  /**
   * Counts revocations heard: a lookup that started before one and ends after it may have
   * read the token before its deletion, so its result is not kept.
   */
  private generation = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private stopHearingAcks: (() => Promise<void>) | undefined;
  private offReliability: (() => void) | undefined;
  /** Revocations of this replica waiting for acknowledgements: id to what each arrival calls. */
  private readonly awaitingAcks = new Map<string, () => void>();

  constructor(
    private readonly now: () => number,
    private readonly broadcast: Broadcast | undefined,
    private readonly limits: { maxAgeSeconds: number; maxEntries: number; ackWaitMs?: number } = { maxAgeSeconds: MAX_AGE_SECONDS, maxEntries: MAX_ENTRIES },
  ) {}

  async start(): Promise<void> {
    if (!this.broadcast) return;
    const broadcast = this.broadcast;
    this.offReliability = broadcast.onReliabilityChange(() => this.clear());
    this.stopHearingAcks = await broadcast.subscribe(ACK_TOPIC, (id) => this.awaitingAcks.get(id)?.());
    this.stopListening = await broadcast.subscribe(TOPIC, (text) => {
      const revocation = decode(text);
      if (!revocation) return;
      this.drop(revocation);
      // Said once the copies are gone; a lost acknowledgement costs the revoker ACK_WAIT_MS, no more.
      if (revocation.id !== undefined) broadcast.publish(ACK_TOPIC, revocation.id).catch(() => undefined);
    });
  }

  async stop(): Promise<void> {
    this.offReliability?.();
    await this.stopListening?.();
    await this.stopHearingAcks?.();
    this.entries.clear();
  }

  /** Taken before a lookup, handed to `put` after it. */
  get mark(): number {
    return this.generation;
  }

  get(digest: string): VerifiedToken | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.until > this.now() && this.usable) return entry.token;
    this.entries.delete(digest);
    return undefined;
  }

  put(digest: string, token: VerifiedToken, mark: number): void {
    if (mark !== this.generation || !this.usable) return;
    const until = Math.min(this.now() + this.limits.maxAgeSeconds, token.exp ?? Number.POSITIVE_INFINITY);
    if (until <= this.now()) return;
    this.entries.delete(digest);
    if (this.entries.size >= this.limits.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(digest, { token, until });
  }

  /**
   * A token or grant was revoked here (its records are already deleted): drops this replica's
   * copies, tells the others, and resolves once every replica it went to (this one included)
   * acknowledged, or after ACK_WAIT_MS. Rejects when they cannot be told, so the revocation is
   * not answered as done while another replica may still accept the token.
   */
  async revoked(revocation: Revocation): Promise<void> {
    this.drop(revocation);
    if (!this.broadcast) return;
    const id = randomUUID();
    let heard = 0;
    let expected = Number.POSITIVE_INFINITY;
    let allHeard = (): void => undefined;
    const acknowledged = new Promise<void>((resolve) => (allHeard = resolve));
    // Listening before publishing: an acknowledgement may come back before publish resolves.
    this.awaitingAcks.set(id, () => {
      if (++heard >= expected) allHeard();
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      expected = await this.broadcast.publish(TOPIC, JSON.stringify({ ...revocation, id } satisfies Announced));
      if (heard >= expected) return;
      await Promise.race([acknowledged, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.limits.ackWaitMs ?? ACK_WAIT_MS)))]);
    } finally {
      clearTimeout(timer);
      this.awaitingAcks.delete(id);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private get usable(): boolean {
    return this.broadcast?.reliable ?? true;
  }

  private drop(revocation: Revocation): void {
    this.generation++;
    if (revocation.kind === 'token') {
      this.entries.delete(revocation.digest);
      return;
    }
    for (const [digest, entry] of this.entries) if (entry.token.grantId === revocation.grantId) this.entries.delete(digest);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
