import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, eventually, meta, ROOT, startSwitchboard, stdioServer, type Files, type Running } from '../support/harness.js';

interface Found {
  tools: { name: string; score?: number; kind?: string }[];
  total: number;
}

/**
 * A Switchboard aggregating the real tool lists of `servers`, replayed from bench/devset/catalog
 * exactly as the packages ship them, and a client on it, once every server's tools are listed.
 */
async function replayed(servers: string[]): Promise<{ sb: Running; client: Client }> {
  const replay = join(ROOT, 'dist/bench/devset/replay-server.js');
  const files: Files = {};
  for (const s of servers) files[`mcpservers/${s}.yaml`] = stdioServer(s, replay, [join(ROOT, 'bench/devset/catalog', `${s}.json`)]);
  const sb = await startSwitchboard(files, { args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 });
  const client = await connectHttp(sb.url);
  await eventually(
    async () => (await meta<Found>(client, 'filter_tools', { pattern: 'x_*', limit: 500, offset: 0 })).tools.map((t) => t.name),
    (names) => servers.every((s) => names.some((n) => n.startsWith(`x_${s}_`))),
    30_000,
  );
  return { sb, client };
}

/**
 * Issue 37's new user, through the real protocol: Switchboard aggregates the real tool lists of
 * server-everything, -memory, -filesystem, -sequential-thinking, time-mcp, server-github and
 * Slack's server, and the plain requests that used to find a demo tool, a core tool or a
 * deprecated tool first now find the tool the person meant.
 */
describe('filter_tools query understands plain requests (replayed everything, memory, filesystem, sequential-thinking, time, github, slack)', () => {
  let sb: Running;
  let client: Client;
  const search = async (args: Record<string, unknown>) => meta<Found>(client, 'filter_tools', { limit: 10, offset: 0, ...args });
  const top = async (query: string) => (await search({ query })).tools.map((t) => t.name);

  before(async () => {
    ({ sb, client } = await replayed(['everything', 'memory', 'filesystem', 'thinking', 'time', 'github', 'slack']));
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  const memoryWrites = ['x_memory_create_entities', 'x_memory_add_observations'];
  for (const query of ['remember something about a person', 'remember a fact about someone', 'store a note', 'save information for later']) {
    it(`"${query}" gives a memory-writing tool first, and no core tool in the top five`, async () => {
      const r = await top(query);
      expect(memoryWrites, r.join(', ')).to.include(r[0]);
      expect(r.slice(0, 5).filter((n) => n.startsWith('core_'))).to.deep.equal([]);
    });
  }

  it('"what is in my notes.txt" reads the file with read_text_file first (a file name asks for a file), no core tool in the top five', async () => {
    const r = await top('what is in my notes.txt');
    expect(r[0], r.join(', ')).to.equal('x_filesystem_read_text_file');
    expect(r.slice(0, 5).filter((n) => n.startsWith('core_'))).to.deep.equal([]);
  });

  it('a path names a file or a folder, not the words of its segments: "~/.bashrc" is read, "/var/log" listed', async () => {
    // Before: "~/.bashrc" found nothing at all, "/var/log" a demo server's logging switch first.
    expect((await top('what is in ~/.bashrc'))[0]).to.equal('x_filesystem_read_text_file');
    const listing = await top('list the files in /var/log');
    expect(listing[0], listing.join(', ')).to.equal('x_filesystem_list_directory');
    expect(listing.slice(0, 5)).to.not.include('x_everything_toggle-simulated-logging');
  });

  it('a misspelt request finds what the spelt one finds: "serach the repositry for open isues", "list the diretcory"', async () => {
    // Before: memory's open_nodes first (from "open"), and GitHub's commit list first.
    const issues = await top('serach the repositry for open isues');
    expect(issues[0], issues.join(', ')).to.equal('x_github_search_issues');
    const listing = await top('list the diretcory');
    expect(listing[0], listing.join(', ')).to.equal('x_filesystem_list_directory');
  });

  it('a value reads as its kind: "what\'s 17:45 CET in Los Angeles" converts a time between zones', async () => {
    // Before: "17 45 cet los angeles" found no time tool in the top ten.
    const r = await top("what's 17:45 CET in Los Angeles");
    expect(r[0], r.join(', ')).to.equal('x_time_convert_time');
  });

  it('"9am their time" is a time on another clock, so a matter of time zones; "get rid of" deletes', async () => {
    // Before: "time time chicago" ranked convert_time below the clocks that read the current time.
    const r = await top("I have a call at 9am their time with the Berlin office and I'm in Chicago");
    expect(r[0], r.join(', ')).to.equal('x_time_convert_time');
    const forget = await top('get rid of what you know about Bob');
    expect(forget[0], forget.join(', ')).to.match(/^x_memory_delete_/);
  });

  it('"remember that ..." keeps a fact: the fact\'s own words (a GitHub release, a Slack channel) ask for nothing', async () => {
    const r = await top('Remember that the next release of the github repo ships on Friday and that #general gets the notes');
    expect(memoryWrites, r.join(', ')).to.include(r[0]);
  });

  it('"file an issue on GitHub about the flaky test" makes an issue: filing one is no file tool', async () => {
    const r = await top('file an issue on GitHub about the flaky test');
    expect(r[0], r.join(', ')).to.equal('x_github_create_issue');
  });

  it('"what has been said in #general today" reads the Slack channel\'s history first: "#general" names a channel', async () => {
    const r = await top('what has been said in #general today');
    expect(r[0], r.join(', ')).to.equal('x_slack_slack_get_channel_history');
  });

  it('a question about a set lists it: "which channels do we have in Slack", "are there any issues labelled bug"', async () => {
    const channels = await top('which channels do we have in Slack');
    expect(channels[0], channels.join(', ')).to.equal('x_slack_slack_list_channels');
    const issues = await top('are there any issues labelled bug');
    expect(issues[0], issues.join(', ')).to.equal('x_github_list_issues');
  });

  it('"read a file" gives read_text_file first and the deprecated read_file ("DEPRECATED: Use read_text_file instead") below it', async () => {
    // Deeper than ten: a deprecated tool only has to stay findable below its replacement.
    const r = (await search({ query: 'read a file', limit: 50 })).tools.map((t) => t.name);
    expect(r[0]).to.equal('x_filesystem_read_text_file');
    expect(r).to.include('x_filesystem_read_file');
    expect(r.indexOf('x_filesystem_read_file')).to.be.above(r.indexOf('x_filesystem_read_text_file'));
  });

  it('core tools rank when the query is about Switchboard itself, or when only core tools are searched', async () => {
    expect((await top('register a new MCP server in the gateway'))[0]).to.equal('core_mcpserver_create');
    // "save" alone keeps core_config_save out of a mixed answer; a core_* pattern asks for core tools.
    expect(await top('save the configuration')).to.not.include('core_config_save');
    const core = await search({ query: 'save the configuration', pattern: 'core_*' });
    expect(core.tools[0]?.name).to.equal('core_config_save');
  });

  it('orders equal scores by name, and answers the same query the same way every time', async () => {
    const a = await search({ query: 'list', limit: 50 });
    const b = await search({ query: 'list', limit: 50 });
    expect(a.tools.map((t) => t.name)).to.deep.equal(b.tools.map((t) => t.name));
    let ties = 0;
    for (let i = 1; i < a.tools.length; i++) {
      const [prev, next] = [a.tools[i - 1]!, a.tools[i]!];
      expect(prev.score!).to.be.at.least(next.score!);
      if (prev.score === next.score) {
        ties++;
        expect(prev.name < next.name, `${prev.name} before ${next.name} at ${prev.score}`).to.equal(true);
      }
    }
    expect(ties, 'the query has tied scores to order').to.be.above(0);
  });
});

describe('filter_tools query: "log in" is signing in, not a log (replayed playwright, kubernetes, git)', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    // Servers whose tools read logs (kubectl_logs, git_log) beside a browser's.
    ({ sb, client } = await replayed(['playwright', 'kubernetes', 'git']));
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('"log in to the website with my account" gives a browser tool that types or fills a form in the top five, and no log reader', async () => {
    const r = (await meta<Found>(client, 'filter_tools', { query: 'log in to the website with my account', limit: 10, offset: 0 })).tools.map((t) => t.name);
    const fills = r.slice(0, 5).filter((n) => ['x_playwright_browser_type', 'x_playwright_browser_fill_form'].includes(n));
    expect(fills.length, r.join(', ')).to.be.greaterThan(0);
    expect(
      r.slice(0, 5).filter((n) => /log/.test(n)),
      r.join(', '),
    ).to.deep.equal([]);
  });
});

/**
 * Stop 72's everyday words through the real protocol, over the servers whose tools took their
 * places before: a health check, a subtask, a search stopped, a build's status.
 */
describe('filter_tools query reads everyday words for acts (replayed trello, asana, circleci, desktop-commander, calendar, git)', () => {
  let sb: Running;
  let client: Client;
  const top = async (query: string) => (await meta<Found>(client, 'filter_tools', { query, limit: 10, offset: 0 })).tools.map((t) => t.name);

  before(async () => {
    ({ sb, client } = await replayed(['trello', 'asana', 'circleci', 'desktop-commander', 'calendar', 'git']));
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('"is the Trello integration up and responding?" asks for its health first', async () => {
    // Before: the calendar's respond-to-event and git's merge first, the health check 49th of all.
    const r = await top('is the Trello integration up and responding?');
    expect(r[0], r.join(', ')).to.match(/^x_trello_get_health/);
  });

  it('breaking a task into a smaller piece, cancelling a slow search and a green build find their tools in the top five', async () => {
    const cases: [string, string][] = [
      ['break the launch task into a smaller piece for writing the press release', 'x_asana_asana_create_subtask'],
      ['that file search is taking forever, cancel it', 'x_desktop-commander_stop_search'],
      ['is the build green right now?', 'x_circleci_get_latest_pipeline_status'],
    ];
    for (const [query, tool] of cases) {
      const r = await top(query);
      expect(r.slice(0, 5), `${query}: ${r.join(', ')}`).to.include(tool);
    }
  });
});
