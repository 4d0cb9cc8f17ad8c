/**
 * `npm run bench`: every benchmark, figures printed as tables and written to
 * .bench-results/latest.json. Ratios are against the floor (a bare proxy hop).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCallTool, type CallToolFigures } from './call-tool.bench.js';
import { benchCallToolStdio } from './call-tool-stdio.bench.js';
import { benchCodeMode } from './code-mode.bench.js';
import { benchCallToolAuthz } from './call-tool-authz.bench.js';
import { benchCallToolCluster } from './call-tool-cluster.bench.js';
import { benchCallToolModern } from './call-tool-modern.bench.js';
import { benchClusterFaults, faultTable } from './cluster-faults.bench.js';
import { benchDiscovery } from './discovery.bench.js';
import { benchHybridQueries } from './discovery-hybrid.js';
import { benchSearch } from './search.bench.js';
import { benchSearchDevset, devsetTable } from './search-devset.js';
import { benchSearchHybrid, hybridTable } from './search-hybrid.js';
import { benchWorkflow } from './workflow.bench.js';
import { benchGotpl } from '../packages/gotpl/bench/gotpl.bench.js';
import { median } from './stats.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// `--rounds N`: more interleaved rounds where one machine's run-to-run noise hides a small effect.
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Math.max(5, Number(process.argv[roundsAt + 1]) || 5) : 5;
const only = process.argv.slice(2).filter((a, i, all) => a !== '--rounds' && all[i - 1] !== '--rounds');
const wanted = (name: string) => only.length === 0 || only.includes(name);
// Minutes long and breaking things on purpose: run only when named.
const named = (name: string) => only.includes(name);

type Row = Omit<CallToolFigures, 'target'> & { target: string };

function callToolTable(figures: Row[]): string {
  const lines = [
    '| target | clients | p50 ms | p99 ms | calls/s | server CPU ms/call | p50 vs floor | median of round ratios |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    const floor = figures.find((x) => x.target === 'floor' && x.concurrency === f.concurrency)!;
    const byRound = f.p50VsFloorByRound ? `${median(f.p50VsFloorByRound).toFixed(2)}x` : '';
    lines.push(
      `| ${f.target} | ${f.concurrency} | ${f.p50Ms} | ${f.p99Ms} | ${f.callsPerSecond} (${(f.callsPerSecond / floor.callsPerSecond).toFixed(2)}x) | ${f.serverCpuMsPerCall} | ${(f.p50Ms / floor.p50Ms).toFixed(2)}x | ${byRound} |`,
    );
  }
  return lines.join('\n');
}

const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };
if (wanted('call-tool')) {
  const figures = await benchCallTool({ rounds: 5, callsAtOne: 1500, callsAtMany: 4000, many: 32, root });
  results.callTool = figures;
  process.stdout.write(`\n## call_tool: Switchboard vs direct vs floor (median of 5 rounds)\n\n${callToolTable(figures)}\n`);
}
if (wanted('call-tool-stdio')) {
  const figures = await benchCallToolStdio({ rounds, calls: 1500, many: 16, root });
  results.callToolStdio = figures;
  process.stdout.write(
    `\n## call_tool over a stdio upstream: Switchboard vs the stdio floor (median of ${rounds} interleaved rounds)\n\n${callToolTable(figures)}\n`,
  );
}
if (wanted('call-tool-authz')) {
  const figures = await benchCallToolAuthz({ rounds, calls: 1500, many: 16, root, policies: 100 });
  results.callToolAuthz = figures;
  const rows = [1, 16].map((n) => {
    const at = (t: string) => figures.find((f) => f.target === t && f.concurrency === n)!;
    const ratio = at('cedar').p50Ms / at('off').p50Ms;
    // Each round's on/off ratio (both measured against the same round's floor): steadier when the machine drifts.
    const off = at('off').p50VsFloorByRound ?? [];
    const byRound = median((at('cedar').p50VsFloorByRound ?? []).map((r, i) => r / (off[i] ?? r)));
    return `| ${n} | ${at('off').p50Ms} | ${at('cedar').p50Ms} | ${ratio.toFixed(3)}x | ${byRound.toFixed(3)}x | ${at('off').serverCpuMsPerCall} | ${at('cedar').serverCpuMsPerCall} | ${n === 1 ? (byRound <= 1.03 ? 'met' : 'MISSED') : '-'} |`;
  });
  process.stdout.write(
    `\n## call_tool with authorization on (Cedar, 100 policies) vs off (median of ${rounds} interleaved rounds)\n\n${callToolTable(figures)}\n\n| clients | off p50 ms | on p50 ms | on vs off | median of round ratios | off CPU ms/call | on CPU ms/call | target (p50 <= 1.03x, by round) |\n|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
}
if (wanted('call-tool-modern')) {
  const figures = await benchCallToolModern({ rounds, calls: 1500, many: 16, root });
  results.callToolModern = figures;
  const rows = [1, 16].map((n) => {
    const at = (t: string) => figures.find((f) => f.target === t && f.concurrency === n)!;
    const byRound = (t: string) => median(at(t).p50VsFloorByRound ?? []);
    const legacy = at('legacy').p50VsFloorByRound ?? [];
    const modernVsLegacy = median((at('modern').p50VsFloorByRound ?? []).map((r, i) => r / (legacy[i] ?? r)));
    return `| ${n} | ${at('floor').p50Ms} | ${at('legacy').p50Ms} | ${at('modern').p50Ms} | ${byRound('legacy').toFixed(2)}x | ${byRound('modern').toFixed(2)}x ${byRound('modern') <= 1.05 ? 'met' : 'MISSED'} | ${modernVsLegacy.toFixed(3)}x | ${at('legacy').serverCpuMsPerCall} | ${at('modern').serverCpuMsPerCall} |`;
  });
  process.stdout.write(
    `\n## call_tool from a 2026-07-28 client (stateless) vs a 2025-11-25 one (session), one Switchboard (median of ${rounds} interleaved rounds)\n\n${callToolTable(figures)}\n\n| clients | floor p50 ms | legacy p50 ms | modern p50 ms | legacy vs floor, by round | modern vs floor, by round (target <= 1.05x) | modern vs legacy, by round | legacy CPU ms/call | modern CPU ms/call |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
  // Like with like: the v2 client through Switchboard to a v2 upstream against the same client through the bare proxy to it.
  const modernRows = [1, 16].map((n) => {
    const at = (t: string) => figures.find((f) => f.target === t && f.concurrency === n)!;
    const floorRounds = at('modern-floor').p50VsFloorByRound ?? [];
    const vsModernFloor = median((at('modern-to-modern').p50VsFloorByRound ?? []).map((r, i) => r / (floorRounds[i] ?? r)));
    return `| ${n} | ${at('modern-floor').p50Ms} | ${at('modern-to-modern').p50Ms} | ${vsModernFloor.toFixed(2)}x ${vsModernFloor <= 1.05 ? 'met' : 'MISSED'} | ${at('modern-floor').serverCpuMsPerCall} | ${at('modern-to-modern').serverCpuMsPerCall} |`;
  });
  process.stdout.write(
    `\n| clients | modern floor p50 ms (v2 client, bare proxy, v2 upstream) | modern to modern p50 ms (through Switchboard) | vs the modern floor, by round (<= 1.05x) | floor proxy CPU ms/call | Switchboard CPU ms/call |\n|---|---|---|---|---|---|\n${modernRows.join('\n')}\n`,
  );
}
if (wanted('call-tool-cluster')) {
  const c = await benchCallToolCluster({ rounds, calls: 1500, many: 16, root });
  results.callToolCluster = c;
  const rows = [1, 16].map((n) => {
    const at = (t: string) => c.figures.find((f) => f.target === t && f.concurrency === n)!;
    const single = at('single').p50VsFloorByRound ?? [];
    const byRound = median((at('cluster').p50VsFloorByRound ?? []).map((r, i) => r / (single[i] ?? r)));
    const rps = at('cluster').callsPerSecond / at('single').callsPerSecond;
    return `| ${n} | ${at('single').p50Ms} | ${at('cluster').p50Ms} | ${byRound.toFixed(3)}x ${n === 1 ? (byRound <= 1.1 ? 'met' : 'MISSED') : ''} | ${at('single').callsPerSecond} | ${at('cluster').callsPerSecond} | ${rps.toFixed(2)}x ${rps >= 0.9 ? 'met' : 'MISSED'} |`;
  });
  process.stdout.write(
    `\n## call_tool on a cluster replica (Redis) vs a single process (median of ${rounds} interleaved rounds)\n\n${callToolTable(c.figures)}\n\n| clients | single p50 ms | cluster p50 ms | cluster vs single p50, by round (target <= 1.10x at 1 client) | single calls/s | cluster calls/s | throughput (target >= 0.9x) |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}\n\nRedis commands per call on the cluster replica: ${c.redisCommandsPerCall.toFixed(4)} (${c.clusterCalls} calls, sessions opened included: ${JSON.stringify(c.redisCommands)})\n`,
  );
}
if (named('cluster-faults')) {
  const figures = await benchClusterFaults(root);
  results.clusterFaults = figures;
  process.stdout.write(
    `\n## cluster mode under its own faults: 3 replicas behind HAProxy, 16 clients calling call_tool, one client opening sessions\n\n${faultTable(figures)}\n`,
  );
}
if (wanted('discovery')) {
  const d = await benchDiscovery();
  // Hybrid ranking over the same catalogue and queries (its own file: an embedder's set-up).
  d.figures.splice(1, 0, ...(await benchHybridQueries()));
  results.discovery = d;
  const rows = d.figures.map(
    (f) => `| ${f.name} | ${f.p50Ms} | ${f.p99Ms} | ${f.targetMs ? `<= ${f.targetMs} ms ${f.p50Ms <= f.targetMs ? 'met' : 'MISSED'}` : '-'} |`,
  );
  process.stdout.write(
    `\n## discovery over ${d.tools} tools from 100 servers (server-side, median of 5 rounds)\n\n| operation | p50 ms | p99 ms | target (p50) |\n|---|---|---|---|\n${rows.join('\n')}\n\nranking index: ${d.indexMemoryMiB} MiB (heap and array buffers), built in ${d.indexBuildMs} ms (once per catalogue change)\n`,
  );
}
if (wanted('search')) {
  const s = await benchSearch(root);
  results.search = { queries: s.queries, tools: s.tools, recallAt5: s.recallAt5, mrr: s.mrr, outcomes: s.outcomes };
  const misses = s.misses.map((m) => `| ${m.query} | ${m.expected.join(', ')} | ${m.top.join(', ')} |`);
  process.stdout.write(
    `\n## filter_tools query: ${s.queries} natural queries over ${s.tools} real tools (bench/search-queries.json)\n\nrecall@5: ${s.recallAt5}, MRR: ${s.mrr}\n\n| query missing an expected tool in its top 5 | expected | top 5 |\n|---|---|---|\n${misses.join('\n')}\n`,
  );
}
// Forty-odd upstream processes and a few hundred queries: run only when named.
if (named('search-devset')) {
  const d = await benchSearchDevset(root);
  results.searchDevset = d;
  process.stdout.write(
    `\n## filter_tools query on the search development set: ${d.dev.queries + d.heldBack.queries} queries (${d.dev.queries} dev, ${d.heldBack.queries} held back) over ${d.tools} tools of ${d.servers} real MCP servers (bench/devset)\n\n${devsetTable(d)}\n`,
  );
}
if (wanted('code-mode')) {
  const c = await benchCodeMode(rounds);
  results.codeMode = c;
  const { task, innerCall, sandboxStart } = c;
  process.stdout.write(
    [
      `\n## code mode (median of ${rounds} interleaved rounds)\n`,
      '| 20 files: three largest with line counts | bytes returned to the client | wall ms |',
      '|---|---|---|',
      `| 20 call_tool round trips | ${task.roundTrips.bytes} | ${task.roundTrips.ms} |`,
      `| one run_code | ${task.runCode.bytes} | ${task.runCode.ms} |`,
      `| saved | ${(task.bytesSaved * 100).toFixed(1)} % (target >= 90 %: ${task.bytesSaved >= 0.9 ? 'met' : 'MISSED'}) | ${task.faster}x faster |`,
      '',
      '| per inner call (in-process, no-op tool) | µs |',
      '|---|---|',
      `| direct on the invoker | ${innerCall.directUs} |`,
      `| from a script | ${innerCall.inScriptUs} |`,
      `| overhead, mean per round | ${innerCall.overheadUs} |`,
      `| overhead per call, p50 (p90) | ${innerCall.p50Us} (${innerCall.p90Us}) (target p50 <= ${innerCall.targetUs}: ${innerCall.p50Us <= innerCall.targetUs ? 'met' : 'MISSED'}) |`,
      `| a fresh worker's first 20,000 calls, sandbox time per call (while V8 tiers QuickJS up) | ${innerCall.firstCallsCpuUs} |`,
      '',
      `Sandbox start per script: ${sandboxStart.runtimeMs} ms (runtime, context, prelude); an empty script end to end: ${sandboxStart.emptyScriptMs} ms.`,
      '',
    ].join('\n'),
  );
}
// `search-hybrid --vectors <file.vec>`: semantic ranking with those word vectors, in process;
// `search-hybrid --embeddings-url <baseUrl> --model <name>`: with an OpenAI-compatible endpoint's.
if (named('search-hybrid')) {
  const arg = (flag: string) => {
    const at = process.argv.indexOf(flag);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const file = arg('--vectors');
  const baseUrl = arg('--embeddings-url');
  const model = arg('--model');
  if (!file && !(baseUrl && model))
    throw new Error('search-hybrid needs --vectors <file.vec> (fastText .vec or GloVe text), or --embeddings-url <baseUrl> --model <name>');
  const apiKey = process.env.EMBEDDINGS_API_KEY;
  const h = await benchSearchHybrid(
    root,
    file ? { kind: 'vectors', file: resolve(file) } : { kind: 'openai', baseUrl: baseUrl!, model: model!, ...(apiKey ? { apiKey } : {}) },
  );
  results.searchHybrid = h;
  process.stdout.write(`\n## filter_tools query, lexical vs hybrid (bench/devset, in process)\n\n${hybridTable(h)}\n`);
}
if (wanted('workflow')) {
  const w = await benchWorkflow();
  results.workflow = w;
  const rows = w.map(
    (f) =>
      `| ${f.shape} | ${f.directUs} µs | ${f.workflowUs} µs | ${f.addedPerStepUs} µs | <= ${f.targetPerStepUs} µs ${f.addedPerStepUs <= f.targetPerStepUs ? 'met' : 'MISSED'} |`,
  );
  process.stdout.write(
    `\n## workflow engine overhead (in-process, median of 5 rounds)\n\n| workflow | the same calls made directly | the workflow | added per step | target |\n|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
}
if (wanted('gotpl')) {
  const g = await benchGotpl();
  results.gotpl = g;
  const rows = g.map((f) => `| ${f.name} | ${f.perRenderMicros} |`);
  process.stdout.write(
    `\n## gotpl render time after compile (median; target <= 10 µs for a step argument)\n\n| case | µs per call |\n|---|---|\n${rows.join('\n')}\n`,
  );
}
// Memory from outside a Switchboard of their own (scripts that print their tables): only when named.
for (const script of ['footprint', 'sessions']) {
  if (named(script)) spawnSync(process.execPath, [join(root, `dist/bench/${script}.js`)], { stdio: 'inherit' });
}
const out = join(root, '.bench-results', 'latest.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(results, null, 2));
process.stdout.write(`\nwritten to ${out}\n`);
