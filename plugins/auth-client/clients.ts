/**
 * Who Switchboard is at each authorization server: a pre-registered client from
 * config.yaml, or the registration it obtained (dynamic registration, or its client
 * metadata document URL as client_id). One registration per authorization server serves
 * every owner; pre-registered clients are never replaced.
 */
import type { OAuthClientInformationMixed } from '#mcp-sdk/shared/auth.js';
import type { RenewableSecret } from '../../lib/secrets/renewable-secret.js';
import { issuerKey as key } from './issuer.js';

/** A client the operator registered by hand: its secret read again when the server refuses it. */
export interface PreregisteredClient {
  issuer: string;
  info: OAuthClientInformationMixed;
  secret?: RenewableSecret;
}

export class ClientRegistry {
  private readonly registered = new Map<string, OAuthClientInformationMixed>();
  private readonly preregistered = new Map<string, PreregisteredClient>();

  constructor(
    preregistered: readonly PreregisteredClient[],
    /** Told of each registration obtained (what persistence writes). */
    private readonly registeredNow: (issuer: string, info: OAuthClientInformationMixed) => void = () => undefined,
  ) {
    for (const p of preregistered) this.preregistered.set(key(p.issuer), p);
  }

  /** The client at `issuer`, stamped with the issuer exactly as discovery spelled it. */
  get(issuer: string): OAuthClientInformationMixed | undefined {
    const pre = this.preregistered.get(key(issuer));
    if (pre) return { ...pre.info, ...(pre.secret ? { client_secret: pre.secret.current } : {}), issuer };
    return this.registered.get(key(issuer));
  }

  /** A registration obtained at `issuer` (never a pre-registered client: those, and their secrets, every replica reads from config.yaml). */
  obtained(issuer: string): OAuthClientInformationMixed | undefined {
    return this.registered.get(key(issuer));
  }

  save(issuer: string, info: OAuthClientInformationMixed): void {
    if (this.preregistered.has(key(issuer))) return;
    this.registered.set(key(issuer), info);
    this.registeredNow(key(issuer), info);
  }

  /** Registrations kept from before a restart. */
  restore(issuer: string, info: OAuthClientInformationMixed): void {
    if (!this.preregistered.has(key(issuer))) this.registered.set(key(issuer), info);
  }

  /**
   * The authorization server refused a pre-registered client (`invalid_client`) that sent
   * `sent`: its secret is read again where the operator keeps it. True when the secret in use
   * now differs from `sent`, so the refused request is worth sending once more as it was.
   */
  async secretRefused(issuer: string, sent: string): Promise<boolean> {
    return (await this.preregistered.get(key(issuer))?.secret?.refused(sent)) ?? false;
  }

  /** The authorization server no longer knows the registration: register again next time. */
  forgetRegistered(issuer: string): void {
    this.registered.delete(key(issuer));
  }
}
