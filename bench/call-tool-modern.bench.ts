/**
 * call_tool from a 2026-07-28 client (the v2 SDK client pinned to 2026-07-28: every request
 * stateless, its version and capabilities in `_meta`, no session) against the same call from
 * a 2025-11-25 client on a session (the v1 SDK client), both on one Switchboard, interleaved
 * round by round with the floor (the v1 client through a bare pass-through proxy to the
 * upstream) and the direct call (the v1 client straight to the upstream). Issue 40's target:
 * the modern p50 within 1.05x the floor at 1 and 16 clients (a stateless request must not
 * cost more than a session's), the legacy figures no worse than `call-tool`'s.
 *
 * The v1 floor prices the v2 client's own work (its 2026-07-28 envelope and result schemas)
 * into the modern figure, so two more targets compare like with like: the modern floor (the
 * v2 client through a second bare proxy to a v2 upstream, bench/modern-upstream-server.ts)
 * and modern-to-modern (the v2 client through Switchboard to that upstream, which Switchboard
 * reaches over 2026-07-28 too).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, interleavedWith, startCallToolTargets, type CallToolFigures } from './call-tool.bench.js';
import { startChild, type Child } from './processes.js';

type Target = 'direct' | 'floor' | 'legacy' | 'modern' | 'modern-floor' | 'modern-to-modern';

interface Options {
  rounds: number;
  calls: number;
  many: number;
  root: string;
}

/** The one interface the callers need from either SDK's client. */
interface Caller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function openModern(port: number): Promise<Caller> {
  const client = new ModernClient({ name: 'bench-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return client;
}

/** Calls until the path echoes (or 10 s pass, then throws what it last answered). */
async function echoes(target: Target, open: () => Promise<Caller>, call: (c: Caller, i: number) => Promise<unknown>): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const c = await open();
    const r = JSON.stringify(await call(c, 424242).catch((err: unknown) => String(err)));
    await c.close();
    if (r.includes('m424242')) return;
    if (Date.now() > until) throw new Error(`the ${target} path did not echo: ${r.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function benchCallToolModern(options: Options): Promise<(Omit<CallToolFigures, 'target'> & { target: Target })[]> {
  const children: Child[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-modern-'));
  try {
    const modernUpstream = await startChild([join(options.root, 'dist/bench/modern-upstream-server.js'), '0'], /listening (\d+)/);
    children.push(modernUpstream);
    const modernFloor = await startChild([join(options.root, 'dist/bench/floor-proxy.js'), String(modernUpstream.port)], /listening (\d+)/);
    children.push(modernFloor);
    await mkdir(join(dir, 'mcpservers'), { recursive: true });
    await writeFile(join(dir, 'mcpservers/mup.yaml'), `name: mup\ntype: streamable-http\nurl: http://127.0.0.1:${modernUpstream.port}/mcp\n`);
    const { upstream, floor, switchboard } = await startCallToolTargets(options.root, dir, children, 'info');

    // Legacy and modern clients on the same Switchboard: the same process, catalogue and upstream connections.
    const ports: Record<Target, number> = {
      direct: upstream.port,
      floor: floor.port,
      legacy: switchboard.port,
      modern: switchboard.port,
      'modern-floor': modernFloor.port,
      'modern-to-modern': switchboard.port,
    };
    const cpus: Record<Target, () => number> = {
      direct: upstream.cpuMs,
      floor: floor.cpuMs,
      legacy: switchboard.cpuMs,
      modern: switchboard.cpuMs,
      'modern-floor': modernFloor.cpuMs,
      'modern-to-modern': switchboard.cpuMs,
    };
    const open = (target: Target, port: number): Promise<Caller> =>
      target.startsWith('modern') ? openModern(port) : connect(port).then((c: Client): Caller => c);
    const echo = (name: string) => (c: Caller, i: number) => c.callTool({ name, arguments: { message: `m${i}` } });
    const through = (name: string) => (c: Caller, i: number) => c.callTool({ name: 'call_tool', arguments: { name, arguments: { message: `m${i}` } } });
    const calls: Record<Target, (c: Caller, i: number) => Promise<unknown>> = {
      direct: echo('echo'),
      floor: echo('echo'),
      legacy: through('x_up_echo'),
      modern: through('x_up_echo'),
      'modern-floor': echo('echo'),
      'modern-to-modern': through('x_mup_echo'),
    };
    const call = (target: Target) => calls[target];

    // A figure of errors answered fast would flatter: each path must echo before it is timed
    // (Switchboard's upstream connections may still be opening: each path gets 10 s).
    for (const target of Object.keys(ports) as Target[]) await echoes(target, () => open(target, ports[target]), call(target));
    const figures = [];
    for (const concurrency of [1, options.many]) figures.push(...(await interleavedWith(ports, cpus, call, concurrency, options.calls, options.rounds, open)));
    return figures;
  } finally {
    for (const c of children.reverse()) await c.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
