/**
 * People's grants for remote servers across replicas (cluster mode): each replica keeps the
 * grants in memory, read from the shared store at start. When a grant changes here (a
 * sign-in, a refresh, a logout, the admin UI's drop) and has been written, the replica names
 * it on the broadcast (`client-grants`: owner and issuer, never a token); every other replica
 * reads that record again and (re)connects or drops that person's upstream at once, instead
 * of at its next start. A replica that may have missed messages (its connection was down)
 * reads every grant again once it is back.
 */
import { randomUUID } from 'node:crypto';
import { SerialQueue, type Broadcast, type Owner } from '../../kernel/index.js';
import type { Grants } from './grants.js';
import type { ClientPersistence } from './persistence.js';

const TOPIC = 'client-grants';
/** Owners and issuers are short; a longer message is not one of ours. */
const MAX_MESSAGE_CHARS = 4096;

interface GrantChanged {
  /** The replica that wrote it: it has its grants already. */
  from: string;
  owner: Owner;
  issuer: string;
}

function decode(text: string): GrantChanged | undefined {
  if (text.length > MAX_MESSAGE_CHARS) return undefined;
  try {
    const m = JSON.parse(text) as Partial<Record<keyof GrantChanged, unknown>>;
    if (typeof m.from === 'string' && typeof m.owner === 'string' && m.owner.startsWith('person:') && typeof m.issuer === 'string')
      return { from: m.from, owner: m.owner, issuer: m.issuer };
  } catch {
    // Not ours: ignored.
  }
  return undefined;
}

export interface GrantSyncParts {
  broadcast: Broadcast;
  persistence: ClientPersistence;
  grants: Grants;
  /** The upstreams plugin's grantChanged: connect or drop `owner`'s connection to `server`. */
  changed: (server: string, owner: Owner) => Promise<void>;
  warn: (message: string) => void;
}

export class GrantSync {
  private readonly replica = randomUUID();
  /** Re-reads apply one at a time, in the order heard. */
  private readonly applying = new SerialQueue();
  private stopListening: (() => Promise<void>) | undefined;
  private offReliability: (() => void) | undefined;

  constructor(private readonly parts: GrantSyncParts) {}

  async start(): Promise<void> {
    this.offReliability = this.parts.broadcast.onReliabilityChange((reliable) => {
      if (reliable) void this.applying.run(() => this.rereadAll()).catch((err: unknown) => this.failed('every grant', err));
    });
    this.stopListening = await this.parts.broadcast.subscribe(TOPIC, (text) => {
      const message = decode(text);
      if (!message || message.from === this.replica) return;
      void this.applying
        .run(() => this.reread(message.owner, message.issuer))
        .catch((err: unknown) => this.failed(`'${message.owner}' at ${message.issuer}`, err));
    });
  }

  async stop(): Promise<void> {
    this.offReliability?.();
    await this.stopListening?.();
  }

  /** `owner`'s grant from `issuer` was written: the other replicas read it again. */
  async announce(owner: Owner, issuer: string): Promise<void> {
    await this.parts.broadcast.publish(TOPIC, JSON.stringify({ from: this.replica, owner, issuer } satisfies GrantChanged));
  }

  private async reread(owner: Owner, issuer: string): Promise<void> {
    const record = await this.parts.persistence.grant(owner, issuer);
    await this.apply(owner, issuer, record?.servers ?? [], record?.grant);
  }

  private async rereadAll(): Promise<void> {
    const records = await this.parts.persistence.grants();
    const kept = new Set(records.map((r) => `${r.owner}\u0000${r.grant.issuer}`));
    for (const { owner, issuer } of this.parts.grants.held())
      if (owner.startsWith('person:') && !kept.has(`${owner}\u0000${issuer}`)) await this.apply(owner, issuer, [], undefined);
    for (const r of records) {
      const same = r.servers.every((server) => this.parts.grants.get(server, r.owner)?.tokens.access_token === r.grant.tokens.access_token);
      if (!same) await this.apply(r.owner, r.grant.issuer, r.servers, r.grant);
    }
  }

  private async apply(owner: Owner, issuer: string, servers: readonly string[], grant: Parameters<Grants['adopt']>[3]): Promise<void> {
    for (const server of this.parts.grants.adopt(owner, issuer, servers, grant))
      await this.parts.changed(server, owner).catch((err: unknown) => this.failed(`'${owner}' at '${server}'`, err));
  }

  private failed(what: string, err: unknown): void {
    this.parts.warn(`the grant of ${what} changed on another replica but could not be taken up here: ${err instanceof Error ? err.message : String(err)}`);
  }
}
