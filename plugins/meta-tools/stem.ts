/**
 * A deliberately small suffix stripper for search terms, applied identically to queries and
 * to the indexed text, so "thinking", "thinks" and "think" meet on one term. It is not a
 * linguistic stemmer: the output only has to agree with itself. Conservative on purpose: a
 * suffix is stripped only when a stem of three or more letters with a vowel remains, so short
 * words ("string", "need", "bus") come through untouched.
 */
const VOWEL = /[aeiouy]/;
/** A doubled final consonant left by -ing/-ed ("running", "stopped"); l, s and z double in the word itself ("calling", "passed"). */
const DOUBLED = /([bcdfghjkmnpqrtvwx])\1$/;

function stemmable(rest: string): boolean {
  return rest.length >= 3 && VOWEL.test(rest);
}

function plural(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 4 && /(?:[sxz]|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function inflection(word: string): string {
  for (const suffix of ['ing', 'ed']) {
    if (!word.endsWith(suffix)) continue;
    const rest = word.slice(0, -suffix.length);
    if (!stemmable(rest)) return word;
    return DOUBLED.test(rest) ? rest.slice(0, -1) : rest;
  }
  return word;
}

/** -ation/-ate to a shared -at ("validation", "validate" -> "validat"), then a silent final e ("file" -> "fil"). */
function derivation(word: string): string {
  let w = word;
  if (w.endsWith('ation') && stemmable(w.slice(0, -5))) w = w.slice(0, -3);
  else if (w.endsWith('ate') && stemmable(w.slice(0, -3))) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

/** The search term for one lower-case word. Digits and words of three letters or fewer are kept as they are. */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  return derivation(inflection(plural(word)));
}
