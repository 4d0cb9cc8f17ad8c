/**
 * Cluster mode's connection to Redis, through real processes: a real redis-server and a real
 * Switchboard. Startup with Redis unreachable stops within the bound, naming the server and
 * the reason; /health says degraded while Redis is down and ok once it is back; the password
 * comes from a file and appears in no log line; a renewed password or CA file is read again at
 * the next reconnect.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, connectHttp, eventually, freePort, makeConfigDir, meta, startSwitchboard, type Running } from '../support/harness.js';
import { selfSignedCertificate } from '../support/self-signed.js';
import { startStrandingProxy } from '../support/stranding-proxy.js';
import { redisServerMissing, startRedis, type RedisServer } from '../support/redis-server.js';

interface Exit {
  code: number | null;
  output: string;
  ms: number;
}

/** `switchboard serve` expected to fail at startup: its exit code, output and how long it took. */
function serveUntilExit(configDir: string, limitMs: number): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const proc = spawn(process.execPath, [CLI, 'serve', '--config-path', configDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`still running after ${limitMs} ms:\n${output}`));
    }, limitMs);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

async function health(sb: Running): Promise<{ status: string; reason?: string }> {
  const res = await fetch(new URL('/health', sb.url));
  expect(res.status).to.equal(200);
  return (await res.json()) as { status: string; reason?: string };
}

describe('cluster mode: the connection to Redis', function () {
  this.timeout(120_000);

  before(function () {
    const missing = redisServerMissing();
    if (missing) {
      console.warn(`skipped: ${missing}`);
      this.skip();
    }
  });

  it('startup with Redis unreachable stops within connectTimeoutSeconds, naming the server and the reason, and never listens', async () => {
    const port = await freePort();
    const dir = await makeConfigDir({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: redis://127.0.0.1:${port}/2\n      connectTimeoutSeconds: 2\n`,
    });
    // The bound is 2 s; the rest is a loaded machine starting Node and loading the plugins.
    const exit = await serveUntilExit(dir, 60_000);
    expect(exit.code, exit.output).to.equal(1);
    expect(exit.output).to.include(`cannot use Redis at redis://127.0.0.1:${port}/2 (aggregator.cluster.redis): not reachable within 2 s (`);
    expect(exit.output).to.include('ECONNREFUSED');
    // It waited for the bound (a refused first attempt is retried), and the 60 s limit above caps the rest.
    expect(exit.ms).to.be.at.least(2000);
    expect(exit.output).to.not.include('listening on');
  });

  it('a wrong password stops startup naming the reason, never the password; the right one from a file (trailing newline) connects', async () => {
    const redis = await startRedis({ password: 's3cret-redis-pass' });
    try {
      const wrong = await makeConfigDir({
        'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      passwordFile: redis-password\n      connectTimeoutSeconds: 2\n`,
        'redis-password': 'not-the-password-xyz\n',
      });
      const exit = await serveUntilExit(wrong, 60_000);
      expect(exit.code, exit.output).to.equal(1);
      expect(exit.output).to.match(
        /cannot use Redis at redis:\/\/127\.0\.0\.1:\d+ \(aggregator\.cluster\.redis\): not reachable within 2 s \(.*(WRONGPASS|invalid password)/,
      );
      expect(exit.output).to.not.include('not-the-password-xyz');

      const missingFile = await makeConfigDir({
        'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      passwordFile: nowhere\n`,
      });
      const noFile = await serveUntilExit(missingFile, 60_000);
      expect(noFile.code, noFile.output).to.equal(1);
      expect(noFile.output).to.match(/aggregator\.cluster\.redis\.passwordFile \S+nowhere \(ENOENT\)/);

      const sb = await startSwitchboard({
        'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      passwordFile: redis-password\n`,
        'redis-password': 's3cret-redis-pass\n',
      });
      try {
        expect(await health(sb)).to.deep.equal({ status: 'ok' });
        expect(sb.logs()).to.include(`connected to Redis at ${redis.url}`);
        expect(sb.logs()).to.not.include('s3cret-redis-pass');
      } finally {
        await sb.stop();
      }
    } finally {
      await redis.stop();
    }
  });

  it('a password renewed in its file is used from the next reconnect (a rotated Secret), and never logged', async () => {
    const redis = await startRedis({ password: 'first-redis-pass' });
    const sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n      passwordFile: redis-password\n`,
      'redis-password': 'first-redis-pass\n',
    });
    /** redis-cli authenticated with `password` (the helper's knows only the first). */
    const cli = (password: string, ...command: string[]) => {
      const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(redis.port), '--no-auth-warning', '-a', password, ...command], { encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      return r.stdout;
    };
    try {
      expect(await health(sb)).to.deep.equal({ status: 'ok' });
      // Redis is told the new password and drops its clients: each must authenticate again.
      cli('first-redis-pass', 'CONFIG', 'SET', 'requirepass', 'second-redis-pass');
      cli('second-redis-pass', 'CLIENT', 'KILL', 'TYPE', 'normal');
      cli('second-redis-pass', 'CLIENT', 'KILL', 'TYPE', 'pubsub');
      // Refused with the old password, and /health says so.
      await eventually(
        () => health(sb),
        (h) => h.status === 'degraded' && /WRONGPASS|invalid password/.test(h.reason ?? ''),
        30_000,
      );
      await writeFile(join(sb.configDir, 'redis-password'), 'second-redis-pass\n');
      await eventually(
        () => health(sb),
        (h) => h.status === 'ok',
        30_000,
      );
      expect(sb.logs()).to.match(/the Redis password in \S+redis-password changed: reconnecting with it/);
      expect(sb.logs()).to.not.include('first-redis-pass').and.not.include('second-redis-pass');
    } finally {
      await sb.stop();
      await redis.stop();
    }
  });

  it('CA certificates renewed in tls.caFile are used from the next reconnect (Redis given a certificate from a new CA)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'redis-tls-'));
    const [first, second] = await Promise.all(
      ['first', 'second'].map(async (name) => selfSignedCertificate(await mkdtemp(join(dir, `${name}-`)), `redis-${name}`)),
    );
    const tlsPort = await freePort();
    /** Redis's settings for serving `c` (its own CA: self-signed), as CONFIG SET takes them. */
    const tls = (c: { certFile: string; keyFile: string }) => ['tls-cert-file', c.certFile, 'tls-key-file', c.keyFile, 'tls-ca-cert-file', c.certFile];
    const asArgs = (settings: string[]) => settings.map((v, i) => (i % 2 === 0 ? `--${v}` : v));
    const redis = await startRedis({ args: ['--tls-port', String(tlsPort), '--tls-auth-clients', 'no', ...asArgs(tls(first!))] });
    const sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: rediss://127.0.0.1:${tlsPort}/3\n      tls:\n        caFile: redis-ca.pem\n`,
      'redis-ca.pem': await readFile(first!.certFile, 'utf8'),
    });
    try {
      expect(await health(sb)).to.deep.equal({ status: 'ok' });
      // Redis serves a certificate of the new CA and drops its clients: each must verify it again.
      redis.cli('CONFIG', 'SET', ...tls(second!));
      redis.cli('CLIENT', 'KILL', 'TYPE', 'normal');
      redis.cli('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await eventually(
        () => health(sb),
        (h) => h.status === 'degraded' && /certificate/i.test(h.reason ?? ''),
        30_000,
      );
      await writeFile(join(sb.configDir, 'redis-ca.pem'), await readFile(second!.certFile, 'utf8'));
      await eventually(
        () => health(sb),
        (h) => h.status === 'ok',
        30_000,
      );
      expect(sb.logs()).to.match(/the Redis CA certificates in \S+redis-ca\.pem changed: reconnecting with it/);
    } finally {
      await sb.stop();
      await redis.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('after a failover, a write refused READONLY by the old primary connects again to what the address names now', async () => {
    const [old, next] = await Promise.all([startRedis(), startRedis()]);
    const proxy = await startStrandingProxy(old.port);
    const sb = await startSwitchboard({ 'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: redis://127.0.0.1:${proxy.port}\n` });
    try {
      const before = await connectHttp(sb.url);
      await before.close();
      // The failover: the old primary follows the new one (read-only, its connections kept open), and the name moves.
      old.cli('REPLICAOF', '127.0.0.1', String(next.port));
      proxy.retarget(next.port);
      // A new session's record is a write: refused by the old primary, then written on the new one.
      const client = await eventually(
        () => connectHttp(sb.url),
        () => true,
        30_000,
      );
      expect((await meta<{ tools: unknown[] }>(client, 'list_tools')).tools).to.be.an('array');
      await client.close();
      expect(sb.logs()).to.match(
        /WARN {2}\[switchboard:cluster-redis\] Redis at redis:\/\/127\.0\.0\.1:\d+ answered READONLY \(it is a replica now: failed over\?\): connecting again/,
      );
      expect(Number(next.cli('DBSIZE').trim()), 'keys written on the new primary').to.be.above(0);
    } finally {
      await sb.stop();
      await proxy.close();
      await Promise.all([old.stop(), next.stop()]);
    }
  });

  it('/health says degraded, with the reason, while Redis is stopped, and ok again once it is back', async () => {
    const redis: RedisServer = await startRedis();
    const sb = await startSwitchboard({ 'config.yaml': `aggregator:\n  cluster:\n    redis:\n      url: ${redis.url}\n` });
    try {
      expect(await health(sb)).to.deep.equal({ status: 'ok' });
      await redis.stop();
      const degraded = await eventually(
        () => health(sb),
        (h) => h.status === 'degraded',
        30_000,
      );
      expect(degraded.reason).to.include(`cluster-redis: Redis at ${redis.url} unreachable`);
      await redis.restart();
      await eventually(
        () => health(sb),
        (h) => h.status === 'ok',
        30_000,
      );
      await sb.waitForLog(/Redis at redis:\/\/127\.0\.0\.1:\d+ reachable again/);
      expect(sb.proc.exitCode).to.equal(null);
    } finally {
      await sb.stop();
      await redis.stop();
    }
  });

  it('a URL carrying credentials is refused before anything connects, naming the field (the password belongs in passwordFile)', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  cluster:\n    redis:\n      url: redis://:hunter2-pass@127.0.0.1:6379\n' });
    const exit = await serveUntilExit(dir, 60_000);
    expect(exit.code, exit.output).to.equal(1);
    expect(exit.output).to.match(/config\.yaml:4:\d+: aggregator\.cluster\.redis\.url: must match pattern/);
    expect(exit.output).to.not.include('connected to Redis');
  });

  it('without aggregator.cluster nothing connects and /health is ok as before', async () => {
    const sb = await startSwitchboard({ 'config.yaml': 'aggregator: {}\n' });
    try {
      expect(await health(sb)).to.deep.equal({ status: 'ok' });
      expect(sb.logs()).to.not.include('Redis');
    } finally {
      await sb.stop();
    }
  });
});
