/**
 * A tool's own name as written (plugins/meta-tools/ranking/name-forms.ts): among tools a
 * stemmed match found alike, the one whose name holds the request's words in the form the
 * request wrote them ranks first.
 */
import { expect } from 'chai';
import { buildIndex, rank } from '../../plugins/meta-tools/ranking.js';
import { NameForms } from '../../plugins/meta-tools/ranking/name-forms.js';
import { toolCorpus } from '../support/tool-corpus.js';

describe("ranking: a tool's name as written", () => {
  const c = toolCorpus([
    ['x_gh_get_issue', 'Get an issue of a repository.', 'gh'],
    ['x_gh_list_issues', 'List issues of a repository.', 'gh'],
  ]);
  const idx = buildIndex(c.all(), c.version);
  const names = (query: string) => rank(idx, query, c.all()).map((s) => s.entry.name);

  it('orders tools the stems found alike by the form of the word: "issues" lists them, "the issue" gets it', () => {
    expect(names('issues of the repository acme')[0]).to.equal('x_gh_list_issues');
    expect(names('the issue of the repository acme')[0]).to.equal('x_gh_get_issue');
  });

  it('counts each word of a request once per tool, and leaves nothing counted behind for the next request', () => {
    const forms = NameForms.of(c.all());
    const counts = new Uint8Array(2);
    const counted = forms.count(['issues', 'issues', 'list', 'repository'], counts);
    const listIssues = c.all().findIndex((e) => e.name === 'x_gh_list_issues');
    expect(counted).to.deep.equal([listIssues]);
    expect(counts[listIssues]).to.equal(2);
    // What the ranking clears after each request: the same request ranks the same twice.
    expect(names('issues of the repository acme')).to.deep.equal(names('issues of the repository acme'));
  });
});
