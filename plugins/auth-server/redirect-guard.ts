/**
 * Redirect URIs are checked when a client registers and again when a flow starts: a host
 * name that resolves to a private address (DNS rebinding towards an internal service) is
 * refused unless allowPrivateIPRedirectURIs. Loopback IP literals and `localhost` are how
 * native apps and IDEs receive the code (RFC 8252 section 7.3) and always pass; matching
 * against the registration stays exact either way (oidc-provider's own check).
 */
import { isIP } from 'node:net';
import { isLoopbackHost, isPrivateAddress } from '../../lib/net/address-class.js';
import { resolveChecked } from '../../lib/net/pinned-fetch.js';

export const PRIVATE_REDIRECT_MESSAGE = 'redirect_uri: hostname resolves to private IP address (DNS rebinding protection)';

/** undefined when the URI may be used; else the message to refuse it with. */
export async function redirectUriProblem(uri: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect_uri: '${uri}' is not a URL`;
  }
  if (allowPrivate || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLoopbackHost(host)) return undefined;
  if (isIP(host)) return isPrivateAddress(host) ? PRIVATE_REDIRECT_MESSAGE : undefined;
  try {
    await resolveChecked(url.href, false);
    return undefined;
  } catch (err) {
    if ((err as { code?: string }).code === 'PRIVATE_ADDRESS') return PRIVATE_REDIRECT_MESSAGE;
    // A name that does not resolve cannot rebind; the browser will fail on it, not us.
    return undefined;
  }
}
