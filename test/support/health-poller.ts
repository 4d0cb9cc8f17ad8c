/**
 * What a flood test watches from outside the gateway: /health latencies from a separate
 * process (the flooding client's own work never counts as the gateway's delay), and the
 * gateway's resident memory as the kernel reports it (/proc/<pid>/status, VmRSS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

/**
 * Polls /health one request at a time (the next 5 ms after the last answered) until its
 * stdin closes, then prints every latency in milliseconds as one JSON line. It says
 * "ready" after a first, untimed request: fetch's own start-up is not the gateway's delay;
 * after that it writes one "." to stderr per poll, so a test can flood until enough were made.
 */
const POLLER = `
const url = process.argv[1];
const latencies = [];
let stop = false;
process.stdin.on('end', () => { stop = true; });
process.stdin.resume();
(async () => {
  await (await fetch(url)).text();
  process.stderr.write('ready\\n');
  while (!stop) {
    const t0 = performance.now();
    const r = await fetch(url);
    await r.text();
    latencies.push({ ms: performance.now() - t0, status: r.status });
    process.stderr.write('.');
    await new Promise((res) => setTimeout(res, 5));
  }
  process.stdout.write(JSON.stringify(latencies) + '\\n');
})();
`;

export interface HealthPoll {
  ms: number;
  status: number;
}

export interface HealthPoller {
  proc: ChildProcess;
  /** How many polls have been answered so far. */
  polled(): number;
  /** Stops polling; resolves every poll made. */
  finish(): Promise<HealthPoll[]>;
}

export async function startHealthPoller(url: string): Promise<HealthPoller> {
  const proc = spawn(process.execPath, ['-e', POLLER, url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const done = new Promise<HealthPoll[]>((resolve, reject) => {
    proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as HealthPoll[]) : reject(new Error(`health poller exited ${code}: ${err}`))));
  });
  await new Promise<void>((resolve, reject) => {
    proc.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('ready\n')) resolve();
    });
    done.catch(reject);
  });
  return {
    proc,
    // Every "." after "ready" is one answered poll.
    polled: () => err.slice(err.indexOf('ready\n')).split('.').length - 1,
    finish: () => {
      proc.stdin?.end();
      return done;
    },
  };
}

/**
 * Runs `work` while /health at `url` is polled; resolves its result and every poll. `work` is
 * told how many polls have been answered so far: a flood that may end faster than a few polls on
 * a quick machine repeats until enough polls have watched it.
 */
export async function whilePolling<T>(url: string, work: (polled: () => number) => Promise<T>): Promise<{ result: T; polls: HealthPoll[] }> {
  const poller = await startHealthPoller(url);
  try {
    const result = await asAnOutsider(() => work(() => poller.polled()));
    return { result, polls: await poller.finish() };
  } catch (err) {
    await poller.finish().catch(() => undefined);
    throw err;
  }
}

/**
 * Runs `work` (the flood) with this process's threads at nice 10 (or lower already), then
 * puts them back. An attacker is another machine; here the flooding client shares the
 * gateway's two cores and, at an equal priority, takes turns with it: one poll in a flood once waited 101 ms for that
 * alone (the gateway's own answers were 27-67 ms at worst in runs of the same file by itself).
 * Lowered, it still sends as fast as the cores left over allow, and the gateway (and the
 * poller, started before) keeps the priority it would have. Where the priority cannot be put
 * back (no CAP_SYS_NICE), the rest of this process runs at nice 10: slower, never wrong.
 */
async function asAnOutsider<T>(work: () => Promise<T>): Promise<T> {
  const tids = (await readdir('/proc/self/task').catch(() => [] as string[])).map(Number);
  // Each thread with the priority it had (one that ended meanwhile is left out); never raised.
  const threads = tids.flatMap((tid) => attempt(() => [{ tid, priority: getPriority(tid) }]) ?? []);
  for (const { tid, priority } of threads) attempt(() => setPriority(tid, Math.max(priority, 10)));
  try {
    return await work();
  } finally {
    // No right to raise it back (no CAP_SYS_NICE) or a thread gone: left as it is.
    for (const { tid, priority } of threads) attempt(() => setPriority(tid, priority));
  }
}

/** What `f` answers, or undefined when it throws. */
function attempt<R>(f: () => R): R | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** One line saying how the polls went, for an assertion's message. */
export function describePolls(polls: readonly HealthPoll[]): string {
  const sorted = polls.map((h) => Math.round(h.ms)).sort((a, b) => a - b);
  return `${polls.length} polls; slowest ${sorted[sorted.length - 1]} ms; median ${sorted[sorted.length >> 1]} ms; top ${sorted.slice(-5).join(', ')} ms`;
}

/** The resident set of process `pid` in MiB, as the kernel counts it. */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(kb[1]) / 1024;
}

/**
 * Runs `total` tasks, `concurrency` at a time, sampling the RSS of `pid` every `sampleEvery`
 * completions; resolves the results in order and the largest RSS seen.
 */
export async function flood<T>(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
  pid: number,
  sampleEvery = 500,
): Promise<{ results: T[]; peakMiB: number }> {
  const results: T[] = new Array<T>(total);
  let next = 0;
  let done = 0;
  let peakMiB = await rssMiB(pid);
  const worker = async () => {
    while (next < total) {
      const i = next++;
      results[i] = await task(i);
      if (++done % sampleEvery === 0) peakMiB = Math.max(peakMiB, await rssMiB(pid));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { results, peakMiB: Math.max(peakMiB, await rssMiB(pid)) };
}

/** What a flood's POST got back. */
export interface Posted {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

const floodAgent = new Agent({ keepAlive: true });

/**
 * One POST of a flood, by node:http on kept-alive connections, with its Content-Length as fetch
 * sends it: the gateway gets the same request, and the flooding client, which shares the two
 * cores with the gateway, spends about a quarter of fetch's CPU on it (0.2-0.3 ms a request
 * against fetch's 0.8-1.0 ms, measured with 3,000 POSTs 50 at a time).
 */
export function floodPost(url: string, body: string, headers: Record<string, string> = {}): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: floodAgent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
