/**
 * A real redis-server (Debian's package) for cluster-mode tests: loopback only, a free port,
 * no persistence, in a temp directory. Installed with apt-get when absent (as .ci/run does);
 * `redisServerMissing()` says why it cannot run, so a test can skip with that message.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it (SIGTERM) and waits for the exit; `restart` may follow. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop or kill), waiting for PING. */
  restart(): Promise<void>;
  /** SIGKILL, not waited for: a crash. */
  kill(): void;
  /** Runs one command through redis-cli and returns its output. */
  cli(...args: string[]): string;
}

let installed: string | undefined | null = null;

/** undefined when redis-server can run here; else why not (installed on first call when apt-get can). */
export function redisServerMissing(): string | undefined {
  if (installed !== null) return installed;
  const has = (): boolean => spawnSync('sh', ['-c', 'command -v redis-server && command -v redis-cli'], { stdio: 'ignore' }).status === 0;
  if (!has() && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0) {
    spawnSync('sh', ['-c', 'apt-get update && apt-get install -y --no-install-recommends redis-server'], { stdio: 'ignore' });
  }
  installed = has() ? undefined : 'redis-server is not installed and apt-get could not install it (Debian package redis-server)';
  return installed;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG') || answer.startsWith('-NOAUTH'));
    });
    socket.on('error', () => done(false));
  });
}

/** Starts redis-server for a suite's `before`, or skips the suite saying why where none can run. */
export async function startRedisOrSkip(suite: Mocha.Context): Promise<RedisServer> {
  const missing = redisServerMissing();
  if (missing) {
    console.warn(`skipped: ${missing}`);
    suite.skip();
  }
  return startRedis();
}

/**
 * Starts redis-server; `password` turns on requirepass, `args` are further configuration
 * (`--maxmemory-policy allkeys-lru`). Throws when it cannot run (check redisServerMissing first).
 */
export async function startRedis(options: { password?: string; args?: readonly string[] } = {}): Promise<RedisServer> {
  const missing = redisServerMissing();
  if (missing) throw new Error(missing);
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-redis-'));
  const port = await freePort();
  let proc: ChildProcess | undefined;
  // Empty but for what a stopped server leaves; removed with the test process, after any
  // restart. A server a test did not stop (a failed hook, a worker ending) goes with it too:
  // left running, one outlived the suite by minutes.
  process.once('exit', () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let output = '';
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'];
  if (options.password !== undefined) args.push('--requirepass', options.password);
  args.push(...(options.args ?? []));

  const launch = async (): Promise<void> => {
    output = '';
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = child;
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    // The machine may be loaded: wait on PING (or the process dying), bounded generously.
    const deadline = Date.now() + 20_000;
    while (!(await ping(port))) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}):\n${output}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on ${port} within 20 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async (): Promise<void> => {
    const child = proc;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      await launch();
    },
    kill: () => proc?.kill('SIGKILL'),
    cli: (...command: string[]) => {
      const auth = options.password !== undefined ? ['--no-auth-warning', '-a', options.password] : [];
      const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...auth, ...command], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`redis-cli ${command.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    },
  };
}

/**
 * A redis-server for the enclosing `describe`: started before its tests (which are skipped,
 * saying why, where it cannot run) and stopped after them. Returns the running server's getter.
 */
export function useRedisServer(): () => RedisServer {
  let redis: RedisServer | undefined;
  before(async function () {
    this.timeout(15 * 60_000);
    redis = await startRedisOrSkip(this);
  });
  after(async () => {
    await redis?.stop();
  });
  return () => {
    if (!redis) throw new Error('redis-server is not running (read it inside a test or hook)');
    return redis;
  };
}
