/**
 * People who signed in: their claims from the identity provider's ID token and that
 * provider's tokens, kept (sealed) per subject. oidc-provider asks for an account on every
 * token issuance; that is when the provider's tokens are refreshed if they are about to
 * lapse, and when a revoked sign-in at the provider ends the person's session here.
 */
import type { IdentityProvider, IdpTokens, SignedIn } from './identity-provider.js';
import type { SealedStore } from '../../lib/grants/sealed-store.js';
import { decodeJwt } from 'jose/jwt/decode';

export interface AccountRecord {
  subject: string;
  claims: Record<string, unknown>;
  tokens: IdpTokens;
  /** The original sign-in, epoch seconds. */
  signedInAt: number;
}

const KIND = 'Account';

/** The ID token's exp (epoch seconds), when it has one. */
function idTokenExpiry(idToken: string | undefined): number | undefined {
  if (!idToken) return undefined;
  try {
    const exp = decodeJwt(idToken).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}
/** Refresh the provider's access token when less than this is left. */
const REFRESH_MARGIN_SECONDS = 60;

export class Accounts {
  /** oidc-provider's lifetime callbacks are synchronous; they read what the token request just loaded. */
  private readonly loaded = new Map<string, AccountRecord>();

  constructor(
    private readonly store: SealedStore,
    private readonly idp: IdentityProvider,
    private readonly now: () => number,
    private readonly sessionSeconds: number,
    private readonly warn: (message: string) => void,
  ) {}

  private async save(record: AccountRecord): Promise<void> {
    this.loaded.set(record.subject, record);
    const rolling = this.now() + this.sessionSeconds;
    const expiresAt = Math.floor(record.tokens.sessionEndsAt !== undefined ? Math.min(rolling, record.tokens.sessionEndsAt) : rolling);
    await this.store.put(KIND, record.subject, { payload: record, expiresAt });
  }

  async signedIn(result: SignedIn): Promise<AccountRecord> {
    const record: AccountRecord = { subject: result.subject, claims: result.claims, tokens: result.tokens, signedInAt: Math.floor(this.now()) };
    await this.save(record);
    return record;
  }

  /** A person known from an exchanged token: its claims, and its expiry as the cap of what is issued to them. */
  async exchanged(subject: string, claims: Record<string, unknown>, expiresAt: number | undefined): Promise<void> {
    await this.save({ subject, claims, tokens: expiresAt !== undefined ? { accessExpiresAt: expiresAt } : {}, signedInAt: Math.floor(this.now()) });
  }

  async find(subject: string): Promise<AccountRecord | undefined> {
    const record = (await this.store.get<AccountRecord>(KIND, subject))?.payload;
    if (record) this.loaded.set(subject, record);
    else this.loaded.delete(subject);
    return record;
  }

  /** The account, its provider tokens refreshed when due; undefined when the provider no longer accepts the sign-in. */
  async fresh(subject: string): Promise<AccountRecord | undefined> {
    const record = await this.find(subject);
    if (!record) return undefined;
    const { tokens } = record;
    if (tokens.sessionEndsAt !== undefined && tokens.sessionEndsAt <= this.now()) return undefined;
    // Due when the access token or the ID token (which servers with auth.forwardToken receive) is about to lapse.
    const idExpiresAt = idTokenExpiry(tokens.idToken);
    const due = [tokens.accessExpiresAt, idExpiresAt].some((at) => at !== undefined && at - this.now() <= REFRESH_MARGIN_SECONDS);
    if (!due || !tokens.refreshToken) return record;
    try {
      const renewed = await this.idp.refresh(tokens.refreshToken);
      const next: AccountRecord = { ...record, tokens: { ...renewed, ...(tokens.sessionEndsAt !== undefined ? { sessionEndsAt: tokens.sessionEndsAt } : {}) } };
      await this.save(next);
      return next;
    } catch (err) {
      this.warn(`refreshing the identity provider's tokens of '${subject}' failed: ${(err as Error).message}; their session here ends`);
      return undefined;
    }
  }

  /** What the last `find`/`fresh` loaded, for the synchronous lifetime callbacks. */
  cached(subject: string): AccountRecord | undefined {
    return this.loaded.get(subject);
  }
}
