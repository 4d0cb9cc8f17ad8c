/**
 * A request naming two tasks ranks each task's tool near the top (ranking.ts, rankEntries; ranking/clauses.ts):
 * without clause ranking the words of one task outweigh the other's and its tools fill the
 * top five.
 */
import { expect } from 'chai';
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { createLogger } from '../../kernel/log.js';
import { clausesOf, MAX_CLAUSES, rankEntries } from '../../plugins/meta-tools/ranking.js';
import { expectEachFloodWithin } from '../support/floods.js';

function catalogueOf(tools: [string, string, string][]): Catalogue {
  const c = new Catalogue(createHooks(), createLogger({ level: 'error' }));
  for (const server of new Set(tools.map(([s]) => s))) {
    c.replaceSource(
      `server:${server}`,
      tools
        .filter(([s]) => s === server)
        .map(([, name, description]) => ({
          name: `x_${server}_${name}`,
          kind: 'tool' as const,
          server,
          description,
          inputSchema: { type: 'object' },
          invoke: async () => ({ content: [] }),
        })),
    );
  }
  return c;
}

const TOOLS: [string, string, string][] = [
  ['github', 'create_issue', 'Create a new issue in a GitHub repository.'],
  ['github', 'update_issue', 'Update an existing issue in a GitHub repository.'],
  ['github', 'get_issue', 'Get the details of one issue of a GitHub repository.'],
  ['github', 'list_issues', 'List the issues of a GitHub repository, with filters.'],
  ['github', 'search_issues', 'Search issues and pull requests across GitHub repositories.'],
  ['github', 'add_issue_comment', 'Add a comment to an issue of a GitHub repository.'],
  ['github', 'list_issue_events', 'List the events of an issue of a GitHub repository.'],
  ['slack', 'post_message', 'Post a new message to a Slack channel.'],
  ['slack', 'list_channels', 'List the public channels of the workspace.'],
  ['weather', 'get_forecast', 'Get the weather forecast for a place.'],
];

describe('filter_tools query ranking: requests that name two tasks', () => {
  const catalogue = catalogueOf(TOOLS);
  const top5 = (query: string) =>
    rankEntries(catalogue, query, catalogue.all())
      .slice(0, 5)
      .map((s) => s.entry.name);

  it('splits a request at "and", "then", commas and semicolons into clauses that each have a word that counts', () => {
    expect(clausesOf('open an issue on GitHub and tell the team on Slack')).to.deep.equal(['open an issue on GitHub', 'tell the team on Slack']);
    expect(clausesOf('clone the repo, then show its history')).to.deep.equal(['clone the repo', 'show its history']);
    expect(clausesOf('read a file; and then delete it')).to.deep.equal(['read a file', 'delete it']);
    // One task: no clauses. A part of stop words only is no clause.
    expect(clausesOf('list open issues')).to.deep.equal([]);
    expect(clausesOf('issues and the')).to.deep.equal([]);
  });

  it(`ranks at most ${MAX_CLAUSES} clauses alone: 100,000 characters of clauses cost ${MAX_CLAUSES} rankings, not 9,000`, () => {
    const flood = 'list files, '.repeat(9_000);
    expect(clausesOf(flood)).to.have.length(MAX_CLAUSES);
    // White space, which the clause break's pattern rescanned from each position of a run
    // (100,000 spaces took seconds) until runs were made single.
    expectEachFloodWithin([flood, 'x' + ' '.repeat(100_000) + 'y', ' ,'.repeat(50_000)], 2_000, (query) => rankEntries(catalogue, query, catalogue.all()));
  });

  it('"open an issue on GitHub and tell the team on Slack": both create_issue and post_message are in the top five', () => {
    const r = top5('open an issue on GitHub and tell the team on Slack');
    expect(r, r.join(', ')).to.include('x_github_create_issue');
    expect(r, r.join(', ')).to.include('x_slack_post_message');
  });

  it("a clause's best tool stays in the top five when the other task's words match a family of near-identical tools", () => {
    // One API operation a tool, as Twilio's 197 are: the first task's words match ten nearly
    // alike, each above the 0.8 of the best a clause's best tool was given (git_reset was 11th).
    const family = ['us1', 'us2', 'eu1', 'eu2', 'ie1', 'de1', 'au1', 'jp1', 'sg1', 'br1'].map((region, i): [string, string, string] => [
      'telephony',
      `DeleteSipIpAccessControlList_${region}`,
      `Telephony API: delete an IP access control list of the SIP domains in ${region}${' as configured'.repeat(i)}`,
    ]);
    const withFamily = catalogueOf([
      ...TOOLS,
      ...family,
      ['git', 'git_reset', 'Reset current HEAD to specified state.'],
      ['git', 'git_log', 'Show the commit logs.'],
    ]);
    const ranked = rankEntries(
      withFamily,
      'delete the old IP access control list of the office SIP trunk, and reset my local branch to match origin',
      withFamily.all(),
    ).map((s) => s.entry.name);
    expect(ranked.slice(0, 5), ranked.slice(0, 12).join(', ')).to.include('x_git_git_reset');
    expect(ranked[0]).to.match(/^x_telephony_DeleteSipIpAccessControlList_/);
  });

  it('a request of one task ranks as before: its best tool first, the other clauses absent', () => {
    expect(top5('create an issue in the GitHub repository')[0]).to.equal('x_github_create_issue');
  });
});
