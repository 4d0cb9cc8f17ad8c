/**
 * Related words from WordNet: the table plugins/meta-tools/ranking/related-words.txt, made by
 * scripts/build-related-words.js from Debian's wordnet-base (WordNet 3.0) and committed, so
 * neither the build nor a running Switchboard needs WordNet. Each line is a common English
 * word and its synonyms and derivationally related words in its most frequent senses
 * ("delete erase edit deletion"). A query word also looks for these at RELATED_WEIGHT, below
 * the word itself and below the intent table; only words the catalogue actually holds are
 * ever scored, since an expansion without postings costs one failed map lookup.
 *
 * The text (about 16,000 lines, 0.55 MB) is read once, on the first index build, and kept;
 * each index build cuts it to the relatives its catalogue holds (relatedTable). When the file
 * is missing (an installation without it) ranking goes on without relatives and says so once
 * as a process warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../kernel/index.js';
import { stem } from '../stem.js';

export const RELATED_WEIGHT = 0.2;
export const RELATED_WORDS_FILE = join('plugins', 'meta-tools', 'ranking', 'related-words.txt');

let text: string | undefined;

function read(): string {
  if (text !== undefined) return text;
  try {
    text = readFileSync(join(packageRoot(), RELATED_WORDS_FILE), 'utf8');
  } catch (err) {
    process.emitWarning(`filter_tools ranks without WordNet's related words: cannot read ${RELATED_WORDS_FILE} (${(err as Error).message})`);
    text = '';
  }
  return text;
}

/**
 * The table cut to one catalogue: stemmed headword -> its stemmed relatives that the
 * catalogue holds (`known`). Built with each index, so memory follows what can ever match
 * (a relative the catalogue never uses could not score), not the 16,000 lines.
 */
export function relatedTable(known: (term: string) => boolean): Map<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const stems = new Map<string, string>();
  const stemOf = (w: string): string => {
    let s = stems.get(w);
    if (s === undefined) stems.set(w, (s = stem(w)));
    return s;
  };
  for (const line of read().split('\n')) {
    const [head, ...rest] = line.split(' ');
    if (!head || rest.length === 0) continue;
    const key = stemOf(head);
    let list = out.get(key);
    for (const r of rest) {
      const s = stemOf(r);
      if (s === key || !known(s) || list?.includes(s)) continue;
      if (!list) out.set(key, (list = []));
      list.push(s);
    }
  }
  return out;
}
