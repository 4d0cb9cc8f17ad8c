/**
 * Issue 35, findings 1 and 2, replayed as the attacker did: workflows created through
 * call_tool core_workflow_create whose step argument is a template that is tiny in memory
 * and exponential written out (a list or dict holding the same value twice, doubled every
 * round), or that runs a quadratic function over a large input (uniq of 20,000 and 60,000
 * items, kebabcase of most of a megabyte), or a regular expression over one (a single
 * match nothing can interrupt: the template worker's case). On the main branch before the fix the first froze
 * the gateway for good (RSS 688 MB, SIGTERM ignored) and the others blocked it for seconds.
 * Now each run ends with the step's budget error naming the step and the limit, /health
 * answers within 100 ms throughout (a separate process polls it), and the gateway still
 * serves calls afterwards.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { startHealthPoller } from '../support/health-poller.js';

const HEALTH_WITHIN_MS = 100;
const CLIENTS = 2;
const ROUNDS = 3;

interface Attack {
  name: string;
  template: string;
  input?: Record<string, unknown>;
  /** What the run must answer: the budget error of this limit, or (`sum`) a completed run. */
  expect: { limit: 'maxOutputBytes' | 'maxMilliseconds' } | { limitOrSum: number };
}

const ATTACKS: Attack[] = [
  {
    name: 'share-list',
    template: '{{ $d := list 1 }}{{ range until 40 }}{{ $d = list $d $d }}{{ end }}{{ toJson $d | len }}',
    expect: { limit: 'maxOutputBytes' },
  },
  {
    name: 'share-dict',
    template: '{{ $d := list 1 }}{{ range until 30 }}{{ $d = dict "a" $d "b" $d }}{{ end }}{{ toJson $d | len }}',
    expect: { limit: 'maxOutputBytes' },
  },
  { name: 'uniq-20k', template: '{{ until 20000 | uniq | len }}', expect: { limitOrSum: 20_001 } },
  { name: 'uniq-60k', template: '{{ until 60000 | uniq | len }}', expect: { limitOrSum: 60_001 } },
  {
    name: 'kebab-1mb',
    // Most of the 1 MiB an argument may hold, built by the template from a short input: a
    // megabyte request body costs its parsing and recording whatever the workflow does with
    // it (budgets.test.ts sends one), and this suite is about the template's own cost.
    template: '{{ kebabcase (repeat 80000 .input.text) | len }}',
    input: { text: 'aB-c_d Xy9 ' },
    expect: { limit: 'maxMilliseconds' },
  },
  {
    // One regular-expression match over most of a megabyte is one step nothing inside can
    // divide (tens to hundreds of milliseconds); in the template worker it blocks nobody.
    name: 'regex-1mb',
    template: '{{ range until 3 }}{{ $_ := regexMatch "(a|b)*c$" (repeat 60000 $.input.text) }}{{ end }}{{ 1 }}',
    input: { text: 'aB-c_d Xy9 é€ ' },
    expect: { limit: 'maxMilliseconds' },
  },
];

const stepOf = (a: Attack) => ({ id: 'blow', tool: 'x_t_add', args: { a: a.template, b: 1 } });

describe('security: templates that explode or run quadratic end within their budget (issue 35, findings 1 and 2)', function () {
  this.timeout(180_000);
  let sb: Running;
  const clients: Client[] = [];

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/t.yaml': stdioServer('t', TEST_SERVER) });
    for (let i = 0; i < CLIENTS; i++) clients.push(await connectHttp(sb.url));
    for (const a of ATTACKS) {
      const created = await callTool(clients[0]!, 'core_workflow_create', {
        name: a.name,
        ...(a.input ? { args: { text: { type: 'string', required: true } } } : {}),
        steps: [stepOf(a)],
      });
      expect(created.isError, text(created)).to.not.equal(true);
    }
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sb?.stop();
  });

  function check(a: Attack, r: CallToolResult): void {
    const words = text(r);
    if ('limitOrSum' in a.expect && r.isError !== true) {
      expect(words, a.name).to.include(String(a.expect.limitOrSum));
      return;
    }
    expect(errorCode(r), `${a.name}: ${words.slice(0, 300)}`).to.equal('WORKFLOW_FAILED');
    // The step, the argument and the limit, in the step's own error.
    expect(words, a.name).to.include(`workflow '${a.name}' failed at step 'blow' (tool 'x_t_add'): failed to render arguments for argument 'a'`);
    const limit = 'limit' in a.expect ? a.expect.limit : '(maxMilliseconds|maxOutputBytes)';
    expect(words, a.name).to.match(new RegExp(`template stopped: .*\\(aggregator\\.limits\\.templates\\.${limit}\\)`));
  }

  it('every attack run ends with a bounded budget error, /health answers within 100 ms throughout, and the gateway still serves', async () => {
    // Once each before timing: a tool's first call compiles its input validator (start-up, not the attack).
    for (const a of ATTACKS) check(a, await callTool(clients[0]!, `workflow_${a.name}`, a.input ?? {}));

    const poller = await startHealthPoller(new URL('/health', sb.url).toString());
    const answers: { attack: Attack; r: CallToolResult; ms: number }[] = [];
    try {
      await Promise.all(
        clients.map(async (client, c) => {
          for (let round = 0; round < ROUNDS; round++) {
            for (let i = 0; i < ATTACKS.length; i++) {
              const attack = ATTACKS[(i + c + round) % ATTACKS.length]!;
              const started = performance.now();
              const r = await callTool(client, `workflow_${attack.name}`, attack.input ?? {});
              answers.push({ attack, r, ms: performance.now() - started });
            }
          }
        }),
      );
    } finally {
      poller.proc.stdin!.end();
    }
    const health = await poller.finish();

    expect(answers).to.have.length(CLIENTS * ROUNDS * ATTACKS.length);
    for (const { attack, r } of answers) check(attack, r);

    expect(health.length, 'health polls').to.be.greaterThan(10);
    expect(health.every((h) => h.status === 200)).to.equal(true);
    const sorted = health.map((h) => h.ms).sort((x, y) => x - y);
    const slowest = sorted.at(-1)!;
    const over = sorted.filter((m) => m >= HEALTH_WITHIN_MS).length;
    const summary = `${health.length} polls, ${over} over ${HEALTH_WITHIN_MS} ms; median ${sorted[sorted.length >> 1]!.toFixed(1)} ms; top ${sorted
      .slice(-8)
      .map((m) => m.toFixed(0))
      .join(', ')} ms`;
    expect(slowest, summary).to.be.below(HEALTH_WITHIN_MS);

    // Still serving: a plain call and a workflow that renders normally.
    const sum = await callTool(clients[0]!, 'x_t_add', { a: 2, b: 3 });
    expect(text(sum)).to.equal('5');
    const fine = await callTool(clients[1]!, 'core_workflow_create', {
      name: 'fine',
      steps: [{ id: 'one', tool: 'x_t_add', args: { a: '{{ list 1 2 3 | uniq | len }}', b: 1 } }],
    });
    expect(fine.isError, text(fine)).to.not.equal(true);
    expect(text(await callTool(clients[1]!, 'workflow_fine', {}))).to.include('4');
    expect((await fetch(new URL('/health', sb.url))).status).to.equal(200);
  });
});
