/**
 * call_tool over a stdio upstream (server-everything's echo) through Switchboard, against
 * the stdio floor: raw node:http in, the same kind of child out, JSON lines passed through
 * (bench/stdio-floor.ts). p50/p99, throughput and CPU per call of the middle process at 1
 * and 16 clients; rounds interleaved, medians.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { interleaved, type CallToolFigures } from './call-tool.bench.js';
import { startChild, type Child } from './processes.js';

type Target = 'floor' | 'switchboard';

interface Options {
  rounds: number;
  calls: number;
  many: number;
  root: string;
}

export async function benchCallToolStdio(options: Options): Promise<(Omit<CallToolFigures, 'target'> & { target: Target })[]> {
  const everything = join(options.root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const children: Child[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  try {
    const floor = await startChild([join(options.root, 'dist/bench/stdio-floor.js'), '--', process.execPath, everything, 'stdio'], /listening (\d+)/);
    children.push(floor);
    await mkdir(join(dir, 'mcpservers'), { recursive: true });
    await writeFile(
      join(dir, 'mcpservers/up.yaml'),
      `name: up\ntype: stdio\ncommand: [${JSON.stringify(process.execPath)}, ${JSON.stringify(everything)}, stdio]\nautoStart: true\n`,
    );
    const switchboard = await startChild(
      ['--max-semi-space-size=4', join(options.root, 'bin/switchboard.js'), 'serve', '--config-path', dir, '--port', '0', '--host', '127.0.0.1'],
      /listening on http:\/\/[^\s]+:(\d+)\/mcp/,
    );
    children.push(switchboard);
    await new Promise((r) => setTimeout(r, 1500)); // the stdio child starts after "listening"

    const ports: Record<Target, number> = { floor: floor.port, switchboard: switchboard.port };
    const cpus: Record<Target, () => number> = { floor: floor.cpuMs, switchboard: switchboard.cpuMs };
    const call: Record<Target, (c: Client, i: number) => Promise<unknown>> = {
      floor: (c, i) => c.callTool({ name: 'echo', arguments: { message: `m${i}` } }),
      switchboard: (c, i) => c.callTool({ name: 'call_tool', arguments: { name: 'x_up_echo', arguments: { message: `m${i}` } } }),
    };
    const figures: (Omit<CallToolFigures, 'target'> & { target: Target })[] = [];
    for (const concurrency of [1, options.many]) figures.push(...(await interleaved(ports, cpus, (t) => call[t], concurrency, options.calls, options.rounds)));
    return figures;
  } finally {
    for (const c of children.reverse()) await c.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
