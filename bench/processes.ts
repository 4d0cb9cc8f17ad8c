/** Child processes for the benchmark, and their CPU time from /proc. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

export function startChild(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Child> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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
