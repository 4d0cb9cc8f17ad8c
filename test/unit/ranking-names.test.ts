/**
 * A tool's own name (plugins/meta-tools/ranking/name-forms.ts, name-cover.ts): among tools a
 * stemmed match found alike, the one whose name holds the request's words in the form the
 * request wrote them ranks first, and so does the one whose whole name the request says.
 */
import { expect } from 'chai';
import { indexFor } from '../../plugins/meta-tools/ranking.js';
import { NameForms } from '../../plugins/meta-tools/ranking/name-forms.js';
import { stem } from '../../plugins/meta-tools/stem.js';
import { rankedNames, toolCorpus } from '../support/tool-corpus.js';

describe("ranking: a tool's name as written", () => {
  const c = toolCorpus([
    ['x_gh_get_issue', 'Get an issue of a repository.', 'gh'],
    ['x_gh_list_issues', 'List issues of a repository.', 'gh'],
  ]);
  const names = rankedNames(c);

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

describe("ranking: a tool's name the request accounts for word by word", () => {
  const c = toolCorpus([
    ['x_gh_get_pull_request_reviews', 'Get the reviews of a pull request.', 'gh'],
    ['x_gh_list_pull_requests', 'List the pull requests of a repository.', 'gh'],
    ['x_asana_asana_create_task', 'Create a task.', 'asana'],
    ['x_asana_asana_create_task_story', 'Create a story on a task.', 'asana'],
  ]);
  const idx = indexFor(c);
  const names = rankedNames(c);
  const doc = (name: string) => c.all().findIndex((e) => e.name === name);
  const termsOf = (...words: string[]) => new Set(words.map((w) => idx.postings.ids.get(stem(w))!));

  it('ranks first the tool whose whole name the request says, through the words it relates ("show" is list)', () => {
    // Without the bonus get_pull_request_reviews led: its description is the shorter.
    expect(names('show the pull request')[0]).to.equal('x_gh_list_pull_requests');
  });

  it("counts a name covered only when every word is asked, its server's name aside", () => {
    expect(idx.nameCover.covered(doc('x_asana_asana_create_task'), termsOf('create', 'task'))).to.equal(true);
    expect(idx.nameCover.covered(doc('x_asana_asana_create_task_story'), termsOf('create', 'task'))).to.equal(false);
    expect(idx.nameCover.covered(doc('x_gh_list_pull_requests'), termsOf('pull', 'request'))).to.equal(false);
  });
});
