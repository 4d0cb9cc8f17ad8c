/**
 * WordNet's related words as ranking reads them (plugins/meta-tools/ranking/related.ts): the
 * table cut to a catalogue is the same, in the same order, whether the build stemmed and turned
 * the word list or the process did, and as every word stemmed at each build gave it; a copy made
 * from another word list, stemmer or layout is never used.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { invertLines, prebuiltCopy, relatedTable, RELATED_WORDS_FILE, stemLines, writeInvertedTable } from '../../plugins/meta-tools/ranking/related.js';
import { stem } from '../../plugins/meta-tools/stem.js';
import { ROOT } from '../support/harness.js';

/** The table as ranking defined it before any copy existed: every word stemmed at each build. */
function reference(words: string, known: (term: string) => boolean): Map<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const line of words.split('\n')) {
    const [head, ...rest] = line.split(' ');
    if (!head || rest.length === 0) continue;
    const key = stem(head);
    let list = out.get(key);
    for (const r of rest) {
      const s = stem(r);
      if (s === key || !known(s) || list?.includes(s)) continue;
      if (!list) out.set(key, (list = []));
      list.push(s);
    }
  }
  return out;
}

describe('related words, stemmed by the build', function () {
  this.timeout(60_000);
  let words: string;
  let dir: string;
  before(async () => {
    words = await readFile(join(ROOT, RELATED_WORDS_FILE), 'utf8');
    dir = await mkdtemp(join(tmpdir(), 'switchboard-related-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('cut to a catalogue, the table is the one stemming every word at each build gave', () => {
    const catalogues: ((term: string) => boolean)[] = [() => true, (t) => t.length % 3 === 0, (t) => /^(fil|read|writ|stor|memor|remember|sav|not)/.test(t)];
    for (const known of catalogues) {
      const expected = reference(words, known);
      expect(expected.size).to.be.greaterThan(0);
      // Deep equality of the entries' arrays: keys and each key's relatives in the same order.
      expect([...relatedTable(known)]).to.deep.equal([...expected]);
    }
  });

  it('the copy the build writes is read back; one from another word list or stemmer, or none, is not', async () => {
    const file = join(dir, 'related-inverted.txt');
    await writeInvertedTable(file);
    expect(prebuiltCopy(file, words)).to.equal(invertLines(stemLines(words)));
    expect(prebuiltCopy(file, `${words}\nzebra equine`)).to.equal(undefined);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/^# [0-9a-f]+/, `# ${'0'.repeat(64)}`));
    expect(prebuiltCopy(file, words)).to.equal(undefined);
    expect(prebuiltCopy(join(dir, 'missing.txt'), words)).to.equal(undefined);
  });
});
