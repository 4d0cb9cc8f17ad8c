/**
 * Token exchange (RFC 8693) for subject tokens of trusted issuers: what passes becomes a
 * Switchboard access token for this resource and opens /mcp; what does not is refused with
 * the reason (issuer, signature, audience, claim pattern, scope ceiling).
 */
import { expect } from 'chai';
import { meta } from '../support/harness.js';
import { postForm } from '../support/oauth-browser.js';
import { mcpClient, startProtected, type OAuthSetup } from '../support/oauth-setup.js';
import { startTokenIssuer, type TokenIssuer } from '../fixtures/token-issuer.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

describe('OAuth server: token exchange with trusted issuers', function () {
  this.timeout(30_000);
  let ci: TokenIssuer;
  let stranger: TokenIssuer;
  let setup: OAuthSetup;
  let clientId: string;

  before(async () => {
    ci = await startTokenIssuer('ci');
    stranger = await startTokenIssuer('stranger');
    setup = await startProtected({
      serverYaml: [
        '      trustedIssuers:',
        `        - issuer: ${ci.issuer}`,
        `          jwksUrl: ${ci.jwksUrl}`,
        '          allowPrivateIPJWKS: true',
        '          allowedAudiences: [switchboard]',
        '          allowedScopes: [mcp, read]',
        '          allowedClaims:',
        "            repository: 'acme/*'",
        "            ref: 'refs/heads/ma??'",
      ].join('\n'),
    });
    const reg = await fetch(`${setup.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_types: [EXCHANGE], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'none', client_name: 'ci runner' }),
    });
    const body = (await reg.json()) as { client_id: string };
    expect(reg.status, JSON.stringify(body)).to.equal(201);
    clientId = body.client_id;
  });
  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
    await ci?.close();
    await stranger?.close();
  });

  const good = { sub: 'pipeline-7', aud: 'switchboard', repository: 'acme/tools/deploy', ref: 'refs/heads/main', scope: 'mcp' };
  const exchange = (subjectToken: string, extra: Record<string, string> = {}) =>
    postForm(`${setup.base}/oauth/token`, { grant_type: EXCHANGE, client_id: clientId, subject_token: subjectToken, subject_token_type: JWT_TYPE, ...extra });

  it('turns a trusted JWT into an access token for this resource, no refresh token, no longer than the subject token', async () => {
    const r = await exchange(await ci.mint(good, { expiresInSeconds: 300 }));
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body).to.include({ issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', scope: 'mcp' });
    expect(r.body.refresh_token).to.equal(undefined);
    expect(r.body.expires_in).to.be.within(295, 300);
    const client = await mcpClient(setup.sb.url, String(r.body.access_token));
    await meta(client, 'list_tools');
    await client.close();
  });

  it('refuses, each with its reason', async () => {
    const cases: [string, Promise<string>, Record<string, string>, string, string][] = [
      ['untrusted issuer', stranger.mint(good), {}, 'invalid_grant', `subject_token issuer '${stranger.issuer}' is not a trusted issuer`],
      ['wrong signature', ci.mint(good, { key: 'foreign' }), {}, 'invalid_grant', 'subject_token rejected: signature verification failed'],
      [
        'audience not allowed',
        ci.mint({ ...good, aud: 'someone-else' }),
        {},
        'invalid_grant',
        `subject_token audience (someone-else) is not among the allowed audiences of ${ci.issuer}`,
      ],
      [
        'claim failing its glob',
        ci.mint({ ...good, repository: 'evil/acme' }),
        {},
        'invalid_grant',
        "subject_token claim 'repository' ('evil/acme') does not match 'acme/*'",
      ],
      [
        '? is one character',
        ci.mint({ ...good, ref: 'refs/heads/maint' }),
        {},
        'invalid_grant',
        "subject_token claim 'ref' ('refs/heads/maint') does not match 'refs/heads/ma??'",
      ],
      [
        'claim absent',
        ci.mint({ sub: 'x', aud: 'switchboard', ref: 'refs/heads/main' }),
        {},
        'invalid_grant',
        "subject_token claim 'repository' is absent; it must match 'acme/*'",
      ],
      [
        'claim not a string',
        ci.mint({ ...good, repository: ['acme/x'] }),
        {},
        'invalid_grant',
        "subject_token claim 'repository' is not a string; it must match 'acme/*'",
      ],
      ['scope above the ceiling', ci.mint(good), { scope: 'mcp admin' }, 'invalid_scope', `scope above the ceiling of ${ci.issuer}: admin`],
      [
        'another resource',
        ci.mint(good),
        { resource: 'https://other.example/mcp' },
        'invalid_target',
        `'https://other.example/mcp' is not served here; this server issues tokens for ${setup.base}`,
      ],
    ];
    for (const [what, token, extra, error, description] of cases) {
      const r = await exchange(await token, extra);
      expect(r.status, what).to.equal(400);
      expect(r.body, what).to.deep.include({ error, error_description: description });
    }
  });
});
