/**
 * A real HAProxy (Debian's package) in front of Switchboard replicas for tests: HTTP mode,
 * round robin per request, no stickiness of any kind, on loopback with free ports; a
 * replica that stops answering is retried elsewhere (redispatch) and taken out by a TCP
 * check. Its stats (CSV) tell how many requests each replica served. Installed when absent.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness.js';

export interface RunningHaproxy {
  /** The balanced MCP endpoint. */
  url: string;
  /** Requests each backend served so far, by backend name (`r0`, `r1`, ...). */
  served(): Promise<Record<string, number>>;
  /** Each backend's check state as HAProxy sees it (`UP`, `DOWN`, `UP 1/2`, ...), by backend name. */
  states(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

function installed(): boolean {
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether haproxy is there, installing it when it is not; the reason when it cannot be. */
export function ensureHaproxy(): string | undefined {
  if (installed()) return undefined;
  try {
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy'], { stdio: 'ignore', timeout: 300_000 });
  } catch (err) {
    return `haproxy is not installed and could not be: ${(err as Error).message}`;
  }
  return installed() ? undefined : 'haproxy is not installed and apt-get did not install it';
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

export interface HaproxyOptions {
  /** Its port (a public URL the replicas are configured with before it starts); a free one when absent. */
  port?: number;
  /** `option forwardfor`: X-Forwarded-For appended with the client's address, as most balancers do. */
  forwardFor?: boolean;
  /**
   * Check each replica with `GET /health` (as docs/scale-out.md recommends) instead of a TCP
   * connect: a replica that is stopped (SIGSTOP) still accepts connections, and only an
   * HTTP check that times out takes it out.
   */
  httpCheck?: boolean;
  /** `timeout server`: how long a request sent to a replica may wait for its answer (default 120 s). */
  serverTimeoutMs?: number;
}

/** `backends`: the replicas' ports on 127.0.0.1. `path`: the MCP path the url names. */
export async function startHaproxy(backends: readonly number[], path = '/mcp', options: HaproxyOptions = {}): Promise<RunningHaproxy> {
  const problem = ensureHaproxy();
  if (problem) throw new Error(problem);
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-haproxy-'));
  const [port, statsPort] = [options.port ?? (await freePort()), await freePort()];
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    `  timeout server ${options.serverTimeoutMs ?? 120_000}ms`,
    // A fresh server connection per request: a replica that died is a refused connect, which
    // is retried on another replica (redispatch), never a request lost on a stale connection.
    '  option http-server-close',
    '  retries 3',
    '  option redispatch 1',
    ...(options.forwardFor ? ['  option forwardfor'] : []),
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    // A check not answered within 1 s fails: a stopped replica is taken out after one (fall 1).
    ...(options.httpCheck ? ['  option httpchk GET /health', '  timeout check 1s'] : []),
    ...backends.map((p, i) => `  server r${i} 127.0.0.1:${p} check inter 300ms fall 1 rise 2`),
    'frontend stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const proc: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 20_000;
  while (!(await accepts(port)) || !(await accepts(statsPort))) {
    if (proc.exitCode !== null) throw new Error(`haproxy exited (${proc.exitCode}): ${out}`);
    if (Date.now() > deadline) throw new Error(`haproxy did not listen within 20 s: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  /** One column of the stats CSV, per backend server. */
  const stats = async (column: string): Promise<[string, string][]> => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const lines = csv.split('\n');
    const header = lines[0]!.replace(/^# /, '').split(',');
    const [px, sv, at] = [header.indexOf('pxname'), header.indexOf('svname'), header.indexOf(column)];
    const out: [string, string][] = [];
    for (const line of lines.slice(1)) {
      const cols = line.split(',');
      if (cols[px] === 'replicas' && /^r\d+$/.test(cols[sv] ?? '')) out.push([cols[sv]!, cols[at] ?? '']);
    }
    return out;
  };
  return {
    url: `http://127.0.0.1:${port}${path}`,
    async served() {
      const counts: Record<string, number> = {};
      for (const [name, value] of await stats('req_tot')) counts[name] = Number(value);
      return counts;
    },
    async states() {
      return Object.fromEntries(await stats('status'));
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
