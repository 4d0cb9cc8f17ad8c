/**
 * Whether a request an upstream makes of "its client" may go to the client whose call it is,
 * judged on what that client declared in initialize and on what the request asks for.
 *
 * A capability the client lacks altogether is -32601 (the method does not exist for it, as a
 * client without the handler answers); a part of a capability it lacks (URL-mode elicitation,
 * tools in sampling) or a request that is not well formed is -32602, as the SDK's own client
 * answers. Either way the upstream hears at once, with the capability named.
 */
import type { ClientCapabilities } from '#mcp-sdk/types.js';
import { readUrlElicitation } from './url-elicitation-check.js';

/** The requests relayed, and the client capability each needs. */
export const RELAYED = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
} as const satisfies Record<string, keyof ClientCapabilities>;

export type RelayedMethod = keyof typeof RELAYED;

export interface Refusal {
  code: -32601 | -32602;
  message: string;
}

export function isRelayed(method: string): method is RelayedMethod {
  return Object.hasOwn(RELAYED, method);
}

/** Why `method` with `params` may not go to a client that declared `caps`; undefined when it may. */
export function refusal(
  server: string,
  method: RelayedMethod,
  params: Record<string, unknown> | undefined,
  caps: ClientCapabilities | undefined,
): Refusal | undefined {
  const who = `The client calling '${server}' through Switchboard`;
  const capability = RELAYED[method];
  if (!caps?.[capability]) return { code: -32601, message: `${who} does not support ${method} (it did not declare the '${capability}' capability)` };
  if (method === 'sampling/createMessage') {
    if ((params?.tools !== undefined || params?.toolChoice !== undefined) && !caps.sampling?.tools)
      return {
        code: -32602,
        message: `${who} does not support tools in sampling/createMessage (it did not declare the 'sampling.tools' capability); ask without tools and toolChoice`,
      };
    return undefined;
  }
  if (method === 'elicitation/create') return elicitationRefusal(who, server, params, caps.elicitation ?? {});
  return undefined;
}

function elicitationRefusal(
  who: string,
  server: string,
  params: Record<string, unknown> | undefined,
  declared: NonNullable<ClientCapabilities['elicitation']>,
): Refusal | undefined {
  const mode = params?.mode ?? 'form';
  // An empty elicitation capability is form mode (the 2025-06-18 meaning); URL mode is only ever declared.
  const form = declared.form !== undefined || declared.url === undefined;
  if (mode === 'form') {
    return form
      ? undefined
      : { code: -32602, message: `${who} does not support form-mode elicitation (it declared 'elicitation.url' without 'elicitation.form')` };
  }
  if (mode !== 'url') return { code: -32602, message: `elicitation/create from '${server}' has mode ${JSON.stringify(mode)}; the modes are 'form' and 'url'` };
  if (declared.url === undefined)
    return { code: -32602, message: `${who} does not support URL-mode elicitation (it did not declare the 'elicitation.url' capability)` };
  const read = readUrlElicitation(params);
  if (typeof read === 'string') return { code: -32602, message: `Switchboard does not relay this URL-mode elicitation from '${server}': ${read}` };
  return undefined;
}
