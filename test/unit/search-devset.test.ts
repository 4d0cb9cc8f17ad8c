import { expect } from 'chai';
import { loadCatalogues, loadDevset, loadUnseen } from '../../bench/devset/catalog.js';
import { UNSEEN_SERVERS } from '../../bench/devset/servers.js';
import { ROOT } from '../support/harness.js';

/** The search development set (bench/devset) stays consistent: it cannot rot as catalogues are refreshed. */
describe('search development set (bench/devset)', () => {
  it('has the real catalogues of at least 30 servers, each tool with a name, a description and an object schema, under ~600 tools in all', async () => {
    const catalogues = await loadCatalogues(ROOT);
    expect(catalogues.length).to.be.at.least(30);
    const tools = catalogues.flatMap((c) => c.tools.map((t) => ({ server: c.server, ...t })));
    expect(tools.length).to.be.within(300, 800);
    for (const c of catalogues) {
      expect(c.tools, c.server).to.not.be.empty;
      expect(c.version, c.server).to.be.a('string').and.not.empty;
      expect(new Set(c.tools.map((t) => t.name)).size, `${c.server}: tool names are unique`).to.equal(c.tools.length);
    }
    for (const t of tools) {
      expect(t.name, t.server).to.be.a('string').and.not.empty;
      expect(t.description, `${t.server}/${t.name}`).to.be.a('string');
      expect(t.inputSchema, `${t.server}/${t.name}`).to.be.an('object');
    }
  });

  it('loads: every query has at least one step, every step a gold tool that exists in the catalogues, ids unique', async () => {
    const { catalogues, queries } = await loadDevset(ROOT);
    const known = new Set(catalogues.flatMap((c) => c.tools.map((t) => `${c.server}/${t.name}`)));
    expect(queries.length).to.be.at.least(300);
    expect(new Set(queries.map((q) => q.id)).size).to.equal(queries.length);
    for (const q of queries) {
      expect(q.steps, q.id).to.not.be.empty;
      expect(q.query.trim(), q.id).to.not.be.empty;
      for (const s of q.steps) {
        expect(s.gold, q.id).to.not.be.empty;
        for (const g of s.gold) expect(known.has(g), `${q.id}: ${g}`).to.equal(true);
      }
    }
    // About a fifth to a quarter of the set needs two or three tools (the w- part, phrasing
    // styles, is single requests).
    const tasks = queries.filter((q) => q.steps.length > 1).length;
    expect(tasks / queries.length).to.be.within(0.15, 0.35);
  });

  it('has an unseen part: servers apart from the main catalogue, each asked for, ids unique and never a main id', async () => {
    const main = await loadDevset(ROOT);
    const unseenCatalogues = await loadCatalogues(ROOT, 'unseen');
    expect(unseenCatalogues.map((c) => c.server).sort()).to.deep.equal(UNSEEN_SERVERS.map((s) => s.server).sort());
    const mainServers = new Set(main.catalogues.map((c) => c.server));
    for (const c of unseenCatalogues) expect(mainServers.has(c.server), `${c.server} is in both folders`).to.equal(false);
    // loadUnseen checks every gold tool against both catalogues, or throws.
    const { queries } = await loadUnseen(ROOT);
    expect(queries.length).to.be.at.least(30);
    const asked = new Set(queries.flatMap((q) => q.steps.flatMap((s) => s.gold.map((g) => g.split('/')[0]))));
    for (const c of unseenCatalogues) expect(asked.has(c.server), `no request asks for ${c.server}`).to.equal(true);
    const mainIds = new Set(main.queries.map((q) => q.id));
    expect(new Set(queries.map((q) => q.id)).size).to.equal(queries.length);
    for (const q of queries) expect(mainIds.has(q.id), q.id).to.equal(false);
  });
});
