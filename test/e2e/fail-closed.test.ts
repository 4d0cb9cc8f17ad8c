import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { CLI, freePort, makeConfigDir, startSwitchboard } from '../support/harness.js';
import { selfSignedCertificate } from '../support/self-signed.js';
import { checkInProcess } from '../support/check.js';

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * serve and check on the same configuration: both must refuse, with the same line. serve is the
 * command's process; check is its function in this process (test/support/check.ts), which saves a
 * 2 s `check` process per case: the last test runs the `check` command itself.
 */
async function refusedByBoth(dir: string): Promise<string> {
  const served = run('serve', '--config-path', dir, '--port', '0');
  expect(served.status, served.stderr).to.equal(1);
  expect(served.stderr).to.not.include('listening');
  const checked = await checkInProcess(dir);
  expect(checked.status).to.equal(1);
  expect(served.stderr).to.include(checked.stderr.trim().split('\n')[0]);
  return served.stderr;
}

describe('fail closed: a switched-on surface that cannot be honoured stops startup', () => {
  it('OAuth protection switched on without the plugin that provides it: refused, naming the setting and its line', async () => {
    const dir = await makeConfigDir({
      'config.yaml':
        'aggregator:\n  oauth:\n    server:\n      enabled: true\n      baseUrl: https://sb.example\n      idp: {issuer: https://idp.example, clientId: sb}\nplugins:\n  auth-server: false\n',
    });
    const stderr = await refusedByBoth(dir);
    expect(stderr).to.match(
      /config\.yaml:4:\d+: aggregator\.oauth\.server\.enabled: OAuth protection of the MCP endpoint is switched on, but no enabled plugin provides it \(plugin 'auth-server'\)/,
    );
  });

  it('OAuth protection switched on without its identity provider or public URL: refused, naming what is missing', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  oauth:\n    server:\n      enabled: true\n' });
    const stderr = await refusedByBoth(dir);
    expect(stderr).to.match(/aggregator\.oauth\.server.*baseUrl/);
    expect(stderr).to.match(/aggregator\.oauth\.server.*idp/);
  });

  it('a broker credential in an orchestrator secret, in file mode: refused, naming the field and what to do', async () => {
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  oauth:\n    server:\n      enabled: true\n      baseUrl: http://127.0.0.1:8090\n      idp: {issuer: 'http://127.0.0.1:9', clientId: sb}\n      tokenExchangeBroker:\n        brokerClients: {agent-gw: {clientCredentialsSecretRef: {name: broker}}}\nidp:\n  allowPrivateIPOIDC: true\n`,
    });
    const served = run('serve', '--config-path', dir, '--port', '0');
    expect(served.status, served.stderr).to.equal(1);
    expect(served.stderr).to.include(
      'aggregator.oauth.server.tokenExchangeBroker.brokerClients.agent-gw.clientCredentialsSecretRef: clientCredentialsSecretRef names an orchestrator secret, and this mode has none (orchestrator: true reads it; in file mode use a file)',
    );
  });

  it('OAuth protection with an unreachable identity provider: startup retries, then stops with one clear line and never listens', async () => {
    const port = await freePort();
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  oauth:\n    server:\n      enabled: true\n      baseUrl: http://127.0.0.1:8090\n      idp: {issuer: 'http://127.0.0.1:${port}', clientId: sb}\nidp:\n  allowPrivateIPOIDC: true\nplugins:\n  auth-server: {options: {discoveryRetrySeconds: 1}}\n`,
    });
    const served = run('serve', '--config-path', dir, '--port', '0');
    expect(served.status, served.stderr).to.equal(1);
    expect(served.stderr).to.not.include('listening');
    expect(served.stderr).to.match(new RegExp(`identity provider http://127\\.0\\.0\\.1:${port} unreachable: .* \\(discovery retried for 1 s\\)`));
  });

  it('OAuth protection with an identity provider on a private address, not allowed: refused, naming the flag', async () => {
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  oauth:\n    server:\n      enabled: true\n      baseUrl: http://127.0.0.1:8090\n      idp: {issuer: 'https://10.255.255.1', clientId: sb}\n`,
    });
    const served = run('serve', '--config-path', dir, '--port', '0');
    expect(served.status, served.stderr).to.equal(1);
    expect(served.stderr).to.include(
      'identity provider https://10.255.255.1: 10.255.255.1 resolves to private IP address 10.255.255.1; set idp.allowPrivateIPOIDC: true if it is meant to be there',
    );
  });

  it('the OAuth client and orchestrator mode likewise', async () => {
    const dir = await makeConfigDir({
      'config.yaml': 'orchestrator: true\noauth:\n  mcpClient:\n    enabled: true\nplugins:\n  auth-client: false\n  store-kubernetes: false\n',
    });
    const stderr = await refusedByBoth(dir);
    expect(stderr).to.match(/config\.yaml:1:\d+: orchestrator: orchestrator mode is switched on, but no enabled plugin provides it/);
    expect(stderr).to.match(/config\.yaml:4:\d+: oauth\.mcpClient\.enabled: the OAuth client for remote MCP servers is switched on/);
  });

  it('the admin UI on a non-loopback address without the explicit override is refused', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  admin:\n    enabled: true\n    bindAddress: 0.0.0.0\n' });
    const stderr = await refusedByBoth(dir);
    expect(stderr).to.match(
      /config\.yaml:4:\d+: aggregator\.admin\.bindAddress: the admin UI has no authentication and would listen on 0\.0\.0\.0; .*allowNonLoopback: true/,
    );
  });

  it('TLS with a missing key file is refused, naming the file', async () => {
    const dir = await makeConfigDir({
      'config.yaml': 'aggregator:\n  tls:\n    certFile: tls/cert.pem\n    keyFile: tls/missing-key.pem\n',
      'tls/cert.pem': 'not a certificate',
    });
    const stderr = await refusedByBoth(dir);
    expect(stderr).to.match(/config\.yaml:4:\d+: aggregator\.tls\.keyFile: cannot read .*tls\/missing-key\.pem \(ENOENT\); refusing to serve without TLS/);
  });

  it('TLS with a certificate and key that are not a pair is refused', async () => {
    const dir = await makeConfigDir({
      'config.yaml': 'aggregator:\n  tls:\n    certFile: cert.pem\n    keyFile: key.pem\n',
      'cert.pem': 'garbage',
      'key.pem': 'garbage',
    });
    const stderr = await refusedByBoth(dir);
    expect(stderr).to.match(/aggregator\.tls: certificate and key are not usable together/);
  });

  it('TLS with a real certificate serves HTTPS', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  tls:\n    certFile: cert.pem\n    keyFile: key.pem\n' });
    selfSignedCertificate(dir, 'localhost');
    const sb = await startSwitchboard({}, { configDir: dir, ready: /listening on https:\/\/[^\s]+:(\d+)\/mcp/ });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: sb.port, path: '/health', ca: readFileSync(join(dir, 'cert.pem')) }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(JSON.parse(body)).to.deep.equal({ status: 'ok' });
    } finally {
      await sb.stop();
    }
  });

  it('keys of surfaces left switched off still load, with a warning', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  oauth:\n    server:\n      enabled: false\n' });
    const checked = run('check', '--config-path', dir);
    expect(checked.status, checked.stderr).to.equal(0);
  });
});
