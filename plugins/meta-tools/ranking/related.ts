/**
 * Related words from WordNet: the table plugins/meta-tools/ranking/related-words.txt, made by
 * scripts/build-related-words.js from Debian's wordnet-base (WordNet 3.0) and committed, so
 * neither the build nor a running Switchboard needs WordNet. Each line is a common English
 * word and its synonyms and derivationally related words in its most frequent senses
 * ("delete erase edit deletion"). A query word also looks for these at RELATED_WEIGHT, below
 * the word itself and below the intent table; only words the catalogue actually holds are
 * ever scored, since an expansion without postings costs one failed map lookup.
 *
 * Loaded once, on the first index build, as a map from the stemmed headword to its stemmed
 * relatives (about 16,000 lines, 0.55 MB of text). When the file is missing (an installation
 * without it) ranking goes on without relatives and says so once as a process warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../kernel/index.js';
import { stem } from '../stem.js';

export const RELATED_WEIGHT = 0.2;
export const RELATED_WORDS_FILE = join('plugins', 'meta-tools', 'ranking', 'related-words.txt');

let table: Map<string, readonly string[]> | undefined;

function load(): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  let text: string;
  try {
    text = readFileSync(join(packageRoot(), RELATED_WORDS_FILE), 'utf8');
  } catch (err) {
    process.emitWarning(`filter_tools ranks without WordNet's related words: cannot read ${RELATED_WORDS_FILE} (${(err as Error).message})`);
    return out;
  }
  for (const line of text.split('\n')) {
    const [head, ...rest] = line.split(' ');
    if (!head || rest.length === 0) continue;
    const key = stem(head);
    const list = [...(out.get(key) ?? [])];
    for (const r of rest) {
      const s = stem(r);
      if (s !== key && !list.includes(s)) list.push(s);
    }
    out.set(key, list);
  }
  return out;
}

/** WordNet's relatives of one stemmed query term, stemmed; empty when it has none. */
export function relatedOf(term: string): readonly string[] {
  table ??= load();
  return table.get(term) ?? [];
}
