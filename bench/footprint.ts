/**
 * Footprint and start-up: a real Switchboard with S stdio upstreams of T tools each (10 x
 * 1,000 by default). Reports the time from spawn to "ready" (every server connected and
 * catalogued) and the process's RSS and heap once settled, as medians of several starts.
 * `node dist/bench/footprint.js [--servers 10] [--tools 1000] [--rounds 3] [--stub]`. Switchboard runs
 * as `node bin/switchboard.js`, no flags (its heap settings must hold however it is launched);
 * FOOTPRINT_NODE_OPTIONS sets NODE_OPTIONS. RSS is read from outside (/proc VmRSS) after
 * discovery ran (a query, which builds the ranking index, and a pattern, the name index).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectHttp, ROOT, startSwitchboard } from '../test/support/harness.js';
import { median } from './stats.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const servers = arg('servers', 10);
const tools = arg('tools', 1000);
const rounds = arg('rounds', 3);
const SERVER = join(ROOT, 'dist/bench/many-tools-server.js');
/** --stub: python3 stubs (bench/stub-server.py) instead of Node servers, so start-up measures Switchboard, not 50 Node boots. */
const STUB = process.argv.includes('--stub') ? join(ROOT, 'bench/stub-server.py') : undefined;

export interface Footprint {
  startMs: number;
  rssMiB: number;
  heapMiB: number;
  tools: number;
}

async function once(): Promise<Footprint> {
  const files: Record<string, string> = {};
  for (let s = 0; s < servers; s++) {
    // /usr/bin/python3, not a version-manager shim on PATH (a shell script that costs more than the stub).
    const command = STUB ? `[/usr/bin/python3, "${STUB}", "${tools}"]` : `[node, "${SERVER}", "${tools}", --name, m${s}]`;
    files[`mcpservers/m${s}.yaml`] = `name: m${s}\ntype: stdio\ncommand: ${command}\nautoStart: true\n`;
  }
  const t0 = performance.now();
  const sb = await startSwitchboard(files, { env: { NODE_OPTIONS: process.env.FOOTPRINT_NODE_OPTIONS ?? '' }, startTimeoutMs: 120_000 });
  const startMs = performance.now() - t0;
  const client = await connectHttp(sb.url);
  // Settle: the first discovery builds the ranking index, as real use would.
  await client.callTool({ name: 'filter_tools', arguments: { query: 'list instances' } });
  await client.callTool({ name: 'filter_tools', arguments: { pattern: 'x_m1_*list*' } });
  // Settled: idle compaction (app/cli/idle-compaction.ts) samples every 2 s and collects after
  // a whole idle interval, so 8 s leave it two chances on a loaded machine.
  await new Promise((r) => setTimeout(r, 8000));
  const r = await client.callTool({ name: 'call_tool', arguments: { name: 'core_service_status', arguments: { name: 'aggregator' } } });
  const m = (
    r.structuredContent as { metadata: { memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; externalBytes: number }; tools: number } }
  ).metadata;
  if (process.env.FOOTPRINT_DEBUG) process.stderr.write(`${JSON.stringify(m.memory)}\n`);
  const vmRss = /^VmRSS:\s+(\d+) kB$/m.exec(await readFile(`/proc/${sb.proc.pid}/status`, 'utf8'))?.[1];
  await client.close();
  await sb.stop();
  return { startMs, rssMiB: Number(vmRss) / 1024, heapMiB: m.memory.heapUsedBytes / 1048576, tools: m.tools };
}

const all: Footprint[] = [];
for (let i = 0; i < rounds; i++) all.push(await once());
const f = (n: number) => n.toFixed(1);
process.stdout.write(
  [
    `## footprint: ${servers} stdio servers x ${tools} tools (median of ${rounds} starts)`,
    '',
    '| catalogue tools | start to ready ms | RSS MiB (VmRSS, after discovery) | heap MiB |',
    '|---|---|---|---|',
    `| ${all[0]!.tools} | ${f(median(all.map((x) => x.startMs)))} | ${f(median(all.map((x) => x.rssMiB)))} | ${f(median(all.map((x) => x.heapMiB)))} |`,
    '',
    `The Go original at 10 x 1,000 tools: 122 MiB RSS. Target: <= 100 MiB.`,
    '',
  ].join('\n'),
);
