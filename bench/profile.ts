/**
 * `node dist/bench/profile.js [calls] [--stdio | --modern-upstream] [--modern-client]`: drives
 * call_tool through a Switchboard started with --cpu-prof and prints the functions with the
 * most self time. For finding hot-path cost. The upstream is the benchmark's HTTP server,
 * server-everything over stdio with --stdio, or the 2026-07-28 one (modern-upstream-server.ts)
 * with --modern-upstream; the client is the v1 SDK's on a 2025-11-25 session, or with
 * --modern-client the v2 SDK's pinned to 2026-07-28 (every request stateless).
 */
import { mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startChild } from './processes.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const calls = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5000);
const dir = await mkdtemp(join(tmpdir(), 'switchboard-prof-'));
const profDir = join(dir, 'prof');
await mkdir(join(dir, 'mcpservers'), { recursive: true });
const stdio = process.argv.includes('--stdio');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const server = process.argv.includes('--modern-upstream') ? 'modern-upstream-server.js' : 'upstream-server.js';
const upstream = stdio ? undefined : await startChild([join(root, 'dist/bench', server), '0'], /listening (\d+)/);
await writeFile(
  join(dir, 'mcpservers/up.yaml'),
  upstream
    ? `name: up\ntype: streamable-http\nurl: http://127.0.0.1:${upstream.port}/mcp\n`
    : `name: up\ntype: stdio\ncommand: [${JSON.stringify(process.execPath)}, ${JSON.stringify(everything)}, stdio]\nautoStart: true\n`,
);
const sb = await startChild(
  [
    '--cpu-prof',
    '--cpu-prof-interval=100',
    `--cpu-prof-dir=${profDir}`,
    '--max-semi-space-size=4',
    join(root, 'bin/switchboard.js'),
    'serve',
    '--config-path',
    dir,
    '--port',
    '0',
  ],
  /listening on http:\/\/[^\s]+:(\d+)\/mcp/,
);
await new Promise((r) => setTimeout(r, stdio ? 1500 : 300));
const endpoint = new URL(`http://127.0.0.1:${sb.port}/mcp`);
const client = process.argv.includes('--modern-client')
  ? new ModernClient({ name: 'prof', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
  : new Client({ name: 'prof', version: '1' });
await (client instanceof ModernClient ? client.connect(new ModernTransport(endpoint)) : client.connect(new StreamableHTTPClientTransport(endpoint)));
for (let i = 0; i < calls; i++) await client.callTool({ name: 'call_tool', arguments: { name: 'x_up_echo', arguments: { message: `m${i}` } } });
await client.close();
await sb.stop();
await upstream?.stop();
const file = (await readdir(profDir)).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(await readFile(join(profDir, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const total = profile.samples.length;
const byFn = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const n of profile.nodes) {
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(root, '');
  const key = `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber}`;
  byFn.set(key, (byFn.get(key) ?? 0) + n.hitCount);
  const pkg =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
    (url.startsWith('/dist') ? url.split('/').slice(0, 4).join('/') : url.startsWith('node:') ? 'node-internal' : url || n.callFrame.functionName);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + n.hitCount);
}
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${((v * 100) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
process.stdout.write(`profile: ${join(profDir, file)} (${total} samples)\n\nby package:\n${top(byPackage, 15)}\n\nby function (self):\n${top(byFn, 30)}\n`);
