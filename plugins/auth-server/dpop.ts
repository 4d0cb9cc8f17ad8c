/**
 * DPoP (RFC 9449) at the resource: a DPoP-bound access token is accepted only with a fresh
 * proof signed by the key it is bound to, for this method and URL, carrying the token's
 * hash, and never seen before (jti remembered for the proof's acceptance window, by the
 * ReplayGuard: this process's own, or the one every replica shares in cluster mode).
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import type { ReplayGuard } from '../../kernel/index.js';

const WINDOW_SECONDS = 60;
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'EdDSA', 'Ed25519'];

export type ProofCheck = { ok: true } | { ok: false; reason: string };

export class DpopVerifier {
  constructor(
    private readonly now: () => number,
    private readonly replays: ReplayGuard,
  ) {}

  async verify(proof: string | undefined, expected: { method: string; url: string; accessToken: string; jkt: string }): Promise<ProofCheck> {
    if (!proof) return { ok: false, reason: 'the token is DPoP-bound: send a DPoP proof header' };
    let payload;
    let jwk;
    try {
      const verified = await jwtVerify(proof, EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: ALGORITHMS,
        currentDate: new Date(this.now() * 1000),
        clockTolerance: WINDOW_SECONDS,
      });
      payload = verified.payload;
      jwk = verified.protectedHeader.jwk!;
    } catch (err) {
      return { ok: false, reason: `invalid DPoP proof: ${(err as Error).message}` };
    }
    const now = this.now();
    if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > WINDOW_SECONDS)
      return { ok: false, reason: 'DPoP proof iat is outside the acceptance window' };
    if (typeof payload.jti !== 'string' || !payload.jti) return { ok: false, reason: 'DPoP proof has no jti' };
    if (payload.htm !== expected.method) return { ok: false, reason: `DPoP proof htm '${String(payload.htm)}' does not match ${expected.method}` };
    if (typeof payload.htu !== 'string' || stripQuery(payload.htu) !== stripQuery(expected.url))
      return { ok: false, reason: `DPoP proof htu '${String(payload.htu)}' does not match ${expected.url}` };
    const ath = createHash('sha256').update(expected.accessToken).digest('base64url');
    if (payload.ath !== ath) return { ok: false, reason: 'DPoP proof ath does not match the access token' };
    if ((await calculateJwkThumbprint(jwk)) !== expected.jkt)
      return { ok: false, reason: 'DPoP proof is signed by a key other than the one the token is bound to' };
    // Scoped by the key: a jti is the proof signer's to choose, so two keys never collide.
    if (!(await this.replays.firstUse('DPoP proof', `${expected.jkt}.${payload.jti}`, 2 * WINDOW_SECONDS)))
      return { ok: false, reason: 'DPoP proof replayed (jti already used)' };
    return { ok: true };
  }
}

export function stripQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}
