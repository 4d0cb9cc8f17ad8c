/**
 * How people type to an agent in a hurry (ranking/shorthand.ts, the intent table's shell
 * commands): chat shorthand reads as what it stands for, a shell command as the act it is.
 */
import { expect } from 'chai';
import { queryWords } from '../../plugins/meta-tools/ranking/words.js';
import { firstRanked, toolCorpus } from '../support/tool-corpus.js';

describe('filter_tools: chat shorthand and shell commands', () => {
  it('reads chat shorthand as what it stands for; politeness and asides go', () => {
    expect(queryWords('cal for tmrw pls')).to.deep.equal(['calendar', 'tomorrow']);
    expect(queryWords('wats the time in tokyo rn')).to.deep.equal(['time', 'tokyo', 'now']);
    expect(queryWords('dm the lead, fyi the msg is long')).to.deep.equal(['send', 'direct', 'message', 'lead', 'message', 'long']);
    expect(queryWords('any open PRs on the repo')).to.deep.equal(['open', 'pull', 'requests', 'repo']);
    expect(queryWords('gimme the users tbl w/o the ids')).to.deep.equal(['give', 'users', 'table', 'without', 'ids']);
    expect(queryWords('tl;dr of the k8s docs')).to.deep.equal(['summary', 'kubernetes', 'docs']);
    expect(queryWords('open a GH issue, kube logs, gcal today')).to.deep.equal(['create', 'github', 'issue', 'kubernetes', 'logs', 'calendar', 'today']);
  });

  it('leaves what is not shorthand as typed: a word that contains one, and ambiguous forms', () => {
    expect(queryWords('the direction of the calendar')).to.deep.equal(['direction', 'calendar']);
    expect(queryWords('min and pwd')).to.deep.equal(['min', 'pwd']);
    // "k" is kubectl only before a kubectl command.
    expect(queryWords('k get pods in staging')).to.deep.equal(['kubectl', 'get', 'pods', 'staging']);
    expect(queryWords('a 5k run, k and more')).to.deep.equal(['5', 'k', 'run', 'k', 'more']);
    expect(queryWords('constructor')).to.deep.equal(['constructor']);
  });

  it('ranks by the act a shell command names: ls lists, mkdir creates a directory, grep searches, tail reads logs', () => {
    const catalogue = toolCorpus([
      ['x_fs_list_directory', 'List the files and directories in a path.', 'fs'],
      ['x_fs_create_directory', 'Create a new directory.', 'fs'],
      ['x_fs_read_file', 'Read a file from disk.', 'fs'],
      ['x_code_search_code', 'Search code in the repository for text.', 'code'],
      ['x_k8s_pod_logs', 'Get the log of a pod.', 'k8s'],
      ['x_src_sources', 'Sources of a build: src and lib.', 'src'],
      ['x_notes_todo', 'Keep TODO notes.', 'notes'],
    ]);
    const first = firstRanked(catalogue);
    expect(first('ls the src dir')).to.equal('x_fs_list_directory');
    expect(first('mkdir tmp/exports')).to.equal('x_fs_create_directory');
    expect(first('grep the repo for TODO')).to.equal('x_code_search_code');
    expect(first('tail the api pod')).to.equal('x_k8s_pod_logs');
  });
});
