/**
 * The catalogue and the invoker on their own: what a source publishes, in what order, what a
 * clash keeps; how a call is resolved in the caller's view, validated, tapped, run, observed
 * and drained. Real kernel objects, tools that are plain functions.
 */
import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Cancellation } from '../../kernel/cancellation.js';
import { Catalogue, type CatalogueEntry } from '../../kernel/catalogue.js';
import type { CallEnd } from '../../kernel/contracts/observations.js';
import { ServerUnavailableError, SwitchboardError } from '../../kernel/errors.js';
import { createHooks, type KernelHooks } from '../../kernel/hooks.js';
import { ToolInvoker } from '../../kernel/invoke.js';
import { createLogger } from '../../kernel/log.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { SecretScrubber } from '../../kernel/secrets/scrubber.js';
import type { Session } from '../../kernel/sessions.js';
import type { CallContext, JsonObject, ToolDefinition, ToolKind } from '../../kernel/tools.js';

const warnings: string[] = [];
const log = createLogger({ level: 'warn', sink: { write: (line: string) => warnings.push(line) > 0 } });

function tool(
  name: string,
  kind: ToolKind,
  run: (args: JsonObject) => Promise<CallToolResult> = async (a) => ({ content: [{ type: 'text', text: JSON.stringify(a) }] }),
): ToolDefinition {
  return {
    name,
    kind,
    description: `${name} does one thing. Then more detail follows.`,
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false },
    invoke: (args) => run(args),
  };
}

function call(view?: RequestContext['view']): CallContext {
  const request: RequestContext = { session: {} as Session, headers: {}, slots: new Map(), ...(view ? { view } : {}) };
  return { request, cancellation: new Cancellation(), depth: 0 };
}

function setup(): { hooks: KernelHooks; catalogue: Catalogue; invoker: ToolInvoker; secrets: SecretScrubber } {
  const hooks = createHooks();
  const catalogue = new Catalogue(hooks, log);
  const secrets = new SecretScrubber();
  return { hooks, catalogue, invoker: new ToolInvoker(catalogue, hooks, log, secrets), secrets };
}

const codeOf = async (p: Promise<unknown>): Promise<string | undefined> =>
  (
    (await p.then(
      () => undefined,
      (e: unknown) => e,
    )) as SwitchboardError | undefined
  )?.code;

describe('catalogue: sources, order, clashes', () => {
  it('lists core tools, then external tools, then workflows, by name within each, with a one-sentence summary', () => {
    const { catalogue } = setup();
    catalogue.replaceSource('server:b', [tool('x_b_zeta', 'tool'), tool('x_b_alpha', 'tool')]);
    catalogue.replaceSource('workflows', [tool('workflow_deploy', 'workflow')]);
    catalogue.replaceSource('core', [tool('core_service_list', 'core')]);
    expect(catalogue.all().map((e) => e.name)).to.deep.equal(['core_service_list', 'x_b_alpha', 'x_b_zeta', 'workflow_deploy']);
    expect(catalogue.get('x_b_alpha')!.summary).to.equal('x_b_alpha does one thing.');
  });

  it('replaces a source as a whole, removes it with an empty list, and counts each change', () => {
    const { catalogue, hooks } = setup();
    const changes: number[] = [];
    hooks.onCatalogueChange.tap('test', (c) => void changes.push(c.version));
    catalogue.replaceSource('server:a', [tool('x_a_one', 'tool'), tool('x_a_two', 'tool')]);
    catalogue.replaceSource('server:a', [tool('x_a_three', 'tool')]);
    expect(catalogue.all().map((e) => e.name)).to.deep.equal(['x_a_three']);
    catalogue.replaceSource('server:a', []);
    expect(catalogue.all()).to.have.length(0);
    expect(changes).to.deep.equal([1, 2, 3]);
  });

  it('keeps the first of two tools with one name, and warns naming both sources', () => {
    const { catalogue } = setup();
    warnings.length = 0;
    catalogue.replaceSource('server:a', [tool('x_same', 'tool')]);
    catalogue.replaceSource('server:b', [tool('x_same', 'tool')]);
    expect(catalogue.get('x_same')!.source).to.equal('server:a');
    expect(warnings.join('')).to.include("tool name 'x_same' from server:b clashes with server:a; keeping the first");
  });

  it('lets onToolRegister enrich each tool as it enters', () => {
    const { catalogue, hooks } = setup();
    hooks.onToolRegister.tap('labels', (t) => ({ ...t, labels: { team: 'infra' } }));
    catalogue.replaceSource('server:a', [tool('x_a_one', 'tool')]);
    expect(catalogue.get('x_a_one')!.discovery.labels).to.deep.equal({ team: 'infra' });
  });
});

describe('invoker: the one path every call takes', () => {
  it('runs a tool with validated arguments and returns its own result', async () => {
    const { catalogue, invoker } = setup();
    catalogue.replaceSource('server:a', [tool('x_a_echo', 'tool')]);
    const r = await invoker.call('x_a_echo', { n: 3 }, call());
    expect(r.content).to.deep.equal([{ type: 'text', text: '{"n":3}' }]);
    expect(await codeOf(invoker.call('x_a_echo', { n: 'three' }, call()))).to.equal('INVALID_ARGUMENTS');
  });

  it('says why a name does not run: unknown, outside the caller view, or absent for a reason its source gave', async () => {
    const { catalogue, invoker } = setup();
    catalogue.replaceSource('server:a', [tool('x_a_echo', 'tool')]);
    expect(await codeOf(invoker.call('x_nope', {}, call()))).to.equal('TOOL_NOT_FOUND');
    const none = { selectors: ['preset:empty'], includes: () => false };
    expect(await codeOf(invoker.call('x_a_echo', {}, call(none)))).to.equal('OUTSIDE_TOOLSET');
    catalogue.explainAbsence('server:gone', ['x_gone_tool'], () => new ServerUnavailableError('gone', 'stopped'));
    expect(await codeOf(invoker.call('x_gone_tool', {}, call()))).to.equal('SERVER_UNAVAILABLE');
    catalogue.forgetAbsence('server:gone');
    expect(await codeOf(invoker.call('x_gone_tool', {}, call()))).to.equal('TOOL_NOT_FOUND');
  });

  it('lets an onCall tap refuse before the tool runs, and reports every call on onCallEnd', async () => {
    const { catalogue, invoker, hooks } = setup();
    let ran = 0;
    catalogue.replaceSource('server:a', [tool('x_a_run', 'tool', async () => (ran++, { content: [] }))]);
    hooks.onCall.tapPromise('deny-odd', async (_entry: CatalogueEntry, args: JsonObject) => {
      if (args.n === 1) throw new SwitchboardError('RATE_LIMITED', 'no odd numbers');
    });
    const ends: CallEnd[] = [];
    hooks.onCallEnd.tap('test', (e) => void ends.push(e));
    await invoker.call('x_a_run', { n: 2 }, call());
    expect(await codeOf(invoker.call('x_a_run', { n: 1 }, call()))).to.equal('RATE_LIMITED');
    expect(ran).to.equal(1);
    expect(ends.map((e) => [e.tool, e.outcome, e.errorCode])).to.deep.equal([
      ['x_a_run', 'ok', undefined],
      ['x_a_run', 'refused', 'RATE_LIMITED'],
    ]);
  });

  it('scrubs known secrets from results', async () => {
    const { catalogue, invoker, secrets } = setup();
    secrets.add('s3cr3t-token-value');
    catalogue.replaceSource('server:a', [tool('x_a_leak', 'tool', async () => ({ content: [{ type: 'text', text: 'token is s3cr3t-token-value' }] }))]);
    const r = await invoker.call('x_a_leak', {}, call());
    expect(JSON.stringify(r)).to.not.include('s3cr3t-token-value');
  });

  it('drains: refuses new calls at once and waits for the running one', async () => {
    const { catalogue, invoker } = setup();
    let finish!: () => void;
    catalogue.replaceSource('server:a', [tool('x_a_slow', 'tool', () => new Promise((r) => (finish = () => r({ content: [] }))))]);
    const running = invoker.call('x_a_slow', {}, call());
    await new Promise((r) => setImmediate(r));
    const drained = invoker.drain(60_000);
    expect(await codeOf(invoker.call('x_a_slow', {}, call()))).to.equal('SERVER_UNAVAILABLE');
    finish();
    await running;
    expect(await drained, 'calls still running when the drain ended').to.equal(0);
  });
});
