/**
 * A certificate renewed in place is served without a restart (plugins/http-server/
 * tls-renewal.ts): the files of aggregator.tls replaced as cert-manager's Secret volume or
 * certbot replaces them, read again every second here (option `tlsReloadSeconds`). New
 * connections get the new certificate; a pair that does not work together is refused with
 * one warning while the one in service stays.
 */
import { X509Certificate } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { expect } from 'chai';
import { loggedAfter, makeConfigDir, startSwitchboard, type Running } from '../support/harness.js';
import { selfSignedCertificate } from '../support/self-signed.js';

type Pair = { dir: string; certFile: string; keyFile: string; fingerprint: string };

async function certificate(name: string): Promise<Pair> {
  const dir = await mkdtemp(join(tmpdir(), `switchboard-${name}-`));
  const made = selfSignedCertificate(dir, name);
  return { dir, ...made, fingerprint: new X509Certificate(await readFile(made.certFile)).fingerprint256 };
}

/** The certificate a new connection is shown. */
function served(port: number): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate());
      socket.end();
    });
    socket.on('error', reject);
  });
}

/** /health over HTTPS, trusting only `ca`. */
function health(port: number, ca: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', ca, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a TLS certificate renewed in place', function () {
  this.timeout(60_000);
  let first: Pair;
  let second: Pair;
  let sb: Running;
  const tls = (file: string) => join(sb.configDir, 'tls', file);

  /** Both files replaced whole, the certificate first (each by a rename, as a Secret volume or `mv` does). */
  async function install(cert: string, key: string): Promise<void> {
    await copyFile(cert, tls('cert.pem.next'));
    await copyFile(key, tls('key.pem.next'));
    await rename(tls('cert.pem.next'), tls('cert.pem'));
    await rename(tls('key.pem.next'), tls('key.pem'));
  }

  before(async () => {
    [first, second] = await Promise.all([certificate('first'), certificate('second')]);
    const dir = await makeConfigDir({
      'config.yaml':
        'aggregator:\n  tls:\n    certFile: tls/cert.pem\n    keyFile: tls/key.pem\nplugins:\n  http-server:\n    options: { tlsReloadSeconds: 1 }\n',
      'tls/cert.pem': await readFile(first.certFile, 'utf8'),
      'tls/key.pem': await readFile(first.keyFile, 'utf8'),
    });
    sb = await startSwitchboard({}, { configDir: dir, ready: /listening on https:\/\/[^\s]+:(\d+)\/mcp/ });
  });
  after(async () => {
    await sb?.stop();
    for (const pair of [first, second]) if (pair) await rm(pair.dir, { recursive: true, force: true });
  });

  it('serves the certificate it started with', async () => {
    expect((await served(sb.port)).fingerprint256).to.equal(first.fingerprint);
    expect(JSON.parse(await health(sb.port, await readFile(first.certFile)))).to.deep.equal({ status: 'ok' });
  });

  it('serves a renewed certificate to new connections, saying until when it is valid', async () => {
    await loggedAfter(
      sb,
      /INFO {2}\[switchboard:http-server\] aggregator\.tls: tls\/cert\.pem was renewed: serving it to new connections \(valid until .+\)/,
      () => install(second.certFile, second.keyFile),
    );
    expect((await served(sb.port)).fingerprint256).to.equal(second.fingerprint);
    // A client that trusts only the new certificate is served.
    expect(JSON.parse(await health(sb.port, await readFile(second.certFile)))).to.deep.equal({ status: 'ok' });
  });

  it('keeps the certificate in service when the new files do not work together, saying so once', async () => {
    const logged = await loggedAfter(
      sb,
      /WARN {2}\[switchboard:http-server\] aggregator\.tls: the certificate and key in tls\/cert\.pem and tls\/key\.pem changed but are not usable together \(.+\): still serving the previous certificate/,
      () => install(first.certFile, second.keyFile),
    );
    expect(logged.match(/not usable together/g)).to.have.length(1);
    expect((await served(sb.port)).fingerprint256).to.equal(second.fingerprint);
    // Put right, the pair is served.
    await loggedAfter(sb, /aggregator\.tls: tls\/cert\.pem was renewed/, () => install(first.certFile, first.keyFile));
    expect((await served(sb.port)).fingerprint256).to.equal(first.fingerprint);
  });
});
