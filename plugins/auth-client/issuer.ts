/**
 * Which authorization server is which (MCP 2026-07-28 authorization, RFC 8414 section 3.3,
 * RFC 9207). The `issuer` of an authorization server's metadata is checked against the URL
 * discovery fetched it from before anything else happens there (registration included), so
 * it is the authentic name of that server; it is then the key of every credential kept for
 * it (registrations, grants) and the value an authorization response's `iss` must equal.
 * Without the first check a malicious server could claim an honest one's issuer and the
 * second would prove nothing (a mix-up attack, RFC 9207 section 1).
 */

/** Why a sign-in was refused over issuers; stable, shown on the page and in the event. */
export type IssuerRefusal = 'METADATA_ISSUER_MISMATCH' | 'ISSUER_MISMATCH' | 'ISSUER_MISSING';

export class IssuerError extends Error {
  constructor(
    readonly code: IssuerRefusal,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/**
 * The key credentials are kept under: the issuer without trailing slashes. Discovery spells a
 * server's URL `https://as.example.com/` and its metadata `https://as.example.com`; both are
 * one server (RFC 8414 issuers carry no meaningful trailing slash), and two servers never
 * share a key (scheme, host, port and path differ).
 */
export function issuerKey(issuer: string): string {
  return issuer.replace(/\/+$/, '');
}

/**
 * RFC 8414 section 3.3: the metadata's `issuer` is the URL it was discovered at. A single
 * trailing slash is tolerated (the URL as parsed gains one that the metadata need not have);
 * anything else (another host, scheme, port or path) refuses the server.
 */
export function checkMetadataIssuer(discoveredAt: string, metadataIssuer: unknown): string {
  if (typeof metadataIssuer !== 'string' || metadataIssuer === '')
    throw new IssuerError('METADATA_ISSUER_MISMATCH', `the authorization server metadata found at ${discoveredAt} names no issuer`);
  if (issuerKey(metadataIssuer) !== issuerKey(discoveredAt))
    throw new IssuerError(
      'METADATA_ISSUER_MISMATCH',
      `the authorization server metadata found at ${discoveredAt} names the issuer ${metadataIssuer}; RFC 8414 requires them to be the same, so this server is not trusted`,
    );
  return metadataIssuer;
}

/** What the flow recorded before the browser left: the issuer and whether it announced `iss`. */
export interface ExpectedIssuer {
  issuer: string;
  issParameterSupported: boolean;
}

/**
 * RFC 9207 section 2.4 as MCP 2026-07-28 tabulates it, applied before the code is sent to any
 * token endpoint and before an `error` is acted on or shown: a present `iss` must equal the
 * recorded issuer by simple string comparison (no normalization at all); an absent one is
 * refused when the server announced `authorization_response_iss_parameter_supported`.
 */
export function checkResponseIssuer(expected: ExpectedIssuer, iss: string | undefined): void {
  if (iss !== undefined) {
    if (iss !== expected.issuer)
      throw new IssuerError(
        'ISSUER_MISMATCH',
        `the authorization response names the issuer ${JSON.stringify(iss)}, but this sign-in was sent to ${JSON.stringify(expected.issuer)} (a mix-up attack, RFC 9207); nothing from it was used`,
      );
    return;
  }
  if (expected.issParameterSupported)
    throw new IssuerError(
      'ISSUER_MISSING',
      `the authorization response has no iss parameter, but ${expected.issuer} announces authorization_response_iss_parameter_supported (RFC 9207); nothing from it was used`,
    );
}
