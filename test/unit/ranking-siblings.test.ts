/**
 * A sentence of a tool's description that names another tool of its server is about that
 * tool (ranking/siblings.ts): "Use 'write_pdf' for all PDF creation tasks" in write_file's
 * description made write_file a PDF writer.
 */
import { expect } from 'chai';
import { isNameShaped, withoutSiblingSentences } from '../../plugins/meta-tools/ranking/siblings.js';
import { expectEachFloodWithin } from '../support/floods.js';
import { firstRanked, toolCorpus } from '../support/tool-corpus.js';

describe("filter_tools: a sentence naming a sibling tool is not the describing tool's own", () => {
  const names = new Set(['write_file', 'write_pdf', 'list_accounts', 'readArticle']);

  it("leaves out the sentences that name another of the server's tools, and keeps its own name", () => {
    expect(withoutSiblingSentences("Write a file. Use 'write_pdf' for all PDF creation tasks. Overwrites.", names, 'write_file')).to.equal(
      'Write a file. Overwrites.',
    );
    expect(withoutSiblingSentences('Create a PDF.\nUnlike write_file, it lays out pages.', names, 'write_pdf')).to.equal('Create a PDF.');
    expect(withoutSiblingSentences('Call write_file again to append.', names, 'write_file')).to.equal('Call write_file again to append.');
    expect(withoutSiblingSentences('Fetch it. Then readArticle it.', names, 'list_accounts')).to.equal('Fetch it.');
  });

  it('reads only name-shaped names: a tool called "search" is a word in prose', () => {
    expect(isNameShaped('list_accounts')).to.equal(true);
    expect(isNameShaped('hubspot-list-objects')).to.equal(true);
    expect(isNameShaped('readArticle')).to.equal(true);
    expect(isNameShaped('search')).to.equal(false);
    expect(withoutSiblingSentences('Search the web. Then search again.', new Set(['search', 'fetch_page']), 'fetch_page')).to.equal(
      'Search the web. Then search again.',
    );
  });

  it('ranks the tool that does what a request asks above the one whose description points to it', () => {
    const first = firstRanked(
      toolCorpus([
        ['x_desk_write_file', "Write or overwrite a text file. Use 'write_pdf' for all PDF creation tasks.", 'desk'],
        ['x_desk_write_pdf', 'Create a new document from markdown content.', 'desk'],
      ]),
    );
    expect(first('create a PDF of this report')).to.equal('x_desk_write_pdf');
  });

  it('reads a description of 100,000 characters in linear time', () => {
    expectEachFloodWithin(['a_'.repeat(50_000), 'a. '.repeat(33_000), 'aB'.repeat(50_000), `${'x_y '.repeat(25_000)}.`], 500, (text) =>
      withoutSiblingSentences(text, names, 'write_file'),
    );
  });
});
