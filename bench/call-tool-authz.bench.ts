/**
 * call_tool with authorization on (Cedar, 100 operator policies over the baseline) against
 * authorization off (no authorizer plugin: the kernel's fallback), the same upstream over
 * streamable HTTP, interleaved round by round with the floor. Decisions are kept per
 * principal and catalogue entry, so the policy count should not reach the per-call cost.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { interleaved, type CallToolFigures } from './call-tool.bench.js';
import { startChild, type Child } from './processes.js';

type Target = 'floor' | 'off' | 'cedar';

interface Options {
  rounds: number;
  calls: number;
  many: number;
  root: string;
  policies: number;
}

/** `count` policies that each apply to a group nobody is in: evaluated, never deciding. */
export function manyPolicies(count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      i % 2 === 0
        ? `@id("forbid-${i}")\nforbid(principal in Group::"team-${i}", action == Action::"call", resource) when { resource.kind == "tool" && resource has server && resource.server == "server-${i}" };`
        : `@id("permit-${i}")\npermit(principal in Group::"team-${i}", action == Action::"read", resource is Execution) when { resource has owner && resource.owner == principal.key };`,
    );
  }
  return `${out.join('\n\n')}\n`;
}

async function switchboardWith(root: string, dir: string, upstreamPort: number, config: string, files: Record<string, string>): Promise<Child> {
  await mkdir(join(dir, 'mcpservers'), { recursive: true });
  await writeFile(join(dir, 'config.yaml'), config);
  await writeFile(join(dir, 'mcpservers/up.yaml'), `name: up\ntype: streamable-http\nurl: http://127.0.0.1:${upstreamPort}/mcp\n`);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return startChild(
    [join(root, 'bin/switchboard.js'), 'serve', '--config-path', dir, '--port', '0', '--host', '127.0.0.1'],
    /listening on http:\/\/[^\s]+:(\d+)\/mcp/,
    { SWITCHBOARD_LOG_LEVEL: 'info' },
  );
}

export async function benchCallToolAuthz(options: Options): Promise<(Omit<CallToolFigures, 'target'> & { target: Target })[]> {
  const children: Child[] = [];
  const dirs: string[] = [];
  try {
    const upstream = await startChild([join(options.root, 'dist/bench/upstream-server.js'), '0'], /listening (\d+)/);
    children.push(upstream);
    const floor = await startChild([join(options.root, 'dist/bench/floor-proxy.js'), String(upstream.port)], /listening (\d+)/);
    children.push(floor);
    const dir = async () => {
      const d = await mkdtemp(join(tmpdir(), 'switchboard-bench-authz-'));
      dirs.push(d);
      return d;
    };
    const off = await switchboardWith(options.root, await dir(), upstream.port, 'plugins:\n  authorization: false\n', {});
    children.push(off);
    const cedar = await switchboardWith(options.root, await dir(), upstream.port, 'plugins:\n  authorization-cedar: true\n', {
      'policies/many.cedar': manyPolicies(options.policies),
    });
    children.push(cedar);
    // The "ready" line follows listening; give the upstream connections a moment.
    await new Promise((r) => setTimeout(r, 300));
    const ports: Record<Target, number> = { floor: floor.port, off: off.port, cedar: cedar.port };
    const cpus: Record<Target, () => number> = { floor: floor.cpuMs, off: off.cpuMs, cedar: cedar.cpuMs };
    const call = (target: Target) =>
      target === 'floor'
        ? (c: Client, i: number) => c.callTool({ name: 'echo', arguments: { message: `m${i}` } })
        : (c: Client, i: number) => c.callTool({ name: 'call_tool', arguments: { name: 'x_up_echo', arguments: { message: `m${i}` } } });
    const figures = [];
    for (const concurrency of [1, options.many]) figures.push(...(await interleaved(ports, cpus, call, concurrency, options.calls, options.rounds)));
    return figures;
  } finally {
    for (const c of children.reverse()) await c.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
}
