/**
 * The page a person sees before signing in for a client that identified itself by a client
 * ID metadata document (its client_id is an https URL this server fetched). Anyone can
 * publish such a document and name themselves anything, so the page shows what cannot be
 * forged: the host that serves the document and the host the code will be sent to, beside
 * the name the document claims, and warns when the code goes to this machine only (MCP
 * 2026-07-28, "Localhost Redirect URI Risks": any local program can listen there). The
 * person continues or closes the page; nothing is granted until they continue.
 */
import { html, shortPage, type Html } from '../../lib/html.js';
import { isLoopbackHost } from '../../lib/net/address-class.js';

export interface DocumentClient {
  /** The client_id: the document's URL. */
  clientId: string;
  /** client_name as the document states it (absent: none given). */
  name?: string;
  redirectUri: string;
}

/** A document client's client_id is an https URL; a registered one's is an opaque string. */
export function isDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export function documentClientPage(client: DocumentClient, continueUrl: string): Html {
  const documentHost = hostOf(client.clientId);
  const redirectHost = hostOf(client.redirectUri);
  const local = URL.canParse(client.redirectUri) && isLoopbackHost(new URL(client.redirectUri).hostname.replace(/^\[|\]$/g, ''));
  const name = client.name ?? documentHost;
  return shortPage(
    `Sign in for ${name}`,
    html`<h1>${name} asks to use Switchboard as you</h1>
      <p>It describes itself at <strong>${documentHost}</strong> (<code>${client.clientId}</code>); the name above is what that document says.</p>
      <p>After you sign in, access is sent to <strong>${redirectHost}</strong>.</p>
      ${
        local
          ? html`<p class="warn">
              That is this computer: any program running on it could receive the access. Continue only if you started this sign-in yourself.
            </p>`
          : ''
      }
      <p><a class="go" href="${continueUrl}">Continue to sign in</a></p>
      <p>If you did not expect this, close this page: nothing has been granted.</p>`,
    ' .warn { background: #fff4d6; padding: 0.5rem 0.75rem; } a.go { display: inline-block; padding: 0.5rem 1rem; background: #1c1c1c; color: #fff; text-decoration: none; }',
  );
}
