/** The catalogue: tools grouped by source, swapped whole, looked up and ordered once per change. */
import { expect } from 'chai';
import { Catalogue, summarize } from '../../kernel/catalogue.js';
import { expectEachFloodWithin } from '../support/floods.js';
import { ServerUnavailableError } from '../../kernel/errors.js';
import { createHooks } from '../../kernel/hooks.js';
import { createLogger } from '../../kernel/log.js';
import type { ToolDefinition, ToolKind } from '../../kernel/tools.js';

function tool(name: string, kind: ToolKind = 'tool', more: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    kind,
    description: `${name} does things. At length.`,
    inputSchema: { type: 'object' },
    invoke: () => Promise.resolve({ content: [{ type: 'text', text: name }] }),
    ...more,
  };
}

function make() {
  const hooks = createHooks();
  const warnings: string[] = [];
  const log = createLogger({ level: 'warn', sink: { write: (line) => warnings.push(line) } });
  const catalogue = new Catalogue(hooks, log);
  const changes: number[] = [];
  hooks.onCatalogueChange.tap('test', (c) => void changes.push(c.version));
  return { hooks, catalogue, warnings, changes };
}

const names = (c: Catalogue): string[] => c.all().map((e) => e.name);

describe('Catalogue: every tool, by the source that owns it', () => {
  it("adds a server's tools as one source and looks them up by name", () => {
    const { catalogue } = make();
    catalogue.replaceSource('server:alpha', [tool('x_alpha_add', 'tool', { server: 'alpha' }), tool('x_alpha_echo', 'tool', { server: 'alpha' })]);
    expect(catalogue.has('x_alpha_add')).to.equal(true);
    const entry = catalogue.get('x_alpha_echo')!;
    expect(entry.source).to.equal('server:alpha');
    expect(entry.server).to.equal('alpha');
    expect(catalogue.get('x_alpha_missing')).to.equal(undefined);
  });

  it("replaces a source's whole tool set at once, leaving other sources alone", () => {
    const { catalogue } = make();
    catalogue.replaceSource('server:alpha', [tool('x_alpha_add'), tool('x_alpha_echo')]);
    catalogue.replaceSource('server:beta', [tool('x_beta_ping')]);
    catalogue.replaceSource('server:alpha', [tool('x_alpha_sum')]);
    expect(names(catalogue)).to.deep.equal(['x_alpha_sum', 'x_beta_ping']);
  });

  it('removes a source when it lists no tools, and announces only real changes', () => {
    const { catalogue, changes } = make();
    catalogue.replaceSource('server:alpha', [tool('x_alpha_add')]);
    catalogue.replaceSource('server:alpha', []);
    catalogue.replaceSource('server:never-there', []);
    expect(names(catalogue)).to.deep.equal([]);
    expect(changes).to.deep.equal([1, 2]);
    expect(catalogue.version).to.equal(2);
  });

  it('orders core tools, then external tools, then workflows, by name within each', () => {
    const { catalogue } = make();
    catalogue.replaceSource('workflows', [tool('workflow_b', 'workflow'), tool('workflow_a', 'workflow')]);
    catalogue.replaceSource('server:zeta', [tool('x_zeta_b'), tool('x_zeta_a')]);
    catalogue.replaceSource('core', [tool('core_z', 'core'), tool('core_a', 'core')]);
    expect(names(catalogue)).to.deep.equal(['core_a', 'core_z', 'x_zeta_a', 'x_zeta_b', 'workflow_a', 'workflow_b']);
  });

  it("keeps the first source's tool when two sources list the same name, warns, and lets the second in once the first leaves", () => {
    const { catalogue, warnings } = make();
    // A server whose toolPrefix is another server's name produces the same external names.
    catalogue.replaceSource('server:alpha', [tool('x_alpha_add', 'tool', { server: 'alpha' })]);
    catalogue.replaceSource('server:impostor', [tool('x_alpha_add', 'tool', { server: 'impostor' }), tool('x_alpha_other', 'tool', { server: 'impostor' })]);
    expect(catalogue.get('x_alpha_add')!.server).to.equal('alpha');
    expect(catalogue.get('x_alpha_other')!.server).to.equal('impostor');
    expect(warnings.join('')).to.include("tool name 'x_alpha_add' from server:impostor clashes with server:alpha; keeping the first");
    catalogue.replaceSource('server:alpha', []);
    expect(catalogue.get('x_alpha_add')!.server).to.equal('impostor');
  });

  it('lets onToolRegister enrich each tool as it enters', () => {
    const { catalogue, hooks } = make();
    hooks.onToolRegister.tap('labels', (t) => ({ ...t, labels: { team: 'core' } }));
    catalogue.replaceSource('server:alpha', [tool('x_alpha_add')]);
    expect(catalogue.get('x_alpha_add')!.labels).to.deep.equal({ team: 'core' });
    expect(catalogue.get('x_alpha_add')!.discovery.labels).to.deep.equal({ team: 'core' });
  });

  it('computes the summary and discovery form once, leaving out empty annotations and labels', () => {
    const { catalogue } = make();
    catalogue.replaceSource('server:alpha', [
      tool('x_alpha_add', 'tool', { server: 'alpha', annotations: {}, labels: {} }),
      tool('x_alpha_get', 'tool', { annotations: { readOnlyHint: true } }),
    ]);
    expect(catalogue.get('x_alpha_add')!.discovery).to.deep.equal({ name: 'x_alpha_add', summary: 'x_alpha_add does things.', kind: 'tool', server: 'alpha' });
    expect(catalogue.get('x_alpha_get')!.discovery.annotations).to.deep.equal({ readOnlyHint: true });
  });

  it('summarizes a description as its first sentence or line, at most 160 characters', () => {
    expect(summarize('  Adds numbers. Then more.  ')).to.equal('Adds numbers.');
    expect(summarize('First line without a stop\nsecond line.')).to.equal('First line without a stop');
    expect(summarize('v1.2 is out. Yes.')).to.equal('v1.2 is out.');
    const long = summarize('a'.repeat(200));
    expect(long).to.have.length(160);
    expect(long.endsWith('...')).to.equal(true);
  });

  it("summarizes a description written as sections by what it does, not by a section's heading", () => {
    // As HubSpot's server writes them: headings first, a numbered line under each.
    expect(summarize('🎯 Purpose:\n  1. Performs filtered searches across object types.\n\n📋 Prerequisites:\n  1. List first.')).to.equal(
      'Performs filtered searches across object types.',
    );
    expect(summarize('🛡️ Guardrails:\n  1. Warning: this tool modifies data.\n\n🎯 Purpose:\n  1. Creates objects of one type.')).to.equal(
      'Creates objects of one type.',
    );
    expect(summarize('## Read file\nReads a file from disk.')).to.equal('Reads a file from disk.');
    // A short sentence is no heading; a line with a colon and more than four words is one to show.
    expect(summarize('Delete a tag\nMore detail here.')).to.equal('Delete a tag');
    expect(summarize('Usage: call it with a path')).to.equal('Usage: call it with a path');
    expect(summarize('Purpose:')).to.equal('Purpose:');
  });

  it("summarizes 100,000 characters of heading-shaped lines in linear time (an upstream writes its tools' descriptions)", () => {
    const floods = [
      '🎯 '.repeat(50_000),
      'a '.repeat(50_000) + ':',
      'a'.repeat(100_000) + '!',
      '#'.repeat(100_000),
      'a:\n'.repeat(33_000),
      '🎯 a'.repeat(25_000),
    ];
    expectEachFloodWithin(floods, 200, summarize);
  });

  it('explains a tool its source no longer lists, until the source forgets it', () => {
    const { catalogue } = make();
    catalogue.explainAbsence('server:alpha', ['x_alpha_add'], () => new ServerUnavailableError('alpha', 'stopped'));
    expect(catalogue.has('x_alpha_add')).to.equal(false);
    expect(catalogue.whyAbsent('x_alpha_add')?.code).to.equal('SERVER_UNAVAILABLE');
    expect(catalogue.whyAbsent('x_beta_add')).to.equal(undefined);
    catalogue.forgetAbsence('server:alpha');
    expect(catalogue.whyAbsent('x_alpha_add')).to.equal(undefined);
    catalogue.explainAbsence('server:alpha', ['x_alpha_add'], () => new ServerUnavailableError('alpha', 'stopped'));
    catalogue.explainAbsence('server:alpha', [], () => new ServerUnavailableError('alpha', 'stopped'));
    expect(catalogue.whyAbsent('x_alpha_add')).to.equal(undefined);
  });
});
