/**
 * An MCP client transport over a child's stdin/stdout. Unlike the SDK's, the child leads
 * its own process group, so stopping it also stops whatever it spawned (`npx` wrappers,
 * shells): no orphan survives a stop. stderr is handed back line by line for the log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { serializeMessage } from '#mcp-sdk/shared/stdio.js';
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { JSONRPCMessage } from '#mcp-sdk/types.js';
import { deliver } from './deliver.js';
import { LineReader } from './line-reader.js';

/**
 * A line as a JSON-RPC message, or why it is not one. Only the envelope is checked: the
 * SDK's Protocol classifies the message itself, so a second full schema parse here (the
 * SDK's ReadBuffer does one) is per-message cost for nothing.
 */
function parseMessage(line: string): JSONRPCMessage | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return (err as Error).message.slice(0, 120);
  }
  if (typeof value !== 'object' || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') return 'not a JSON-RPC 2.0 object';
  return value as JSONRPCMessage;
}

export interface ChildProcessParams {
  /** The executable's path. */
  command: string;
  /** argv[0] as the program sees it: the name the definition wrote. */
  argv0?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** A message longer than this (no line break within it) ends the connection. */
  maxMessageBytes: number;
  onStderrLine: (line: string) => void;
}

const STOP_WAIT_MS = 1500;
/** How much of a process's stderr its exit message quotes: enough for a stack trace's head. */
const LAST_WORDS_LINES = 5;
const LAST_WORDS_CHARS = 300;

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** See client-relay.ts: an answer taken as it is read. */
  onanswer?: (message: JSONRPCMessage) => boolean;
  private child: ChildProcess | undefined;
  private readonly lines: LineReader;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  /** The last lines the process wrote on stderr: why it exited, when it exits on its own. */
  private readonly lastWords: string[] = [];

  constructor(private readonly params: ChildProcessParams) {
    this.lines = new LineReader(params.maxMessageBytes);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the process; once running, a second start (the session opened after era-probe.ts asked) is nothing. */
  start(): Promise<void> {
    if (this.child) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        ...(this.params.argv0 !== undefined ? { argv0: this.params.argv0 } : {}),
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
      child.once('close', (code, signal) => {
        this.child = undefined;
        // An exit nobody asked for is the failure to report, with what the process said last;
        // otherwise the SDK's "Connection closed" is all anyone reads.
        if (!this.stopping) this.onerror?.(new Error(exitMessage(code, signal, this.lastWords)));
        this.onclose?.();
      });
      child.stdin.on('error', (err) => {
        // EPIPE: the process is gone (or closed its stdin); its exit, reported on close with
        // the code and its last words, says why. Reported first, EPIPE would hide that.
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
        this.onerror?.(err);
      });
      child.stdout.on('data', (chunk: Buffer) => {
        let lines: string[];
        try {
          lines = this.lines.push(chunk);
        } catch (err) {
          this.onerror?.(err as Error);
          void this.close();
          return;
        }
        for (const line of lines) {
          const message = parseMessage(line);
          // A line that is not JSON-RPC (a banner, a stray print) is skipped; the stream goes on.
          if (typeof message === 'string') this.onerror?.(new Error(`skipped a line on stdout that is not a JSON-RPC message (${message})`));
          else deliver(this.onmessage, message, this.onanswer);
        }
      });
      let pending = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => {
        pending += text;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl).trimEnd();
          pending = pending.slice(nl + 1);
          if (!line) continue;
          this.lastWords.push(line.length > LAST_WORDS_CHARS ? `${line.slice(0, LAST_WORDS_CHARS)}…` : line);
          if (this.lastWords.length > LAST_WORDS_LINES) this.lastWords.shift();
          this.params.onStderrLine(line);
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
    this.stopping = true;
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
    this.lines.clear();
  }
}

function exitMessage(code: number | null, signal: NodeJS.Signals | null, lastWords: readonly string[]): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? 'unknown'}`;
  return lastWords.length ? `the process ${how}; its last words on stderr: ${lastWords.join(' | ')}` : `the process ${how}`;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
