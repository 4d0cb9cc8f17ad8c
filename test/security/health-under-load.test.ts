/**
 * Hardening (issue 22), acceptance: "With the pathological glob, template and forEach,
 * /health answers within 100 ms throughout." Several clients send the three requests that
 * used to freeze the gateway (a `*?*?...#` pattern up to 256 characters over a catalogue of
 * hundreds of tools, a workflow output ranging 10^8 times, a forEach over 100,000 items
 * its template builds),
 * over and over, with the default limits; meanwhile a separate process polls /health on
 * the same Switchboard and times every answer. A separate process, so that the clients'
 * own work (building and parsing large messages) never counts as the gateway's delay.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, metaRaw, ROOT, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { startHealthPoller } from '../support/health-poller.js';

const MANY_TOOLS = join(ROOT, 'dist/bench/many-tools-server.js');
const CLIENTS = 4;
const ROUNDS = 10;
const HEALTH_WITHIN_MS = 100;

const wf = (name: string, spec: string) => `apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: ${name} }\nspec:\n${spec}`;

const FILES = {
  'mcpservers/many.yaml': stdioServer('many', MANY_TOOLS, ['400']),
  'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
  'workflows/count.yaml': wf(
    'count',
    '  args: { n: { type: integer, required: true } }\n  steps:\n    - { id: ping, tool: x_t_ping }\n  output:\n    text: "{{ range .input.n }}…{{ end }}"\n',
  ),
  // The 100,000 items are built by the template from a number, not sent: a 600 KB request
  // body costs its JSON parse whatever the workflow does with it (budgets.test.ts sends one).
  'workflows/each.yaml': wf(
    'each',
    '  args: { n: { type: integer, required: true } }\n  steps:\n    - id: loop\n      forEach:\n        items: "{{ split \\"\\" (printf \\"%0*d\\" .input.n 0) }}"\n        steps:\n          - { id: add, tool: x_t_add, args: { a: 1, b: 2 } }\n',
  ),
};

/** Patterns of `*?` pairs ending in a character no name has, the longest at the 256 limit. */
const PATTERNS = [`${'*?'.repeat(9)}#`, `${'*?'.repeat(64)}#`, `${'*?'.repeat(127)}*#`, `*${'?'.repeat(254)}#`];

describe('security: /health answers within 100 ms while the pathological requests run', function () {
  this.timeout(180_000);
  let sb: Running;
  const clients: Client[] = [];

  before(async () => {
    sb = await startSwitchboard(FILES);
    for (let i = 0; i < CLIENTS; i++) clients.push(await connectHttp(sb.url));
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sb?.stop();
  });

  it('every /health answer arrives within 100 ms while several clients send the glob, the template and the 100,000-item forEach', async () => {
    // The catalogue is there: the glob has hundreds of names to try.
    const listed = await metaRaw(clients[0]!, 'filter_tools', { pattern: 'x_many_*', limit: 1 });
    expect((listed.structuredContent as { total: number }).total).to.equal(400);
    // Once each before timing: a tool's first call compiles its input validator (tens of
    // milliseconds, once per tool), which is start-up, not the attacks' cost.
    await metaRaw(clients[0]!, 'filter_tools', { pattern: PATTERNS[0]!, limit: 50 });
    await callTool(clients[0]!, 'workflow_count', { n: 1 });
    await callTool(clients[0]!, 'workflow_each', { n: 1 });

    const poller = await startHealthPoller(new URL('/health', sb.url).toString());
    const answers: { kind: string; r: CallToolResult }[] = [];
    try {
      await Promise.all(
        clients.map(async (client, c) => {
          for (let round = 0; round < ROUNDS; round++) {
            const pattern = PATTERNS[(c + round) % PATTERNS.length]!;
            answers.push({ kind: 'glob', r: await metaRaw(client, 'filter_tools', { pattern, limit: 50 }) });
            answers.push({ kind: 'template', r: await callTool(client, 'workflow_count', { n: 100_000_000 }) });
            answers.push({ kind: 'forEach', r: await callTool(client, 'workflow_each', { n: 100_000 }) });
          }
        }),
      );
    } finally {
      poller.proc.stdin!.end();
    }
    const health = await poller.finish();

    // Each attack was answered, and refused or bounded the way a caller sees it.
    expect(answers).to.have.length(CLIENTS * ROUNDS * 3);
    for (const { kind, r } of answers) {
      if (kind === 'glob') expect((r.structuredContent as { total: number }).total, text(r)).to.equal(0);
      if (kind === 'template')
        expect((JSON.parse(text(r)) as { output_error?: string }).output_error, text(r)).to.match(
          /template stopped: .*\(aggregator\.limits\.templates\.(maxIterations|maxMilliseconds)\)/,
        );
      if (kind === 'forEach') {
        expect(errorCode(r)).to.equal('WORKFLOW_FAILED');
        // Which limit ends it depends on the machine's load: the items counted past
        // maxIterations, or their rendering past the template's time budget first.
        expect(text(r), text(r).slice(0, 600)).to.match(
          /forEach\.items has 100000 items; at most 1000 are allowed \(aggregator\.limits\.workflows\.maxIterations\)|forEach\.items.*template stopped: .*\(aggregator\.limits\.templates\.maxMilliseconds\)/,
        );
      }
    }

    // /health was asked throughout, and every answer came within the limit.
    expect(health.length, 'health polls').to.be.greaterThan(10);
    expect(health.every((h) => h.status === 200)).to.equal(true);
    const slowest = Math.max(...health.map((h) => h.ms));
    const sorted = health.map((h) => Math.round(h.ms)).sort((a, b) => a - b);
    expect(
      slowest,
      `${health.length} polls; slowest ${slowest.toFixed(1)} ms; median ${sorted[sorted.length >> 1]} ms; top ${sorted.slice(-5).join(', ')} ms`,
    ).to.be.below(HEALTH_WITHIN_MS);
  });
});
