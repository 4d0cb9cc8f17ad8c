/**
 * A real redis-server (Debian's package) for tests: loopback, a free port, no persistence,
 * in a temp dir; resolved once it answers PING. Installed when absent (root, apt-get).
 *
 * (Stand-in for the redis-core branch's helper, to the interface in the cluster plan;
 * redis-core's version replaces it when merged.)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness.js';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  restart(): Promise<void>;
  kill(): void;
}

function installed(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether redis-server is there, installing it when it is not; the reason when it cannot be. */
export function ensureRedis(): string | undefined {
  if (installed()) return undefined;
  try {
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'], {
      stdio: 'ignore',
      timeout: 300_000,
    });
  } catch (err) {
    return `redis-server is not installed and could not be: ${(err as Error).message}`;
  }
  return installed() ? undefined : 'redis-server is not installed and apt-get did not install it';
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => s.write('PING\r\n'));
    s.setTimeout(1000, () => s.destroy());
    s.on('data', (d) => {
      resolve(d.toString().startsWith('+PONG'));
      s.end();
    });
    s.on('error', () => resolve(false));
    s.on('close', () => resolve(false));
  });
}

export async function startRedis(): Promise<RunningRedis> {
  const problem = ensureRedis();
  if (problem) throw new Error(problem);
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-redis-'));
  const port = await freePort();
  let proc: ChildProcess | undefined;
  const launch = async () => {
    const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc = p;
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const deadline = Date.now() + 20_000;
    while (!(await ping(port))) {
      if (p.exitCode !== null) throw new Error(`redis-server exited (${p.exitCode}): ${out}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer PING within 20 s: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const p = proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await exited;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
    async restart() {
      await stop();
      await launch();
    },
    kill() {
      proc?.kill('SIGKILL');
    },
  };
}
