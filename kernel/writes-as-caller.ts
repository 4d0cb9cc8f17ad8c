/**
 * Writes as the caller (interface, Authentication point 12): in orchestrator mode with OAuth
 * protection on, the core tools that write resources send the caller's own ID token from the
 * identity provider, so the orchestrator's access control decides and its audit log names the
 * person. Reads, validation, workflow runs and the controller's own writes (status) keep the
 * service's identity. In file mode, or without protection, this is undefined: the store's own.
 */
import { decodeJwt } from 'jose/jwt/decode';
import type { WriteAs } from './contracts/store.js';
import { SwitchboardError } from './errors.js';
import type { KernelApi } from './kernel-api.js';
import type { CallContext } from './tools.js';

function audiences(idToken: string): string[] {
  try {
    const aud = decodeJwt(idToken).aud;
    return aud === undefined ? [] : Array.isArray(aud) ? aud : [aud];
  } catch {
    return [];
  }
}

export async function writeAs(kernel: KernelApi, call: CallContext): Promise<WriteAs | undefined> {
  if (kernel.services.get('store').lifecycle !== 'declarative') return undefined;
  const identity = call.request.identity ?? call.request.session.identity;
  const tokens = kernel.services.find('caller-tokens');
  if (!identity || !tokens) return undefined;
  const idToken = await tokens.idToken(identity.subject);
  if (!idToken) {
    throw new SwitchboardError(
      'AUTH_REQUIRED',
      'Writing to the orchestrator as you needs your ID token from the identity provider, and your sign-in holds none (any more); sign in again (switchboard login)',
    );
  }
  const audience = kernel.settings().writesAsCaller?.orchestratorAudience;
  if (audience && !audiences(idToken).includes(audience)) {
    throw new SwitchboardError(
      'AUTH_REQUIRED',
      `Your sign-in token does not carry the audience '${audience}' that the orchestrator trusts (writesAsCaller.orchestratorAudience), so Switchboard cannot write as you; have aggregator.oauth.server.idp.scopes request that audience (with Dex: audience:server:client_id:${audience}), then sign in again (switchboard login)`,
      { audience },
    );
  }
  return { bearer: idToken };
}
