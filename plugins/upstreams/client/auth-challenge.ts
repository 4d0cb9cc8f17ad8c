/**
 * Reading an upstream's refusal as an OAuth challenge: a 401 (sign in) or a 403
 * insufficient_scope (step up), with the WWW-Authenticate header it came with. The error may
 * be wrapped by the SDK or the transport, so the cause chain is followed a few links deep.
 */
import { HttpStatusError } from './http-answer.js';

/** The WWW-Authenticate challenge ('' when none) of a 401 answer, or undefined for any other failure. */
export function signInChallenge(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e instanceof HttpStatusError && e.status === 401) return e.wwwAuthenticate ?? '';
    // The SDK's SSE transport reports the status as `code`.
    if (e.constructor.name === 'SseError' && (e as { code?: unknown }).code === 401) return '';
  }
  return undefined;
}

/** The WWW-Authenticate challenge of a 403 insufficient_scope answer (a step-up), or undefined. */
export function scopeChallenge(err: unknown): string | undefined {
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e instanceof HttpStatusError && e.status === 403 && /insufficient_scope/.test(`${e.wwwAuthenticate ?? ''} ${e.body}`)) return e.wwwAuthenticate ?? '';
  }
  return undefined;
}
