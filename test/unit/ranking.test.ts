import { expect } from 'chai';
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { createLogger } from '../../kernel/log.js';
import { buildIndex, rank, tokenize } from '../../plugins/meta-tools/ranking.js';

function corpus(tools: [string, string][]): Catalogue {
  const c = new Catalogue(createHooks(), createLogger({ level: 'error' }));
  c.replaceSource(
    'corpus',
    tools.map(([name, description]) => ({
      name,
      kind: 'tool' as const,
      server: 's',
      description,
      inputSchema: { type: 'object' },
      invoke: async () => ({ content: [] }),
    })),
  );
  return c;
}

const CORPUS: [string, string][] = [
  ['x_prom_prometheus_query_range', 'Run a PromQL range query against Prometheus and return the series.'],
  ['x_grafana_metrics_overview', 'Show an overview dashboard of service metrics.'],
  ['x_k8s_service_restart', 'Restart a Kubernetes service by rolling its pods.'],
  ['x_k8s_list_pods', 'List pods in a namespace.'],
  ['x_gh_list_issues', 'List issues of a GitHub repository.'],
  ['x_gh_get_issue', 'Get one GitHub issue by number.'],
  ['x_fs_readFile', 'Read a file from disk.'],
  ['x_db_query', 'Run a SQL query against the database.'],
];

describe('filter_tools query ranking (field-weighted BM25 over name and summary)', () => {
  const catalogue = corpus(CORPUS);
  const index = buildIndex(catalogue.all(), catalogue.version);
  const names = (query: string) => rank(index, query, catalogue.all()).map((s) => s.entry.name);

  it('splits names on _ - . and camelCase, lower-cased, plural folded', () => {
    expect(tokenize('x_fs_readFile')).to.deep.equal(['fs', 'read', 'file']);
    expect(tokenize('getIssueComments.v2-beta')).to.deep.equal(['get', 'issue', 'comment', 'v2', 'beta']);
    expect(tokenize('list_pods')).to.deep.equal(['list', 'pod']);
  });

  it('"prometheus metrics query": the tool matching prometheus and query in its name ranks first; no-match tools are dropped', () => {
    const r = names('prometheus metrics query');
    // prometheus_query_range matches two terms in its (heavier) name; metrics_overview one.
    expect(r[0]).to.equal('x_prom_prometheus_query_range');
    expect(r.indexOf('x_prom_prometheus_query_range')).to.be.below(r.indexOf('x_grafana_metrics_overview'));
    // service_restart matches no query term at all.
    expect(r).to.not.include('x_k8s_service_restart');
  });

  it('weighs a name match above a summary-only match', () => {
    // Both mention pods; list_pods in its name, service_restart only in its summary.
    expect(names('pods')).to.deep.equal(['x_k8s_list_pods', 'x_k8s_service_restart']);
  });

  it('down-weights common verbs rather than dropping them', () => {
    const r = rank(index, 'list issues', catalogue.all());
    // Both issue tools match "issue"; list_issues also matches the (down-weighted) verb.
    expect(r.map((s) => s.entry.name).slice(0, 2)).to.deep.equal(['x_gh_list_issues', 'x_gh_get_issue']);
    const verbOnly = rank(index, 'list', catalogue.all());
    expect(verbOnly.length).to.be.greaterThan(0);
    const nounOnly = rank(index, 'issues', catalogue.all());
    expect(verbOnly[0]!.score).to.be.below(nounOnly[0]!.score);
  });

  it('keeps catalogue order among equal scores and reports scores best first', () => {
    const r = rank(index, 'github issue', catalogue.all());
    const scores = r.map((s) => s.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
  });

  it('ranks only the candidates it is given (toolset narrowing comes first)', () => {
    const only = catalogue.all().filter((e) => e.name.startsWith('x_gh_'));
    expect(rank(index, 'prometheus query', only)).to.deep.equal([]);
  });
});
