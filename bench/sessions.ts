/**
 * Sessions give their memory back: after a warm-up, 1,000 sessions are opened (each makes
 * one discovery call) and closed; memory is sampled before and after, with the process's
 * own figures (core_service_status aggregator). `node dist/bench/sessions.js [--sessions N]`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectHttp, startSwitchboard, stdioServer, TEST_SERVER } from '../test/support/harness.js';
import { median } from './stats.js';

const i = process.argv.indexOf('--sessions');
const count = i >= 0 ? Number(process.argv[i + 1]) : 1000;

const sb = await startSwitchboard({ 'mcpservers/t.yaml': stdioServer('t', TEST_SERVER) });
const admin = await connectHttp(sb.url);

interface Memory {
  rssMiB: number;
  heapMiB: number;
  sessions: number;
}

async function sample(): Promise<Memory> {
  const rows: Memory[] = [];
  for (let k = 0; k < 5; k++) {
    await new Promise((r) => setTimeout(r, 400));
    const r = await admin.callTool({ name: 'call_tool', arguments: { name: 'core_service_status', arguments: { name: 'aggregator' } } });
    const m = (r.structuredContent as { metadata: { memory: { rssBytes: number; heapUsedBytes: number }; sessions: number } }).metadata;
    rows.push({ rssMiB: m.memory.rssBytes / 1048576, heapMiB: m.memory.heapUsedBytes / 1048576, sessions: m.sessions });
  }
  return { rssMiB: median(rows.map((r) => r.rssMiB)), heapMiB: median(rows.map((r) => r.heapMiB)), sessions: rows.at(-1)!.sessions };
}

async function churn(n: number): Promise<void> {
  for (let done = 0; done < n; done += 50) {
    const batch: Client[] = await Promise.all(Array.from({ length: Math.min(50, n - done) }, () => connectHttp(sb.url)));
    await Promise.all(batch.map((c) => c.callTool({ name: 'list_tools', arguments: { limit: 5 } })));
    await Promise.all(
      batch.map(async (c) => {
        await (c.transport as StreamableHTTPClientTransport).terminateSession();
        await c.close();
      }),
    );
  }
}

await churn(200);
const before = await sample();
await churn(count);
const after = await sample();
await admin.close();
await sb.stop();

const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
const f = (n: number) => n.toFixed(1);
process.stdout.write(
  [
    `## sessions: ${count} opened and closed after a warm-up of 200`,
    '',
    '| | sessions open | RSS MiB | heap MiB |',
    '|---|---|---|---|',
    `| before | ${before.sessions} | ${f(before.rssMiB)} | ${f(before.heapMiB)} |`,
    `| after | ${after.sessions} | ${f(after.rssMiB)} | ${f(after.heapMiB)} |`,
    `| change | | ${pct(before.rssMiB, after.rssMiB)} | ${pct(before.heapMiB, after.heapMiB)} |`,
    '',
  ].join('\n'),
);
