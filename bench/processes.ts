/** Child processes for the benchmark, and their CPU time from /proc. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';

export interface Child {
  proc: ChildProcess;
  port: number;
  cpuMs: () => number;
  stop(): Promise<void>;
}

const TICKS_PER_SECOND = 100;

/** utime + stime of a process, in milliseconds. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * The children still running. A benchmark that ends any way but SIGKILL stops them: a driver
 * killed by its closed output pipe (`| head`) once left a Switchboard profiling at 15 % of a
 * core for as long as nobody noticed, and every later measurement on the machine paid for it.
 */
const running = new Set<ChildProcess>();
let stopsChildren = false;
function stopChildrenOnExit(): void {
  if (stopsChildren) return;
  stopsChildren = true;
  process.once('exit', () => {
    for (const proc of running) proc.kill('SIGTERM');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => process.exit(128 + constants.signals[signal]));
}

export function startChild(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Child> {
  stopChildrenOnExit();
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    running.add(proc);
    proc.once('exit', () => running.delete(proc));
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) {
        proc.stdout.off('data', onData);
        proc.stderr.off('data', onData);
        proc.stdout.resume();
        proc.stderr.resume();
        resolve({
          proc,
          port: Number(m[1]),
          cpuMs: () => cpuMsOf(proc.pid!),
          stop: () =>
            new Promise<void>((done) => {
              if (proc.exitCode !== null) return void done();
              proc.once('exit', () => done());
              proc.kill('SIGTERM');
            }),
        });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`)));
  });
}
