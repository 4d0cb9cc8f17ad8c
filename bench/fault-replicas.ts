/**
 * Switchboard replicas for the fault bench: one configuration directory, each replica a
 * process on a port of its own that it keeps across a restart, so the balancer in front of
 * them (which names fixed ports) takes a restarted replica back.
 */
import { join } from 'node:path';
import { startChild, type Child } from './processes.js';

export interface Replica {
  port: number;
  url: string;
  pid(): number;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT) to the running process. */
  signal(sig: NodeJS.Signals): void;
  /** Starts the process again on the same port (after a kill) and waits for /health. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Waits until `port`'s /health answers 200 with status ok (bounded). */
export async function healthy(port: number, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
      last = await res.text();
      if (res.ok && (JSON.parse(last) as { status?: string }).status === 'ok') return;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`replica on ${port} was not healthy within ${limitMs} ms: ${last}`);
}

export async function startReplica(root: string, configDir: string, port: number): Promise<Replica> {
  const launch = (): Promise<Child> =>
    startChild(
      [join(root, 'bin/switchboard.js'), 'serve', '--config-path', configDir, '--port', String(port), '--host', '127.0.0.1'],
      /listening on http:\/\/[^\s]+:(\d+)\/mcp/,
      { SWITCHBOARD_LOG_LEVEL: 'info' },
    );
  let child = await launch();
  await healthy(port);
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    pid: () => child.proc.pid ?? 0,
    signal: (sig) => void child.proc.kill(sig),
    restart: async () => {
      if (child.proc.exitCode === null && child.proc.signalCode === null) {
        const exited = new Promise((r) => child.proc.once('exit', r));
        child.proc.kill('SIGKILL');
        await exited;
      }
      child = await launch();
      await healthy(port);
    },
    stop: async () => {
      child.proc.kill('SIGCONT');
      await child.stop();
    },
  };
}
