/** The auth block's mode in force and its defaults (lib/server-auth): which mode wins, what is filled in where used. */
import { expect } from 'chai';
import type { McpServerDefinition } from '../../kernel/index.js';
import { authMode, authProblems, REMOTE_ONLY } from '../../lib/server-auth/auth-mode.js';
import { audienceScopes } from '../../lib/server-auth/audience-scopes.js';

const remote = (auth: McpServerDefinition['auth']): Pick<McpServerDefinition, 'type' | 'auth'> => ({ type: 'streamable-http', auth });
const exchange = { enabled: true, dexTokenEndpoint: 'https://dex.example.com/token', connectorId: 'home', clientId: 'sb', clientSecretFile: 's' };

describe('server auth mode', () => {
  it('tokenExchange wins over forwardToken; its defaults come from the endpoint and the reference', () => {
    const mode = authMode(remote({ type: 'oauth', forwardToken: true, tokenExchange: exchange }));
    expect(mode).to.deep.equal({
      kind: 'exchange',
      target: {
        endpoint: 'https://dex.example.com/token',
        expectedIssuer: 'https://dex.example.com',
        connectorId: 'home',
        scopes: 'openid profile email groups',
        credentials: { from: 'file', clientId: 'sb', clientSecretFile: 's' },
      },
    });
  });

  it('a secret reference takes the default key names; idpTokenEndpoint is the same as dexTokenEndpoint', () => {
    const mode = authMode(
      remote({ tokenExchange: { enabled: true, idpTokenEndpoint: 'https://idp.example/t', connectorId: 'c', clientCredentialsSecretRef: { name: 'x' } } }),
    );
    expect(mode.kind === 'exchange' && mode.target.credentials).to.deep.equal({
      from: 'secret',
      name: 'x',
      clientIdKey: 'client-id',
      clientSecretKey: 'client-secret',
    });
    expect(mode.kind === 'exchange' && mode.target.endpoint).to.equal('https://idp.example/t');
  });

  it('a disabled exchange leaves forwardToken, then the pin, then type oauth, then none', () => {
    expect(authMode(remote({ forwardToken: true, tokenExchange: { ...exchange, enabled: false } })).kind).to.equal('forward');
    expect(authMode(remote({ type: 'oauth', authorizationServer: { issuer: 'https://as.example', scopes: 'openid' } }))).to.deep.equal({
      kind: 'sign-in',
      pinned: { issuer: 'https://as.example', scopes: 'openid' },
    });
    expect(authMode(remote({ type: 'oauth' }))).to.deep.equal({ kind: 'sign-in' });
    expect(authMode(remote({ type: 'none' }))).to.deep.equal({ kind: 'none' });
    expect(authMode({ type: 'stdio', auth: { forwardToken: true } })).to.deep.equal({ kind: 'none' });
  });

  it('stdio with any active setting has the reference phrase; none alone is fine', () => {
    expect(authProblems({ type: 'stdio', auth: { forwardToken: true } })).to.deep.equal([{ field: 'auth', message: REMOTE_ONLY }]);
    expect(authProblems({ type: 'stdio', auth: { type: 'none' } })).to.deep.equal([]);
  });

  it('differing endpoints and both credential forms are refused', () => {
    const messages = authProblems(
      remote({ tokenExchange: { ...exchange, idpTokenEndpoint: 'https://other.example/t', clientCredentialsSecretRef: { name: 'x' } } }),
    ).map((p) => p.message);
    expect(messages).to.deep.equal([
      'dexTokenEndpoint and idpTokenEndpoint name the same endpoint: give one, or both equal',
      'tokenExchange takes clientCredentialsSecretRef or clientId with clientSecretFile, not both',
    ]);
  });

  it('sign-in asks the audiences of forwarding servers only, once each', () => {
    const servers = [
      { value: { name: 'a', type: 'sse', auth: { forwardToken: true, requiredAudiences: ['k8s', 'vault'] } } },
      { value: { name: 'b', type: 'sse', auth: { forwardToken: true, requiredAudiences: ['k8s'] } } },
      { value: { name: 'c', type: 'sse', auth: { requiredAudiences: ['unused'] } } },
    ] as unknown as { value: McpServerDefinition }[];
    expect(audienceScopes(servers)).to.deep.equal(['audience:server:client_id:k8s', 'audience:server:client_id:vault']);
  });
});
