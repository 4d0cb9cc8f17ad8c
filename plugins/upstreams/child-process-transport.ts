/**
 * An MCP client transport over a child's stdin/stdout. Unlike the SDK's, the child leads
 * its own process group, so stopping it also stops whatever it spawned (`npx` wrappers,
 * shells): no orphan survives a stop. stderr is handed back line by line for the log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { deliver } from './deliver.js';

export interface ChildProcessParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** A message longer than this (no line break within it) ends the connection. */
  maxMessageBytes: number;
  onStderrLine: (line: string) => void;
}

const STOP_WAIT_MS = 1500;

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly params: ChildProcessParams) {
    this.buffer = new ReadBuffer({ maxBufferSize: params.maxMessageBytes });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: this.params.env,
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin!.on('error', (err) => this.onerror?.(err));
      child.stdout!.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
        } catch {
          // Past the limit there is no telling where the next message starts: the stream is lost.
          this.onerror?.(new Error(`sent more than ${this.params.maxMessageBytes} bytes without completing a message (maxMessageBytes); disconnecting`));
          void this.close();
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (err) {
            // A line that is not JSON-RPC (a banner, a stray print) is skipped; the stream goes on.
            this.onerror?.(new Error(`skipped a line on stdout that is not a JSON-RPC message (${(err as Error).message.slice(0, 120)})`));
            continue;
          }
          if (message === null) break;
          deliver(this.onmessage, message);
        }
        // Every line was complete: drop the buffer, whose empty remainder would otherwise keep
        // the whole last chunk (a megabyte tools/list, say) alive until the next read.
        if (chunk[chunk.length - 1] === 0x0a) this.buffer.clear();
      });
      let pending = '';
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => {
        pending += text;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl).trimEnd();
          pending = pending.slice(nl + 1);
          if (line) this.params.onStderrLine(line);
        }
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        resolve();
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Close stdin (the polite stop), then SIGTERM, then SIGKILL, each to the whole group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const wait = (ms: number) => Promise.race([this.exited, new Promise<void>((r) => setTimeout(r, ms).unref())]);
    child.stdin?.end();
    await wait(STOP_WAIT_MS);
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      killGroup(child, signal);
      await wait(STOP_WAIT_MS);
    }
    // The leader may be gone while others in its group live on.
    killGroup(child, 'SIGKILL');
    this.buffer.clear();
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
