/**
 * How a failed request to an upstream reads to the caller. Any failure is mapped by
 * call-errors.ts, the upstream's words scrubbed; a tools/call on a signed-in connection
 * (one owner's grant) that the server refuses with an OAuth challenge becomes the error
 * that tells the caller to sign in again (401) or to grant more scope (403 insufficient_scope).
 */
import type { BearerSource } from './client/http-client-transport.js';
import { scopeChallenge, signInChallenge } from './client/auth-challenge.js';
import { mapUpstreamError } from './client/call-errors.js';
import type { CallFailures } from './client/upstream-client.js';
import type { ConnectionEvents } from './connection-events.js';
import type { UpstreamConnection } from './connection.js';

export function callFailures(conn: UpstreamConnection, events: ConnectionEvents, bearer: BearerSource | undefined): CallFailures {
  const request: CallFailures['request'] = (what, err) => mapUpstreamError(conn.name, what, err, (text) => events.secrets.scrubText(text));
  return {
    request,
    call(what, err) {
      if (bearer && events.unauthorized && signInChallenge(err) !== undefined) return events.unauthorized(conn);
      const more = bearer ? scopeChallenge(err) : undefined;
      if (more !== undefined && events.insufficientScope) return events.insufficientScope(conn, more);
      return request(what, err);
    },
  };
}
