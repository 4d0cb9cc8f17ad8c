/**
 * The bearer of a server whose calls carry the signed-in person's own token (auth.forwardToken,
 * auth.tokenExchange): the person's ID token from Switchboard's identity provider, as is or
 * exchanged (RFC 8693) at the server's identity provider. Shaped as UpstreamCredentials so
 * the sign-in gate keeps one connection per person with it, as it does for sign-in grants.
 *
 * Tokens are kept in memory per person until shortly before they expire (the ID token's own
 * exp; the exchanged token's expires_in), so a call costs no store read and no exchange; past
 * that the next request asks again (the auth-server refreshes the ID token at the identity
 * provider when due). Tokens are never logged: failures name the server and the reason only.
 *
 * A person's token goes only where the operator pointed it: to a server the operator wrote,
 * or to one the same person registered (or re-pointed) through a core tool, never to a URL
 * someone else chose.
 */
import { decodeJwt } from 'jose/jwt/decode';
import {
  resolveSecretValue,
  SwitchboardError,
  type CallerTokens,
  type McpServerDefinition,
  type OrchestratorSecrets,
  type Owner,
  type UpstreamCredentials,
} from '../../kernel/index.js';
import type { AuthMode, ExchangeTarget } from '../../lib/server-auth/auth-mode.js';
import { exchangeAtIdp, IdpExchangeError } from '../../lib/oauth/idp-token-exchange.js';

/** A token is used until this many seconds before it expires. */
const MARGIN_SECONDS = 30;
/** How long an exchanged token without any expiry is kept. */
const UNDATED_SECONDS = 60;
/** People whose tokens are kept at once per server; beyond it the oldest go. */
const MAX_PEOPLE = 10_000;

export type PersonMode = Extract<AuthMode, { kind: 'forward' | 'exchange' }>;

export interface PersonTokenParts {
  callerTokens(): CallerTokens | undefined;
  orchestratorSecrets(): OrchestratorSecrets | undefined;
  configPath: string;
  /** Values that must never appear in a log or result (the client secret). */
  onSecret(value: string): void;
  allowPrivate(): boolean;
  /** Owners with a session open now (who the server's tools are listed through first). */
  people(): Owner[];
  now?: () => number;
}

/** The call cannot carry a person's token: the server and why, as AUTH_REQUIRED. */
export class PersonTokenError extends SwitchboardError {
  constructor(server: string, reason: string) {
    super('AUTH_REQUIRED', `Server '${server}' is called with the signed-in person's token, and ${reason}`, { server });
  }
}

const subjectOf = (owner: Owner): string | undefined => (owner.startsWith('person:') ? owner.slice('person:'.length) : undefined);

export function modeName(mode: PersonMode): string {
  return mode.kind === 'forward' ? 'auth.forwardToken' : 'auth.tokenExchange';
}

export class PersonTokens implements UpstreamCredentials {
  private readonly kept = new Map<Owner, { token: string; until: number }>();
  private readonly obtaining = new Map<Owner, Promise<string | undefined>>();
  private readonly now: () => number;

  constructor(
    private readonly def: McpServerDefinition,
    readonly mode: PersonMode,
    private readonly parts: PersonTokenParts,
  ) {
    this.now = parts.now ?? (() => Date.now() / 1000);
  }

  /** Why `owner`'s calls cannot carry a token, or undefined when they can. */
  whyNot(owner: Owner | undefined): string | undefined {
    if (!this.parts.callerTokens()) return `this deployment signs nobody in (${modeName(this.mode)} needs the OAuth server, aggregator.oauth.server)`;
    const subject = owner === undefined ? undefined : subjectOf(owner);
    if (subject === undefined) return 'this session has no signed-in person';
    const chosenBy = this.def.urlSetBy ?? this.def.registeredBy;
    if (chosenBy !== undefined && (chosenBy !== owner || (this.def.registeredBy !== undefined && this.def.registeredBy !== owner)))
      return `its URL was chosen by ${chosenBy}, and a person's token goes only to servers the operator wrote or that person registered`;
    return undefined;
  }

  refusal(owner: Owner | undefined): SwitchboardError {
    return new PersonTokenError(this.def.name, this.whyNot(owner) ?? 'no token could be obtained');
  }

  owners(): readonly Owner[] {
    return this.parts.people().filter((o) => this.whyNot(o) === undefined);
  }

  has(_server: string, owner: Owner): boolean {
    return this.whyNot(owner) === undefined;
  }

  accessToken(_server: string, owner: Owner, renew = false): Promise<string | undefined> {
    if (this.whyNot(owner) !== undefined) return Promise.resolve(undefined);
    const kept = this.kept.get(owner);
    if (kept && !renew && kept.until > this.now()) return Promise.resolve(kept.token);
    // One refresh or exchange per person at a time: concurrent requests share it (a refresh token is used once).
    let pending = this.obtaining.get(owner);
    if (!pending) {
      pending = this.obtain(owner).finally(() => this.obtaining.delete(owner));
      this.obtaining.set(owner, pending);
    }
    return pending;
  }

  private async obtain(owner: Owner): Promise<string | undefined> {
    const idToken = await this.parts.callerTokens()?.idToken(subjectOf(owner)!);
    if (!idToken) {
      this.kept.delete(owner);
      return undefined;
    }
    const fresh = this.mode.kind === 'forward' ? { token: idToken, until: this.untilOf(idToken) } : await this.exchange(this.mode.target, idToken);
    if (this.kept.size >= MAX_PEOPLE) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(owner, fresh);
    return fresh.token;
  }

  private untilOf(jwt: string, expiresIn?: number): number {
    let exp: number | undefined;
    try {
      const claims = decodeJwt(jwt);
      if (typeof claims.exp === 'number') exp = claims.exp;
    } catch {
      // Opaque: expires_in (or the default) says how long.
    }
    const now = this.now();
    const end = Math.min(exp ?? Infinity, expiresIn !== undefined ? now + expiresIn : Infinity);
    return (Number.isFinite(end) ? end : now + UNDATED_SECONDS) - MARGIN_SECONDS;
  }

  private async exchange(target: ExchangeTarget, idToken: string): Promise<{ token: string; until: number }> {
    const { clientId, clientSecret } = await this.credentials(target);
    try {
      const result = await exchangeAtIdp({
        endpoint: target.endpoint,
        expectedIssuer: target.expectedIssuer,
        connectorId: target.connectorId,
        scopes: target.scopes,
        clientId,
        clientSecret,
        subjectToken: idToken,
        allowPrivate: this.parts.allowPrivate(),
        now: () => this.now(),
      });
      return { token: result.accessToken, until: this.untilOf(result.accessToken, result.expiresIn) };
    } catch (err) {
      if (err instanceof IdpExchangeError) throw new PersonTokenError(this.def.name, `the token exchange failed (${err.code}): ${err.message}`);
      throw err;
    }
  }

  /** The client's credentials at the remote identity provider, read at each exchange (a rotated secret is picked up). */
  private async credentials(target: ExchangeTarget): Promise<{ clientId: string; clientSecret: string }> {
    const where = `mcpservers/${this.def.name}: auth.tokenExchange`;
    const c = target.credentials;
    if (c.from === 'file') {
      const clientSecret = resolveSecretValue({ fromFile: c.clientSecretFile }, `${where}.clientSecretFile`, {
        configPath: this.parts.configPath,
        env: {},
        onSecret: (v) => this.parts.onSecret(v),
      });
      return { clientId: c.clientId, clientSecret };
    }
    const secrets = this.parts.orchestratorSecrets();
    if (!secrets)
      throw new PersonTokenError(
        this.def.name,
        `${where}.clientCredentialsSecretRef names an orchestrator Secret, and this mode has none (use clientId and clientSecretFile)`,
      );
    let data: Record<string, string>;
    try {
      data = await secrets.read(c.name, c.namespace);
    } catch (err) {
      throw new PersonTokenError(this.def.name, `${where}.clientCredentialsSecretRef: ${(err as Error).message}`);
    }
    const clientId = data[c.clientIdKey];
    const clientSecret = data[c.clientSecretKey];
    if (!clientId || !clientSecret)
      throw new PersonTokenError(
        this.def.name,
        `${where}.clientCredentialsSecretRef: the secret '${c.name}' has no key '${clientId ? c.clientSecretKey : c.clientIdKey}'`,
      );
    this.parts.onSecret(clientSecret);
    return { clientId, clientSecret };
  }

  forget(_server: string, owner: Owner): Promise<void> {
    this.kept.delete(owner);
    return Promise.resolve();
  }

  release(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}
