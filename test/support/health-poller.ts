/**
 * A /health poller in a separate process, so that a test's own work (building and parsing
 * large messages) never counts as the gateway's delay: the attack suites under
 * test/security/ run it while they attack and assert every answer came within 100 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Polls /health one request at a time (the next 5 ms after the last answered) until its
 * stdin closes, then prints every latency in milliseconds as one JSON line. It says
 * "ready" after a first, untimed request: fetch's own start-up is not the gateway's delay.
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
    await new Promise((res) => setTimeout(res, 5));
  }
  process.stdout.write(JSON.stringify(latencies) + '\\n');
})();
`;

export interface Poller {
  proc: ChildProcess;
  done: Promise<{ ms: number; status: number }[]>;
}

export async function startPoller(url: string): Promise<Poller> {
  const proc = spawn(process.execPath, ['-e', POLLER, url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const done = new Promise<{ ms: number; status: number }[]>((resolve, reject) => {
    proc.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { ms: number; status: number }[]) : reject(new Error(`health poller exited ${code}: ${err}`)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    proc.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('ready\n')) resolve();
    });
    done.catch(reject);
  });
  return { proc, done };
}
