/**
 * call_tool from a 2026-07-28 client (the v2 SDK client pinned to 2026-07-28: every request
 * stateless, its version and capabilities in `_meta`, no session) against the same call from
 * a 2025-11-25 client on a session (the v1 SDK client), both on one Switchboard, interleaved
 * round by round with the floor (the v1 client through a bare pass-through proxy to the
 * upstream) and the direct call (the v1 client straight to the upstream). Issue 40's target:
 * the modern p50 within 1.05x the floor at 1 and 16 clients (a stateless request must not
 * cost more than a session's), the legacy figures no worse than `call-tool`'s.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, interleavedWith, startCallToolTargets, type CallToolFigures } from './call-tool.bench.js';
import type { Child } from './processes.js';

type Target = 'direct' | 'floor' | 'legacy' | 'modern';

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

export async function benchCallToolModern(options: Options): Promise<(Omit<CallToolFigures, 'target'> & { target: Target })[]> {
  const children: Child[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-modern-'));
  try {
    const { upstream, floor, switchboard } = await startCallToolTargets(options.root, dir, children, 'info');

    // A figure of errors answered fast would flatter: each path must echo before it is timed.
    for (const [target, port] of [
      ['legacy', switchboard.port],
      ['modern', switchboard.port],
    ] as const) {
      const c = target === 'modern' ? await openModern(port) : await connect(port);
      const r = JSON.stringify(await c.callTool({ name: 'call_tool', arguments: { name: 'x_up_echo', arguments: { message: 'checked' } } }));
      await c.close();
      if (!r.includes('checked')) throw new Error(`the ${target} client's call_tool did not echo: ${r.slice(0, 300)}`);
    }
    // Legacy and modern clients on the same Switchboard: the same process, catalogue and upstream connection.
    const ports: Record<Target, number> = { direct: upstream.port, floor: floor.port, legacy: switchboard.port, modern: switchboard.port };
    const cpus: Record<Target, () => number> = { direct: upstream.cpuMs, floor: floor.cpuMs, legacy: switchboard.cpuMs, modern: switchboard.cpuMs };
    const open = (target: Target, port: number): Promise<Caller> => (target === 'modern' ? openModern(port) : connect(port).then((c: Client): Caller => c));
    const call = (target: Target) =>
      target === 'direct' || target === 'floor'
        ? (c: Caller, i: number) => c.callTool({ name: 'echo', arguments: { message: `m${i}` } })
        : (c: Caller, i: number) => c.callTool({ name: 'call_tool', arguments: { name: 'x_up_echo', arguments: { message: `m${i}` } } });
    const figures = [];
    for (const concurrency of [1, options.many]) figures.push(...(await interleavedWith(ports, cpus, call, concurrency, options.calls, options.rounds, open)));
    return figures;
  } finally {
    for (const c of children.reverse()) await c.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
