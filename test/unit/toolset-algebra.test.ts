import { expect } from 'chai';
import fc from 'fast-check';
import { Cancellation } from '../../kernel/cancellation.js';
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { ToolInvoker } from '../../kernel/invoke.js';
import { createLogger } from '../../kernel/log.js';
import type { RequestContext } from '../../kernel/request-context.js';
import type { Session } from '../../kernel/sessions.js';
import type { CallContext, ToolDefinition, ToolKind } from '../../kernel/tools.js';
import { compilePresets } from '../../plugins/toolsets/presets.js';
import { resolveSelectors, viewOf } from '../../plugins/toolsets/resolve.js';
import { parseSelectors } from '../../plugins/toolsets/selectors.js';
import { OutsideToolsetError } from '../../kernel/errors.js';

const SERVERS = ['alpha', 'beta', 'gamma'];
const WORKFLOWS = ['deploy', 'triage'];

function catalogueOf(tools: { server: string; name: string; kind: ToolKind; readOnly: boolean }[]): Catalogue {
  const hooks = createHooks();
  const catalogue = new Catalogue(hooks, createLogger({ level: 'error' }));
  const defs: ToolDefinition[] = tools.map((t) => ({
    name: t.kind === 'workflow' ? `workflow_${t.name}` : t.kind === 'core' ? `core_${t.name}` : `x_${t.server}_${t.name}`,
    kind: t.kind,
    description: `${t.name} tool.`,
    inputSchema: { type: 'object' },
    ...(t.kind === 'tool' ? { server: t.server } : {}),
    annotations: { readOnlyHint: t.readOnly },
    invoke: async () => ({ content: [] }),
  }));
  // Dedupe by name: the catalogue keeps the first of a clash.
  catalogue.replaceSource(
    'all',
    defs.filter((d, i) => defs.findIndex((x) => x.name === d.name) === i),
  );
  return catalogue;
}

const toolArb = fc.record({
  server: fc.constantFrom(...SERVERS),
  name: fc.constantFrom('list', 'get', 'put', 'drop', 'query', ...WORKFLOWS),
  kind: fc.constantFrom<ToolKind>('tool', 'tool', 'tool', 'core', 'workflow'),
  readOnly: fc.boolean(),
});

const presets = compilePresets({
  alphas: { include: [{ server: 'alpha' }] },
  readers: { include: [{ readOnly: true }], exclude: [{ pattern: '*drop*' }] },
  team: { include: [{ preset: 'alphas' }, { workflow: 'deploy' }] },
});
if (!presets.ok) throw new Error('test presets must compile');

function selectorArb(names: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('preset:full', 'preset:none', 'preset:read-only', 'preset:alphas', 'preset:readers', 'preset:team'),
    fc.constantFrom(...SERVERS, 'nowhere').map((s) => `server:${s}`),
    fc.constantFrom(...WORKFLOWS, 'ghost').map((w) => `workflow:${w}`),
    fc.constantFrom(...names, 'x_none_tool').map((n) => `tool:${n}`),
  );
}

const scenario = fc.array(toolArb, { minLength: 1, maxLength: 40 }).chain((tools) => {
  const catalogue = catalogueOf(tools);
  const names = catalogue.all().map((e) => e.name);
  return fc.record({
    catalogue: fc.constant(catalogue),
    header: fc.array(selectorArb(names), { minLength: 1, maxLength: 6 }),
    argument: fc.array(selectorArb(names), { minLength: 1, maxLength: 6 }),
  });
});

function callContext(view: RequestContext['view']): CallContext {
  const request: RequestContext = { session: {} as Session, headers: {}, slots: new Map(), ...(view ? { view } : {}) };
  return { request, cancellation: new Cancellation(), depth: 0 };
}

describe('toolset algebra (property-based)', () => {
  const p = presets.presets;

  it('the filter_tools argument never widens the header', () => {
    fc.assert(
      fc.property(scenario, ({ catalogue, header, argument }) => {
        const outer = viewOf(parseSelectors(header), p);
        const inner = resolveSelectors(parseSelectors(argument), p, catalogue, outer).view;
        for (const e of catalogue.all()) if (inner.includes(e)) expect(outer.includes(e)).to.equal(true);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it('preset:none yields nothing and preset:full yields the whole catalogue', () => {
    fc.assert(
      fc.property(scenario, ({ catalogue }) => {
        const none = viewOf(parseSelectors(['preset:none']), p);
        const full = viewOf(parseSelectors(['preset:full']), p);
        expect(catalogue.all().filter((e) => none.includes(e))).to.deep.equal([]);
        expect(catalogue.all().filter((e) => full.includes(e))).to.deep.equal([...catalogue.all()]);
      }),
      { seed: 7, numRuns: 100 },
    );
  });

  it('a tool is visible if and only if call_tool accepts it', () => {
    fc.assert(
      fc.property(scenario, ({ catalogue, header }) => {
        const view = viewOf(parseSelectors(header), p);
        const invoker = new ToolInvoker(catalogue, createHooks(), createLogger({ level: 'error' }));
        for (const e of catalogue.all()) {
          let accepted = true;
          try {
            invoker.resolve(e.name, callContext(view));
          } catch (err) {
            expect(err).to.be.instanceOf(OutsideToolsetError);
            accepted = false;
          }
          expect(accepted).to.equal(view.includes(e));
        }
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('selectors union: a tool is in the set of several selectors iff it is in one of them', () => {
    fc.assert(
      fc.property(scenario, ({ catalogue, header }) => {
        const union = viewOf(parseSelectors(header), p);
        const singles = header.map((s) => viewOf(parseSelectors([s]), p));
        for (const e of catalogue.all()) expect(union.includes(e)).to.equal(singles.some((v) => v.includes(e)));
      }),
      { seed: 99, numRuns: 200 },
    );
  });

  it('toolset_unmatched lists exactly the selectors that select nothing inside the header', () => {
    fc.assert(
      fc.property(scenario, ({ catalogue, header, argument }) => {
        const outer = viewOf(parseSelectors(header), p);
        const { unmatched } = resolveSelectors(parseSelectors(argument), p, catalogue, outer);
        for (const s of argument.map((x) => x.trim())) {
          const one = resolveSelectors(parseSelectors([s]), p, catalogue, outer).view;
          const selectsSomething = catalogue.all().some((e) => one.includes(e));
          expect(unmatched.includes(s)).to.equal(!selectsSomething);
        }
      }),
      { seed: 5, numRuns: 150 },
    );
  });
});
