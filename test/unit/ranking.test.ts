import { expect } from 'chai';
import type { Catalogue } from '../../kernel/catalogue.js';
import { CompoundSplitter, MAX_COMPOUND_LENGTH } from '../../plugins/meta-tools/compound.js';
import { buildIndex, MAX_INDEXED_DESCRIPTION, rank, tokenize, words } from '../../plugins/meta-tools/ranking.js';
import { stem } from '../../plugins/meta-tools/stem.js';
import { toolCorpus, type CorpusTool } from '../support/tool-corpus.js';

/** The tools of one server, `s`. */
function corpus(tools: [string, string][]): Catalogue {
  return toolCorpus(tools.map(([name, description]): CorpusTool => [name, description, 's']));
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

  it('splits names on _ - . and camelCase, acronyms and digits, lower-cased; terms are stemmed', () => {
    expect(words('x_fs_readFile')).to.deep.equal(['fs', 'read', 'file', 'readfile']);
    expect(words('getIssueComments.v2-beta')).to.deep.equal(['get', 'issue', 'comments', 'getissuecomments', 'v', '2', 'beta']);
    expect(words('parseHTTPResponse base64')).to.deep.equal(['parse', 'http', 'response', 'parsehttpresponse', 'base', '64']);
    // An acronym's plural is one word: "URLs" was "ur" and "ls", a directory listing.
    expect(words('Fetch URLs by their IDs, getURLsFor, open PRs')).to.deep.equal(['fetch', 'urls', 'ids', 'get', 'urls', 'geturlsfor', 'open', 'prs']);
    expect(tokenize('URLs UUIDs')).to.deep.equal(['url', 'uuid']);
    expect(tokenize('x_fs_readFile')).to.deep.equal(['fs', 'read', 'fil', 'readfil']);
    // A camelCase run is one word too: a brand written GitHub in prose is github in a request.
    expect(words('on GitHub or YouTube, in JavaScript')).to.deep.equal(['git', 'hub', 'github', 'tube', 'youtube', 'java', 'script', 'javascript']);
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

  it('reads "check" as the common verb it is in requests: the noun decides, not a rare check_* name', () => {
    const tools = corpus([
      ['x_mail_check_health', 'Check whether the mail server is healthy.'],
      ['x_mail_list_emails', 'List the emails in the inbox.'],
      ['x_mail_list_labels', 'List the labels of the account.'],
    ]);
    const r = rank(buildIndex(tools.all(), tools.version), 'check my inbox', tools.all());
    expect(r[0]!.entry.name).to.equal('x_mail_list_emails');
  });

  it('finds a brand written in camelCase by its one-word name: "javascript" meets "JavaScript"', () => {
    const tools = corpus([
      ['x_web_evaluate', 'Evaluate JavaScript in the page.'],
      ['x_web_script_tag', 'List the script tags of the page.'],
    ]);
    expect(rank(buildIndex(tools.all(), tools.version), 'run javascript', tools.all())[0]!.entry.name).to.equal('x_web_evaluate');
  });

  it('reports scores best first and orders equal scores by name', () => {
    const r = rank(index, 'github issue', catalogue.all());
    const scores = r.map((s) => s.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    // Two tools alike but for their names tie, and the name decides, whatever the catalogue order.
    const twins = corpus([
      ['x_s_beta_report', 'Build a report.'],
      ['x_s_alpha_report', 'Build a report.'],
    ]);
    const tied = rank(buildIndex(twins.all(), twins.version), 'report', [...twins.all()].reverse());
    expect(tied.map((s) => s.entry.name)).to.deep.equal(['x_s_alpha_report', 'x_s_beta_report']);
    expect(tied[0]!.score).to.equal(tied[1]!.score);
  });

  it('ranks only the candidates it is given (toolset narrowing comes first)', () => {
    const only = catalogue.all().filter((e) => e.name.startsWith('x_gh_'));
    expect(rank(index, 'prometheus query', only)).to.deep.equal([]);
  });
});

describe('search terms: a conservative stemmer applied to queries and documents alike', () => {
  const same = (...forms: string[]) => expect(new Set(forms.map(stem)).size, forms.join(' / ')).to.equal(1);

  it('folds plurals: -s, -es after s/x/z/ch/sh, -ies to -y', () => {
    same('step', 'steps');
    same('search', 'searches');
    same('box', 'boxes');
    same('entity', 'entities');
    same('directory', 'directories');
  });

  it('folds -ing and -ed, undoubling a consonant the inflection doubled but not l, s or z', () => {
    same('think', 'thinking', 'thinks');
    same('read', 'reading');
    same('run', 'running');
    same('stop', 'stopped', 'stopping');
    same('call', 'calling', 'called');
    same('pass', 'passed');
  });

  it('meets -ate verbs with their -ation nouns, and drops a silent final e', () => {
    same('validate', 'validation', 'validating', 'validated');
    same('create', 'creating', 'created', 'creation');
    same('file', 'files');
    same('size', 'sizes');
  });

  it('leaves short words, -ss/-us/-is endings, and stems that would lose their vowel alone', () => {
    for (const w of ['bus', 'status', 'analysis', 'process', 'string', 'need', 'thing', 'using', 'v2', '64']) expect(stem(w), w).to.equal(w);
  });
});

describe("compound name tokens split into the catalogue's own words", () => {
  it('splits a glued name into words the vocabulary holds, allowing one unknown stretch', () => {
    const splitter = new CompoundSplitter(new Set(['read', 'file', 'thinking', 'system', 'multiple', 'files']), new Set());
    expect(splitter.split('readfile')).to.deep.equal(['read', 'file']);
    expect(splitter.split('readmultiplefiles')).to.deep.equal(['read', 'multiple', 'files']);
    // "sequential" is nowhere in this vocabulary, "thinking" is: the rest is the other word.
    expect(splitter.split('sequentialthinking')).to.deep.equal(['sequential', 'thinking']);
  });

  it('does not split words the catalogue uses as words, tokens of no known part, or overlong tokens', () => {
    const vocabulary = new Set(['every', 'thing', 'everything', 'data', 'base']);
    const splitter = new CompoundSplitter(vocabulary, new Set(['everything']));
    expect(splitter.split('everything')).to.equal(undefined);
    expect(splitter.split('kubernetes')).to.equal(undefined);
    // Two unknown stretches are no compound of this catalogue.
    expect(splitter.split('quuxdatafrobnicate')).to.equal(undefined);
    expect(splitter.split('database')).to.deep.equal(['data', 'base']);
    const long = 'data'.repeat(MAX_COMPOUND_LENGTH / 4 + 1);
    expect(splitter.split(long)).to.equal(undefined);
  });

  it('ranks a compound-named tool for a query in plain words, the compound built from the catalogue at index time', () => {
    const c = corpus([
      ['x_thinking_sequentialthinking', 'A tool for reflective problem-solving through thoughts.\nHelps with thinking through problems step by step.'],
      ['core_workflow_update', 'Update a workflow: steps replace all steps.'],
      ['x_fs_readfile', 'Read a file from disk.'],
    ]);
    const index = buildIndex(c.all(), c.version);
    expect(rank(index, 'sequential thinking', c.all())[0]!.entry.name).to.equal('x_thinking_sequentialthinking');
    expect(rank(index, 'think step by step', c.all())[0]!.entry.name).to.equal('x_thinking_sequentialthinking');
    expect(index.postings.ids.has('sequential')).to.equal(true);
  });
});

describe('the description as a third field', () => {
  it('finds a tool by words only its full description has, below a tool with them in name or summary', () => {
    const c = corpus([
      ['x_a_tool', 'Does a thing.\nWhen to use: breaking down complex problems into steps.'],
      ['x_b_problem_steps', 'Plans problem steps.'],
      ['x_c_other', 'Unrelated.'],
    ]);
    const r = rank(buildIndex(c.all(), c.version), 'complex problems', c.all()).map((s) => s.entry.name);
    expect(r).to.include('x_a_tool');
    expect(r).to.not.include('x_c_other');
    const prob = rank(buildIndex(c.all(), c.version), 'problem steps', c.all()).map((s) => s.entry.name);
    expect(prob[0]).to.equal('x_b_problem_steps');
  });

  it('indexes at most MAX_INDEXED_DESCRIPTION characters of a description (an upstream cannot bloat the index)', () => {
    const c = corpus([['x_huge_tool', `Huge.\n${'filler '.repeat(MAX_INDEXED_DESCRIPTION / 7)} needleword`]]);
    const index = buildIndex(c.all(), c.version);
    expect(index.postings.ids.has(stem('filler'))).to.equal(true);
    expect(index.postings.ids.has(stem('needleword'))).to.equal(false);
  });
});
