/**
 * Test harness: a real `switchboard serve` process on an ephemeral port with a temp config
 * directory, and real SDK clients to talk to it. Nothing here is mocked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export { freePort } from './free-port.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (dist/test/support -> ../../..). */
export const ROOT = resolve(here, '../../..');
export const CLI = join(ROOT, 'bin/switchboard.js');
/**
 * A reference MCP server of the MCP project (an npm package) as the suite starts it: the copy
 * `npm test`'s build bundled into one file (scripts/build-bundles.js --fixtures), the package's
 * own entry when there is none. The same code either way; the bundle starts for a fraction of
 * the CPU, and the suite starts these servers again and again.
 */
export function referenceServer(name: 'server-everything' | 'server-memory' | 'server-filesystem' | 'server-sequential-thinking'): string {
  const bundled = join(ROOT, 'dist/test/reference-servers', `${name}.js`);
  return existsSync(bundled) ? bundled : join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
}
export const EVERYTHING = referenceServer('server-everything');
export const MEMORY = referenceServer('server-memory');
/** Our own small SDK-built server (test/fixtures/test-server.ts). */
export const TEST_SERVER = join(ROOT, 'dist/test/fixtures/test-server.js');
/** A 2026-07-28 MCP server built on the v2 SDK (test/fixtures/modern-server.ts). */
export const MODERN_SERVER = join(ROOT, 'dist/test/fixtures/modern-server.js');

export type Files = Record<string, string>;

export async function makeConfigDir(files: Files): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-test-'));
  await mkdir(join(dir, 'mcpservers'), { recursive: true });
  await mkdir(join(dir, 'workflows'), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

/**
 * YAML for a stdio server definition running a node script. Without V8's memory reducer: it
 * runs full collections in a process that has gone quiet about eight seconds after its start
 * (80 ms of CPU in a fixture that then sits idle), and the suite's ~240 fixtures waiting on
 * their tests spent that for nothing. Node's own flags do not reach the script's argv.
 */
export function stdioServer(name: string, script: string, extra: string[] = [], more = ''): string {
  const command = ['node', '--no-memory-reducer', script, ...extra];
  return `name: ${name}\ntype: stdio\ncommand: [${command.map((s) => JSON.stringify(s)).join(', ')}]\nautoStart: true\n${more}`;
}

export interface Running {
  url: string;
  port: number;
  configDir: string;
  proc: ChildProcess;
  logs(): string;
  waitForLog(re: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<number | null>;
}

/**
 * How long a start may take before the test gives up: a bound for a start that hangs, not a
 * claim about speed. An empty configuration took 15 s to listen on a two-core machine at a
 * load of 18 (the suite's parallel workers and other work beside it); idle, under a second.
 */
const START_TIMEOUT_MS = 60_000;

export async function startSwitchboard(
  files: Files,
  options: {
    args?: string[];
    configDir?: string;
    env?: Record<string, string>;
    ready?: RegExp;
    /** Another installation's bin/switchboard.js. */ cli?: string;
    /** How long to wait for it to listen and be ready (default START_TIMEOUT_MS). */
    startTimeoutMs?: number;
  } = {},
): Promise<Running> {
  const configDir = options.configDir ?? (await makeConfigDir(files));
  const proc = spawn(process.execPath, [options.cli ?? CLI, 'serve', '--config-path', configDir, '--port', '0', ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: process.env.SWITCHBOARD_LOG_LEVEL ?? 'info', ...options.env },
  });
  let log = '';
  const waiters: { re: RegExp; resolve: (m: string) => void }[] = [];
  const onData = (chunk: Buffer): void => {
    log += chunk.toString();
    if (process.env.SWITCHBOARD_TEST_LOGS) process.stderr.write(chunk);
    for (const w of [...waiters]) {
      const m = w.re.exec(log);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[0]);
      }
    }
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const waitForLog = (re: RegExp, timeoutMs = 15_000): Promise<string> => {
    const m = re.exec(log);
    if (m) return Promise.resolve(m[0]);
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re} in log:\n${log}`)), timeoutMs);
      waiters.push({
        re,
        resolve: (s) => {
          clearTimeout(timer);
          resolvePromise(s);
        },
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`switchboard exited (${code}) before ${re} appeared:\n${log}`));
      });
    });
  };
  let line: string;
  try {
    line = await waitForLog(options.ready ?? /listening on http:\/\/[^\s]+:(\d+)\/mcp/, options.startTimeoutMs ?? START_TIMEOUT_MS);
    await waitForLog(/\bready: /, options.startTimeoutMs ?? START_TIMEOUT_MS);
  } catch (err) {
    // A start that failed leaves no process behind (nothing else holds it to stop).
    proc.kill('SIGKILL');
    throw err;
  }
  const port = Number(/:(\d+)\/mcp/.exec(line)![1]);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    configDir,
    proc,
    logs: () => log,
    waitForLog,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      const code = await exited;
      if (!options.configDir) await rm(configDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A node script (a fixture) as a child process, resolved once its output matches `ready`; without V8's memory reducer, as stdioServer says. */
export function startNode(args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--no-memory-reducer', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const on = (c: Buffer) => {
      out += c.toString();
      if (ready.test(out)) resolve(p);
    };
    p.stdout.on('data', on);
    p.stderr.on('data', on);
    p.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

/** Ends a process startNode started and waits for it to be gone (its CPU is then this file's, not the next one's). */
export function stopNode(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  p.kill('SIGTERM');
  return gone;
}

export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'switchboard-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A raw initialize POST (no client library), its answer unread: for tests of the HTTP exchange itself. */
export function postInitialize(url: string, protocolVersion = '2025-06-18', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
}

/** A client whose extra headers can change between requests on one session. */
export async function connectHttpWithHeaders(url: string): Promise<{ client: Client; setHeaders: (h: Record<string, string>) => void }> {
  let current: Record<string, string> = {};
  const fetchWithHeaders: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(current)) headers.set(k, v);
    return fetch(input, { ...init, headers });
  };
  const client = new Client({ name: 'switchboard-test-headers', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchWithHeaders }));
  return { client, setHeaders: (h) => (current = h) };
}

export async function connectSse(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'switchboard-test-sse', version: '1.0.0' });
  await client.connect(new SSEClientTransport(new URL('/sse', baseUrl)));
  return client;
}

/** Runs a meta-tool and returns its structured result (asserting it is not an error). */
export async function meta<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.structuredContent ?? r.content)}`);
  return r.structuredContent as T;
}

/** Runs a meta-tool and returns the raw CallToolResult (errors included). */
export async function metaRaw(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** call_tool shortcut: the aggregated tool's own result. */
export function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return metaRaw(client, 'call_tool', { name, arguments: args });
}

export function errorCode(r: CallToolResult): string | undefined {
  return (r.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
}

export function text(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export async function eventually<T>(fn: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 5000, stepMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    try {
      last = await fn();
      if (check(last)) return last;
    } catch (err) {
      lastErr = err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(
    `condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)}${lastErr ? `; last error: ${lastErr instanceof Error ? lastErr.message : JSON.stringify(lastErr)}` : ''}`,
  );
}

/** Runs `act`, then waits until what `sb` logged since just before it matches `re`; resolves that part of the log. */
export async function loggedAfter(sb: Running, re: RegExp, act: () => Promise<unknown>, timeoutMs = 30_000): Promise<string> {
  const from = sb.logs().length;
  await act();
  return eventually(
    async () => sb.logs().slice(from),
    (l) => re.test(l),
    timeoutMs,
  );
}

/** Waits until describe_tool knows each of `tools` (their servers connected), 20 s at most. */
export async function untilDescribed(client: Client, tools: readonly string[]): Promise<void> {
  for (const tool of tools)
    await eventually(
      () => client.callTool({ name: 'describe_tool', arguments: { name: tool } }) as Promise<CallToolResult>,
      (r) => !r.isError,
      20_000,
    );
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
