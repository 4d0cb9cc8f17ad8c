/**
 * Misspelt request words (plugins/meta-tools/ranking/spelling.ts, english.ts): a word that is
 * neither the catalogue's nor English is read as the catalogue term one edit away; a word
 * spelt right, even one the catalogue lacks, is never touched.
 */
import { expect } from 'chai';
import { buildIndex, rank } from '../../plugins/meta-tools/ranking.js';
import { EnglishWords, englishWords } from '../../plugins/meta-tools/ranking/english.js';
import { MAX_CORRECTIONS_PER_QUERY, namesIn, oneEditApart, Spelling } from '../../plugins/meta-tools/ranking/spelling.js';
import { toolCorpus, type CorpusTool } from '../support/tool-corpus.js';
import { expectEachFloodWithin } from '../support/floods.js';

/** Tools named `x_<server>_<name>`, each of its server. */
function catalogueOf(tools: [name: string, description: string][]) {
  const c = toolCorpus(tools.map(([name, description]): CorpusTool => [name, description, name.split('_')[1]!]));
  return { idx: buildIndex(c.all(), c.version), all: c.all() };
}

function ranker(tools: [name: string, description: string][]) {
  const { idx, all } = catalogueOf(tools);
  return (query: string) => rank(idx, query, all).map((s) => s.entry.name);
}

describe('spelling: misspelt request words', () => {
  it('knows one edit: a letter dropped, added or changed, or two neighbours swapped; not two edits, not the same word', () => {
    expect(oneEditApart('screnshot', 'screenshot')).to.equal(true);
    expect(oneEditApart('repositoryy', 'repository')).to.equal(true);
    expect(oneEditApart('calandar', 'calendar')).to.equal(true);
    expect(oneEditApart('dierctory', 'directory')).to.equal(true);
    expect(oneEditApart('drectroy', 'directory')).to.equal(false);
    expect(oneEditApart('folder', 'folder')).to.equal(false);
    expect(oneEditApart('abc', 'abcde')).to.equal(false);
  });

  it('holds WordNet English as a filter: words and their inflections in, misspellings out, about 0.2 % false positives', () => {
    const english = englishWords();
    expect(english, 'the committed list loads').to.not.equal(null);
    for (const w of ['lawyer', 'sprint', 'march', 'house', 'players', 'elections', 'wrote', 'stopped', 'tried', 'kyoto'])
      expect(english!.has(w), w).to.equal(true);
    for (const w of ['screnshot', 'repositry', 'diretcory', 'remmeber', 'serach']) expect(english!.has(w), w).to.equal(false);
    // Strings no list holds: the share the filter takes for words is its false-positive rate.
    let taken = 0;
    for (let i = 0; i < 10_000; i++) if (english!.has(`zq${i.toString(36)}xv`)) taken++;
    expect(taken / 10_000).to.be.below(0.004);
    // A misspelling is looked up with every base form the detachment rules give it: each lookup may be a false positive.
    let slips = 0;
    for (let i = 0; i < 10_000; i++) if (english!.has(`zq${i.toString(36)}xvings`)) slips++;
    expect(slips / 10_000).to.be.below(0.006);
    expect(english!.bytes).to.be.below(160 * 1024);
  });

  it('reads a slip against the words as the catalogue writes them, before their stems: "releaess" is releases, "rememebr" remember', () => {
    const spelling = new Spelling(
      ['releas', 'remember', 'relax'],
      () => 0,
      () => false,
      ['releases', 'remember'],
    );
    // Two edits from the stem "releas", one from the word "releases".
    expect(spelling.correct('releaess', 'releaess')).to.equal('releas');
    expect(spelling.correct('rememebr', 'rememebr')).to.equal('remember');
    // Without the words as written, the stem alone cannot find it.
    expect(
      new Spelling(
        ['releas'],
        () => 0,
        () => false,
      ).correct('releaess', 'releaess'),
    ).to.equal(undefined);
  });

  it('corrects to the preferred term one edit away, in name order on a tie, and leaves known words and short ones alone', () => {
    const spelling = new Spelling(
      ['screenshot', 'scrensho', 'layer', 'print', 'cart', 'card'],
      (t) => (t === 'screenshot' ? 1 : 0),
      (word) => new EnglishWords('lawyer\nsprint\n').has(word),
    );
    expect(spelling.correct('screnshot', 'screnshot')).to.equal('screenshot');
    expect(spelling.correct('lawyer', 'lawyer')).to.equal(undefined);
    expect(spelling.correct('sprint', 'sprint')).to.equal(undefined);
    expect(spelling.correct('cars', 'car'), 'under five letters').to.equal(undefined);
    expect(
      new Spelling(
        ['carts', 'cards'],
        () => 0,
        () => false,
      ).correct('carcs', 'carc'),
    ).to.equal('cards');
  });

  it('ranks a misspelt request as the spelt one, and a request spelt right exactly as before', () => {
    const names = ranker([
      ['x_browser_take_screenshot', 'Take a screenshot of the current page.'],
      ['x_fs_list_directory', 'List the entries of a directory.'],
      ['x_git_list_commits', 'List the commits of a repository.'],
      ['x_gfx_add_layer', 'Add a layer to the drawing.'],
    ]);
    expect(names('take a screnshot of the page')[0]).to.equal('x_browser_take_screenshot');
    expect(names('list the diretcory')[0]).to.equal('x_fs_list_directory');
    expect(names('list the commits in the repositry')[0]).to.equal('x_git_list_commits');
    // "lawyer" is English: not read as "layer".
    expect(names('call my lawyer')).to.not.include('x_gfx_add_layer');
  });

  it('leaves a name alone: a capitalised word inside a sentence, not the first word of one', () => {
    expect([...namesIn('send Alice the report')]).to.deep.equal(['alice']);
    expect([...namesIn('Alice wants the report. Then ask Kevin')]).to.deep.equal(['kevin']);
    expect([...namesIn('Step 1: Invoke the integration')]).to.deep.equal([]);
    expectEachFloodWithin(['x' + ' '.repeat(100_000) + 'Alice', '. '.repeat(50_000) + 'Alice', 'Aaaaa '.repeat(16_000)], 2_000, namesIn);
    const names = ranker([
      ['x_img_slice_image', 'Slice an image into tiles.'],
      ['x_mail_send_email', 'Send an email with an attachment.'],
    ]);
    // "alice" is not English to WordNet, and one edit from "slice".
    expect(names('email Alice the report')).to.deep.equal(['x_mail_send_email']);
    expect(names('email alice the report'), 'lower-cased, it reads as a misspelling').to.include('x_img_slice_image');
  });

  it(`tries at most ${MAX_CORRECTIONS_PER_QUERY} words a query: 100,000 characters of made-up words cost ${MAX_CORRECTIONS_PER_QUERY} scans, not 9,000`, () => {
    const { idx, all } = catalogueOf([['x_fs_list_directory', 'List the entries of a directory.']]);
    const spelling = idx.spelling!;
    const correct = spelling.correct.bind(spelling);
    let tries = 0;
    spelling.correct = (word, term) => (tries++, correct(word, term));
    const made = Array.from({ length: 9_000 }, (_, i) => `qz${i.toString(36).padStart(7, 'x')}`).join(' ');
    const started = process.hrtime.bigint();
    rank(idx, made, all);
    expect(tries).to.equal(MAX_CORRECTIONS_PER_QUERY);
    expect(Number(process.hrtime.bigint() - started) / 1e6).to.be.lessThan(2_000);
  });
});
