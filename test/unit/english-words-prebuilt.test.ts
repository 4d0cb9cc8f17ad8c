/**
 * The English words' filter as spelling correction reads it
 * (plugins/meta-tools/ranking/english.ts): the build's copy holds the very filter the word list
 * gives, and a copy made from another list or by other code, or none at all, is never used.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ENGLISH_WORDS_FILE, EnglishWords, englishWords, FILTER_FILE, prebuiltFilter, writeEnglishFilter } from '../../plugins/meta-tools/ranking/english.js';
import { ROOT } from '../support/harness.js';

describe('English words, their filter built by the build', function () {
  this.timeout(60_000);
  let words: string;
  let dir: string;
  before(async () => {
    words = await readFile(join(ROOT, ENGLISH_WORDS_FILE), 'utf8');
    dir = await mkdtemp(join(tmpdir(), 'switchboard-english-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("the copy the build writes is read back, byte for byte the filter the list gives; the process's own filter is that one", async () => {
    const built = new EnglishWords(words).filter;
    const file = join(dir, 'english-words.bloom');
    await writeEnglishFilter(file);
    expect(Buffer.from(prebuiltFilter(file, words)!).equals(Buffer.from(built))).to.equal(true);
    // The build of this suite wrote one beside the module, and the process reads it.
    expect(prebuiltFilter(FILTER_FILE, words), 'npm run build writes dist/plugins/meta-tools/ranking/english-words.bloom').to.not.equal(undefined);
    expect(Buffer.from(englishWords()!.filter).equals(Buffer.from(built))).to.equal(true);
  });

  it('answers the same words from the copy as from the list, inflections included', async () => {
    const file = join(dir, 'answers.bloom');
    await writeEnglishFilter(file);
    const copy = new EnglishWords(prebuiltFilter(file, words)!);
    const list = new EnglishWords(words);
    for (const w of ['lawyer', 'sprint', 'players', 'elections', 'wrote', 'tried', 'screnshot', 'repositry', 'zqxv', 'serach'])
      expect(copy.has(w), w).to.equal(list.has(w));
  });

  it('a copy from another word list or other code, or none, is not used', async () => {
    const file = join(dir, 'stale.bloom');
    await writeEnglishFilter(file);
    expect(prebuiltFilter(file, `${words}zebroid\n`)).to.equal(undefined);
    const copy = await readFile(file);
    const newline = copy.indexOf(10);
    await writeFile(file, Buffer.concat([Buffer.from(`# ${'0'.repeat(64)}`), copy.subarray(newline)]));
    expect(prebuiltFilter(file, words)).to.equal(undefined);
    await writeFile(file, copy.subarray(0, newline + 1));
    expect(prebuiltFilter(file, words), 'a header without a filter').to.equal(undefined);
    expect(prebuiltFilter(join(dir, 'missing.bloom'), words)).to.equal(undefined);
  });
});
