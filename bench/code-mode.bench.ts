/**
 * Code mode's figures (issue 38):
 * 1. A 20-call task through the real protocol (SDK client, Switchboard, server-filesystem):
 *    read 20 files and name the three largest with their line counts, done as 20 call_tool
 *    round trips (every file's text comes back to the client: the model's context) vs one
 *    run_code (only the answer comes back). Bytes returned to the client and wall time,
 *    rounds interleaved, medians.
 * 2. The bridge's cost per inner call, in-process: a script making N sequential calls of a
 *    no-op tool through the kernel's invoker vs the same N calls made directly on the invoker.
 * 3. Sandbox start per script: a new QuickJS runtime, context and the prelude (as the worker
 *    reports it), and a whole empty script as the event loop sees it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Cancellation } from '../kernel/cancellation.js';
import { Catalogue } from '../kernel/catalogue.js';
import { createHooks } from '../kernel/hooks.js';
import { ToolInvoker } from '../kernel/invoke.js';
import { createLogger } from '../kernel/log.js';
import type { RequestContext } from '../kernel/request-context.js';
import type { Session } from '../kernel/sessions.js';
import type { CallContext } from '../kernel/tools.js';
import type { Budgets } from '../plugins/code-mode/messages.js';
import { WorkerPool } from '../plugins/code-mode/worker-pool.js';
import { connectHttp, startSwitchboard, stdioServer } from '../test/support/harness.js';
import { FILESYSTEM } from '../test/support/search-servers.js';
import { median, percentile, round } from './stats.js';

const FILES = 20;
const INNER_CALLS = 1000;
/** Calls a fresh worker makes before the measured rounds: V8 had tiered QuickJS's WebAssembly up by about 12,000 (measured on Node 20). */
const WARM_CALLS = 20_000;

export interface CodeModeFigures {
  task: { roundTrips: { bytes: number; ms: number }; runCode: { bytes: number; ms: number }; bytesSaved: number; faster: number; answer: unknown };
  innerCall: { directUs: number; inScriptUs: number; overheadUs: number; p50Us: number; p90Us: number; targetUs: number; firstCallsCpuUs: number };
  sandboxStart: { runtimeMs: number; emptyScriptMs: number };
}

const BUDGETS: Budgets = {
  wallMs: 60_000,
  cpuMs: 60_000,
  memoryBytes: 32 << 20,
  stackBytes: 512 << 10,
  maxCalls: 10_000,
  maxConcurrentCalls: 8,
  maxResultBytes: 1 << 20,
  maxLogBytes: 1 << 14,
};

function bytesOf(r: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(r));
}

async function task(rounds: number): Promise<CodeModeFigures['task']> {
  const dir = await mkdtemp(join(tmpdir(), 'code-mode-bench-'));
  const paths: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const path = join(dir, `file-${i}.txt`);
    // Files of 20 to 400 lines of prose: what an agent reads to pick a few.
    const lines = 20 + ((i * 37) % 380);
    await writeFile(path, Array.from({ length: lines }, (_, n) => `line ${n} of file ${i}: the quick brown fox jumps over the lazy dog`).join('\n'));
    paths.push(path);
  }
  const sb = await startSwitchboard(
    {
      'config.yaml': 'plugins:\n  code-mode: true\n',
      'mcpservers/filesystem.yaml': stdioServer('filesystem', FILESYSTEM, [dir]),
    },
    { startTimeoutMs: 60_000 },
  );
  const client = await connectHttp(sb.url);
  const script = `
    const paths = ${JSON.stringify(paths)};
    const texts = await Promise.all(paths.map((path) => tools.x_filesystem_read_text_file({ path })));
    const sized = texts.map((t, i) => { const text = typeof t === 'string' ? t : t.content; return { path: paths[i], bytes: text.length, lines: text.split('\\n').length }; });
    return sized.sort((a, b) => b.bytes - a.bytes).slice(0, 3);
  `;
  const viaRoundTrips = async () => {
    let bytes = 0;
    const sized: { path: string; bytes: number; lines: number }[] = [];
    for (const path of paths) {
      const r = (await client.callTool({ name: 'call_tool', arguments: { name: 'x_filesystem_read_text_file', arguments: { path } } })) as CallToolResult;
      bytes += bytesOf(r);
      const text = (r.structuredContent as { content: string } | undefined)?.content ?? (r.content[0] as { text: string }).text;
      sized.push({ path, bytes: text.length, lines: text.split('\n').length });
    }
    return bytes;
  };
  const viaRunCode = async () => {
    const r = (await client.callTool({ name: 'run_code', arguments: { code: script } })) as CallToolResult;
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return { bytes: bytesOf(r), answer: (r.structuredContent as { result: unknown }).result };
  };
  try {
    await viaRoundTrips();
    await viaRunCode();
    const a: { bytes: number; ms: number }[] = [];
    const b: { bytes: number; ms: number }[] = [];
    let answer: unknown;
    for (let i = 0; i < rounds; i++) {
      let t0 = performance.now();
      const bytes = await viaRoundTrips();
      a.push({ bytes, ms: performance.now() - t0 });
      t0 = performance.now();
      const ran = await viaRunCode();
      b.push({ bytes: ran.bytes, ms: performance.now() - t0 });
      answer = ran.answer;
    }
    const roundTrips = { bytes: median(a.map((x) => x.bytes)), ms: round(median(a.map((x) => x.ms)), 1) };
    const runCode = { bytes: median(b.map((x) => x.bytes)), ms: round(median(b.map((x) => x.ms)), 1) };
    return { roundTrips, runCode, bytesSaved: round(1 - runCode.bytes / roundTrips.bytes, 4), faster: round(roundTrips.ms / runCode.ms, 2), answer };
  } finally {
    await client.close();
    await sb.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function inProcess(rounds: number): Promise<Pick<CodeModeFigures, 'innerCall' | 'sandboxStart'>> {
  const log = createLogger({ level: 'error' });
  const hooks = createHooks();
  const catalogue = new Catalogue(hooks, log);
  catalogue.replaceSource('bench', [
    {
      name: 'core_noop',
      kind: 'core',
      description: 'Return its input.',
      inputSchema: { type: 'object', properties: { i: { type: 'number' } } },
      invoke: async (args) => ({ content: [{ type: 'text', text: String(args.i) }] }),
    },
  ]);
  const tools = new ToolInvoker(catalogue, hooks, log);
  const request: RequestContext = { session: {} as Session, headers: {}, slots: new Map() };
  const call: CallContext = { request, cancellation: new Cancellation(), depth: 0 };
  const pool = new WorkerPool(1, log);
  await pool.warm();
  // When each call reached the host, in the measured scripts: consecutive ones are one inner call's whole cycle apart.
  let arrivals: number[] | undefined;
  const cycles: number[] = [];
  const ask = async (_op: string, name: string, args: string) => {
    arrivals?.push(performance.now());
    const r = await tools.call(name, JSON.parse(args) as Record<string, unknown>, call);
    return JSON.stringify({ ok: true, value: (r.content[0] as { text: string }).text });
  };
  const script = `for (let i = 0; i < ${INNER_CALLS}; i++) await tools.core_noop({ i }); return 1;`;
  // V8 tiers QuickJS's WebAssembly up as it runs: a fresh worker's first thousands of calls
  // cost several times the steady state (docs/code-mode.md says both), so the worker runs them first.
  const warm = await (await pool.run(script.replace(String(INNER_CALLS), String(WARM_CALLS)), ['core_noop'], BUDGETS, ask)).end;
  const coldUs = (warm.cpuMs / WARM_CALLS) * 1000;
  const direct: number[] = [];
  const inScript: number[] = [];
  const starts: number[] = [];
  const empties: number[] = [];
  try {
    for (let r = 0; r < rounds + 1; r++) {
      let t0 = performance.now();
      for (let i = 0; i < INNER_CALLS; i++) await tools.call('core_noop', { i }, call);
      const d = (performance.now() - t0) / INNER_CALLS;
      t0 = performance.now();
      arrivals = [];
      const { end } = await pool.run(script, ['core_noop'], BUDGETS, ask);
      const result = await end;
      if (r > 0) for (let i = 1; i < arrivals.length; i++) cycles.push(arrivals[i]! - arrivals[i - 1]!);
      arrivals = undefined;
      if (!result.outcome.ok) throw new Error(JSON.stringify(result.outcome));
      const s = (performance.now() - t0) / INNER_CALLS;
      t0 = performance.now();
      const empty = await (await pool.run('return 1', ['core_noop'], BUDGETS, ask)).end;
      const e = performance.now() - t0;
      // The first round warms the paths up.
      if (r === 0) continue;
      direct.push(d);
      inScript.push(s);
      starts.push(empty.startMs);
      empties.push(e);
    }
  } finally {
    await pool.close();
  }
  const directUs = median(direct) * 1000;
  const inScriptUs = median(inScript) * 1000;
  cycles.sort((x, y) => x - y);
  return {
    innerCall: {
      directUs: round(directUs, 1),
      inScriptUs: round(inScriptUs, 1),
      overheadUs: round(inScriptUs - directUs, 1),
      // Per call, not per round: a preempted call (a loaded machine) moves the mean, not the median.
      p50Us: round(percentile(cycles, 50) * 1000 - directUs, 1),
      p90Us: round(percentile(cycles, 90) * 1000 - directUs, 1),
      targetUs: 200,
      firstCallsCpuUs: round(coldUs, 1),
    },
    sandboxStart: {
      runtimeMs: round(
        percentile(
          [...starts].sort((x, y) => x - y),
          50,
        ),
        3,
      ),
      emptyScriptMs: round(median(empties), 3),
    },
  };
}

export async function benchCodeMode(rounds = 5): Promise<CodeModeFigures> {
  const local = await inProcess(rounds);
  return { task: await task(rounds), ...local };
}
