/** The invoker: the one path every tool call takes, from name to result. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { Cancellation } from '../../kernel/cancellation.js';
import { Catalogue } from '../../kernel/catalogue.js';
import type { CallEnd } from '../../kernel/contracts/observations.js';
import { ForbiddenError, ServerUnavailableError, SwitchboardError, UpstreamError } from '../../kernel/errors.js';
import { createHooks } from '../../kernel/hooks.js';
import { ToolInvoker } from '../../kernel/invoke.js';
import { createLogger } from '../../kernel/log.js';
import type { CatalogueView, RequestContext } from '../../kernel/request-context.js';
import { SecretScrubber } from '../../kernel/secrets/scrubber.js';
import type { Session } from '../../kernel/sessions.js';
import type { CallContext, ToolDefinition } from '../../kernel/tools.js';

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

function callContext(view?: CatalogueView): CallContext {
  const request: RequestContext = { session: {} as Session, headers: {}, slots: new Map(), ...(view ? { view } : {}) };
  return { request, cancellation: new Cancellation(), depth: 0 };
}

/** A server's tool that answers with which server ran it and the arguments it got. */
function echo(server: string, name: string, inputSchema: ToolDefinition['inputSchema'] = { type: 'object' }): ToolDefinition {
  return {
    name: `x_${server}_${name}`,
    kind: 'tool',
    server,
    description: name,
    inputSchema,
    invoke: (args) => Promise.resolve(text(`${server}:${JSON.stringify(args)}`)),
  };
}

function make(secrets?: SecretScrubber) {
  const hooks = createHooks();
  const warnings: string[] = [];
  const log = createLogger({ level: 'warn', sink: { write: (line) => warnings.push(line) } });
  const catalogue = new Catalogue(hooks, log);
  const invoker = new ToolInvoker(catalogue, hooks, log, secrets);
  return { hooks, catalogue, invoker, warnings };
}

const failure = (p: Promise<unknown>): Promise<SwitchboardError> =>
  p.then(
    () => expect.fail('the call succeeded'),
    (e: unknown) => e as SwitchboardError,
  );
const firstText = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

describe('ToolInvoker: routing a call to its tool', () => {
  it('runs the tool the name names, with the arguments given', async () => {
    const { catalogue, invoker } = make();
    catalogue.replaceSource('server:alpha', [echo('alpha', 'add')]);
    catalogue.replaceSource('server:beta', [echo('beta', 'add')]);
    expect(firstText(await invoker.call('x_beta_add', { a: 1 }, callContext()))).to.equal('beta:{"a":1}');
    expect(firstText(await invoker.call('x_alpha_add', {}, callContext()))).to.equal('alpha:{}');
  });

  it("says TOOL_NOT_FOUND for a name nobody has, and the source's reason for one it no longer lists", async () => {
    const { catalogue, invoker } = make();
    expect((await failure(invoker.call('x_ghost_add', {}, callContext()))).code).to.equal('TOOL_NOT_FOUND');
    catalogue.explainAbsence('server:alpha', ['x_alpha_add'], () => new ServerUnavailableError('alpha', 'stopped'));
    const err = await failure(invoker.call('x_alpha_add', {}, callContext()));
    expect(err.code).to.equal('SERVER_UNAVAILABLE');
    expect(err.message).to.equal("Server 'alpha' is not available: stopped");
  });

  it("refuses a tool outside the request's view, with the view's own reason when it has one", async () => {
    const { catalogue, invoker } = make();
    catalogue.replaceSource('server:alpha', [echo('alpha', 'add'), echo('alpha', 'secret')]);
    const view: CatalogueView = { selectors: ['server:alpha'], includes: (e) => e.name === 'x_alpha_add' };
    expect(firstText(await invoker.call('x_alpha_add', {}, callContext(view)))).to.equal('alpha:{}');
    const outside = await failure(invoker.call('x_alpha_secret', {}, callContext(view)));
    expect(outside.code).to.equal('OUTSIDE_TOOLSET');
    expect(outside.message).to.equal("Tool 'x_alpha_secret' is outside the toolset [server:alpha]");
    const signIn: CatalogueView = { ...view, refusal: () => new ForbiddenError('sign in first') };
    expect((await failure(invoker.call('x_alpha_secret', {}, callContext(signIn)))).code).to.equal('FORBIDDEN');
  });

  it("checks arguments against the tool's input schema before running it", async () => {
    const { catalogue, invoker } = make();
    let ran = 0;
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], $schema: 'https://json-schema.org/draft/2099-01/schema' };
    catalogue.replaceSource('server:alpha', [{ ...echo('alpha', 'add', schema), invoke: () => (ran++, Promise.resolve(text('ran'))) }]);
    const err = await failure(invoker.call('x_alpha_add', { a: 'one' }, callContext()));
    expect(err.code).to.equal('INVALID_ARGUMENTS');
    expect(err.details).to.deep.equal({ name: 'x_alpha_add', problems: [{ path: '/a', message: 'a must be a number value' }] });
    expect(ran).to.equal(0);
    expect(firstText(await invoker.call('x_alpha_add', { a: 1 }, callContext()))).to.equal('ran');
  });

  it("passes arguments unchecked, with one warning, when a tool's schema does not compile", async () => {
    const { catalogue, invoker, warnings } = make();
    catalogue.replaceSource('server:alpha', [echo('alpha', 'odd', { type: 'object', properties: { a: { type: 'no-such-type' } } })]);
    expect(firstText(await invoker.call('x_alpha_odd', { a: 1 }, callContext()))).to.equal('alpha:{"a":1}');
    await invoker.call('x_alpha_odd', {}, callContext());
    expect(warnings.filter((w) => w.includes("input schema of 'x_alpha_odd' does not compile"))).to.have.length(1);
  });

  it('lets an onCall tap refuse a call before the tool runs', async () => {
    const { catalogue, invoker, hooks } = make();
    let ran = false;
    catalogue.replaceSource('server:alpha', [{ ...echo('alpha', 'add'), invoke: () => ((ran = true), Promise.resolve(text('ran'))) }]);
    hooks.onCall.tapPromise('limits', () => Promise.reject(new SwitchboardError('RATE_LIMITED', 'slow down')));
    expect((await failure(invoker.call('x_alpha_add', {}, callContext()))).code).to.equal('RATE_LIMITED');
    expect(ran).to.equal(false);
  });

  it("passes a tool's own error through unchanged", async () => {
    const { catalogue, invoker } = make();
    const upstream = new UpstreamError('alpha', 'boom', -32000);
    catalogue.replaceSource('server:alpha', [{ ...echo('alpha', 'add'), invoke: () => Promise.reject(upstream) }]);
    expect(await failure(invoker.call('x_alpha_add', {}, callContext()))).to.equal(upstream);
  });

  it('scrubs known secrets out of results', async () => {
    const secrets = new SecretScrubber();
    secrets.add('hunter2-hunter2');
    const { catalogue, invoker } = make(secrets);
    catalogue.replaceSource('server:alpha', [{ ...echo('alpha', 'leak'), invoke: () => Promise.resolve(text('the password is hunter2-hunter2')) }]);
    expect(firstText(await invoker.call('x_alpha_leak', {}, callContext()))).to.equal('the password is <redacted>');
  });

  it('reports how every call ended to onCallEnd: ok, error result, refused or error, with the code', async () => {
    const { catalogue, invoker, hooks } = make();
    const ends: Omit<CallEnd, 'durationMs'>[] = [];
    hooks.onCallEnd.tap('metrics', ({ durationMs, ...end }) => {
      expect(durationMs).to.be.at.least(0);
      ends.push(end);
    });
    catalogue.replaceSource('server:alpha', [
      echo('alpha', 'add'),
      { ...echo('alpha', 'bad'), invoke: () => Promise.resolve({ ...text('no'), isError: true }) },
      { ...echo('alpha', 'boom'), invoke: () => Promise.reject(new UpstreamError('alpha', 'boom', -1)) },
    ]);
    await invoker.call('x_alpha_add', {}, callContext());
    await invoker.call('x_alpha_bad', {}, callContext());
    await invoker.call('x_alpha_boom', {}, callContext()).catch(() => undefined);
    await invoker.call('x_nobody_add', {}, callContext()).catch(() => undefined);
    expect(ends).to.deep.equal([
      { tool: 'x_alpha_add', server: 'alpha', kind: 'tool', outcome: 'ok' },
      { tool: 'x_alpha_bad', server: 'alpha', kind: 'tool', outcome: 'error_result' },
      { tool: 'x_alpha_boom', server: 'alpha', kind: 'tool', outcome: 'error', errorCode: 'UPSTREAM_ERROR' },
      { tool: undefined, server: undefined, kind: undefined, outcome: 'refused', errorCode: 'TOOL_NOT_FOUND' },
    ]);
  });
});

describe('ToolInvoker.drain: shutting down', () => {
  function slowTool(): { def: ToolDefinition; finish: () => void } {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    return { def: { ...echo('alpha', 'slow'), invoke: async () => (await done, text('finished')) }, finish };
  }

  it('answers at once with 0 when nothing is running, and refuses calls from then on', async () => {
    const { catalogue, invoker } = make();
    catalogue.replaceSource('server:alpha', [echo('alpha', 'add')]);
    expect(await invoker.drain(1000)).to.equal(0);
    const err = await failure(invoker.call('x_alpha_add', {}, callContext()));
    expect(err.code).to.equal('SERVER_UNAVAILABLE');
    expect(err.message).to.equal("Server 'switchboard' is not available: shutting down");
  });

  it('waits for running calls to finish, which keep their results', async () => {
    const { catalogue, invoker } = make();
    const slow = slowTool();
    catalogue.replaceSource('server:alpha', [slow.def]);
    const running = invoker.call('x_alpha_slow', {}, callContext());
    await new Promise((r) => setImmediate(r));
    const drained = invoker.drain(10_000);
    slow.finish();
    expect(await drained).to.equal(0);
    expect(firstText(await running)).to.equal('finished');
  });

  it('gives up after the grace period and says how many calls are still running', async () => {
    const { catalogue, invoker } = make();
    const slow = slowTool();
    catalogue.replaceSource('server:alpha', [slow.def]);
    const running = invoker.call('x_alpha_slow', {}, callContext());
    await new Promise((r) => setImmediate(r));
    expect(await invoker.drain(20)).to.equal(1);
    slow.finish();
    await running;
  });
});
