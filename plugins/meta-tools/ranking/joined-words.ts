/**
 * Two words of a request that the catalogue writes as one: "data source" for Grafana's
 * "datasource", "time sheet" for "timesheet", "back up" for "backup". The index splits a
 * glued name token into words the catalogue uses (compound.ts), but not a word its prose
 * writes whole: Grafana's descriptions say "datasource", so "get_datasource_by_name" holds
 * that term and no "data" or "source", and "the settings of the prometheus-prod data source"
 * ranked it 87th behind Notion's data-source tools. Each pair of neighbouring request words
 * whose joined form is a catalogue term adds that term; the two words stay terms as well, so
 * a tool that writes them apart still matches them.
 *
 * Only forms the catalogue writes whole in lower case, in a name, summary or description, and
 * that split into two of its words: an input schema's camelCase identifiers ("resourceType",
 * "cardId", "newName") are not compounds a person splits, and joining "resource types" to
 * them ranked tools by their parameters (measured on the set: "which resource types does this
 * cluster support" fell from 5th to 7th).
 */
import { MAX_COMPOUND_LENGTH } from '../compound.js';
import { stem } from '../stem.js';

/** A joined form shorter than this is too often two unrelated short words ("an" + "other"). */
const MIN_JOINED = 6;
/** Only words of letters: a value or a number glued to a word is no compound. */
const LETTERS = /^[a-z]{2,}$/;

/** A word written whole: letters not touching other letters, at most its first a capital. */
const WHOLE_WORD = /(?<![A-Za-z])[A-Z]?[a-z]{5,}(?![A-Za-z])/g;

/**
 * The search terms (stemmed by `stemOf`) of the words `texts` write whole that are two words
 * of `vocabulary` glued: what a request's neighbouring words may be joined to.
 */
export function wholeCompounds(texts: Iterable<string>, vocabulary: ReadonlySet<string>, stemOf: (word: string) => string): Set<string> {
  const checked = new Set<string>();
  const out = new Set<string>();
  for (const text of texts) {
    for (const [match] of text.matchAll(WHOLE_WORD)) {
      const word = match.toLowerCase();
      // A longer run of letters is no compound (compound.ts), and each split point slices it.
      if (word.length < MIN_JOINED || word.length > MAX_COMPOUND_LENGTH || checked.has(word)) continue;
      checked.add(word);
      for (let i = 2; i <= word.length - 2; i++) {
        if (vocabulary.has(word.slice(0, i)) && vocabulary.has(word.slice(i))) {
          out.add(stemOf(word));
          break;
        }
      }
    }
  }
  return out;
}

export interface JoinedWord {
  /** The two words as one, lower case, as a tool's name would write it. */
  word: string;
  /** Its search term (stemmed), which the catalogue holds. */
  term: string;
}

/**
 * The joined forms of neighbouring `words` (a request's words, stop words already out) that
 * are among `compounds` (wholeCompounds) and not already among `terms`.
 */
export function joinedWords(words: readonly string[], terms: readonly string[], compounds: ReadonlySet<string>): JoinedWord[] {
  const out: JoinedWord[] = [];
  const seen = new Set(terms);
  for (let i = 1; i < words.length; i++) {
    const a = words[i - 1]!;
    const b = words[i]!;
    if (a === b || a.length + b.length < MIN_JOINED || a.length + b.length > MAX_COMPOUND_LENGTH || !LETTERS.test(a) || !LETTERS.test(b)) continue;
    const word = a + b;
    const term = stem(word);
    if (seen.has(term) || !compounds.has(term)) continue;
    seen.add(term);
    out.push({ word, term });
  }
  return out;
}
