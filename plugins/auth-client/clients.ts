/**
 * Who Switchboard is at each authorization server: a pre-registered client from
 * config.yaml, or the registration it obtained (dynamic registration, or its client
 * metadata document URL as client_id). One registration per authorization server serves
 * every owner; pre-registered clients are never replaced.
 */
import type { OAuthClientInformationMixed } from '#mcp-sdk/shared/auth.js';
import { issuerKey as key } from './issuer.js';

export class ClientRegistry {
  private readonly registered = new Map<string, OAuthClientInformationMixed>();
  private readonly preregistered = new Map<string, OAuthClientInformationMixed>();

  constructor(
    preregistered: readonly { issuer: string; info: OAuthClientInformationMixed }[],
    /** Told of each registration obtained (what persistence writes). */
    private readonly registeredNow: (issuer: string, info: OAuthClientInformationMixed) => void = () => undefined,
  ) {
    for (const p of preregistered) this.preregistered.set(key(p.issuer), p.info);
  }

  /** The client at `issuer`, stamped with the issuer exactly as discovery spelled it. */
  get(issuer: string): OAuthClientInformationMixed | undefined {
    const pre = this.preregistered.get(key(issuer));
    if (pre) return { ...pre, issuer };
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

  /** The authorization server no longer knows the registration: register again next time. */
  forgetRegistered(issuer: string): void {
    this.registered.delete(key(issuer));
  }
}
