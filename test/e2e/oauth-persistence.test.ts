/**
 * Grants, clients and refresh tokens survive a restart when persistent storage is on:
 * store-files keeps them under state/grants, sealed (hashed ids, AES-GCM values), so the
 * files hold no usable token and no personal data. A restart with another encryption key
 * or another resource identifier keeps nothing usable.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { makeConfigDir, meta } from '../support/harness.js';
import { postForm } from '../support/oauth-browser.js';
import { mcpClient, registerClient, signIn, startProtected, type OAuthSetup, type Tokens } from '../support/oauth-setup.js';

const KEY = 'k'.repeat(40);
const persistent = (extra = '') => `      storage:\n        persistent: true\n        encryptionKey: \${GRANT_KEY}\n${extra}`;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  return out;
}

describe('OAuth server: persistent grants', function () {
  this.timeout(60_000);
  let configDir: string;
  let setup: OAuthSetup | undefined;
  let clientId: string;
  let tokens: Tokens;

  before(async () => {
    configDir = await makeConfigDir({});
    setup = await startProtected({ configDir, serverYaml: persistent(), env: { GRANT_KEY: KEY } });
    clientId = await registerClient(setup.base);
    tokens = await signIn(setup.base, clientId);
  });
  after(async () => {
    await setup?.sb.stop();
    await setup?.idp.close();
    await rm(configDir, { recursive: true, force: true });
  });

  async function restart(serverYaml: string, key = KEY): Promise<OAuthSetup> {
    await setup!.sb.stop();
    setup = await startProtected({ configDir, serverYaml, env: { GRANT_KEY: key }, again: setup });
    return setup;
  }

  it('keeps them sealed on disk: files 0600, no token, no e-mail address in them', async () => {
    const gone = (err: unknown): undefined => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err instanceof Error ? err : new Error(String(err));
    };
    const files = await filesUnder(join(configDir, 'state', 'grants'));
    expect(files.length).to.be.greaterThan(3);
    for (const file of files) {
      // A write still in flight (the provider updates records after sign-in) renames its temp file away under us.
      const mode = await stat(file).then((s) => s.mode & 0o777, gone);
      if (mode === undefined) continue;
      expect(mode, file).to.equal(0o600);
      const text = await readFile(file, 'utf8').catch(gone);
      if (text === undefined) continue;
      for (const secret of [tokens.access_token, tokens.refresh_token!, 'alice@example.com', 'Alice Example']) expect(text, file).to.not.include(secret);
    }
  });

  it('after a restart, the access token still opens /mcp and the refresh token still refreshes', async () => {
    const s = await restart(persistent());
    const client = await mcpClient(s.sb.url, tokens.access_token);
    await meta(client, 'list_tools');
    await client.close();
    const refreshed = await postForm(`${s.base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    tokens = refreshed.body as unknown as Tokens;
  });

  it('a token issued for this resource is refused after the resource identifier changes', async () => {
    const s = await restart(persistent('      resourceIdentifier: https://elsewhere.example/mcp\n'));
    const res = await fetch(s.sb.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).to.equal(401);
    expect(((await res.json()) as { error_description: string }).error_description).to.equal(
      `the access token was issued for another resource (${s.base}), not https://elsewhere.example/mcp`,
    );
  });

  it('with another encryption key nothing stored is usable, and the log says why', async () => {
    const s = await restart(persistent(), 'another key, long enough to be accepted');
    const refreshed = await postForm(`${s.base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId });
    // The registered client is among what cannot be opened: it is unknown now.
    expect(refreshed.status).to.equal(401);
    expect(refreshed.body.error).to.equal('invalid_client');
    expect(s.sb.logs()).to.match(/stored OAuth records could not be opened: they were sealed with another encryption key/);
  });
});
