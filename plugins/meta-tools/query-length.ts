/**
 * How long a search query may be. Reading a request's words runs some two hundred patterns
 * over it, and ranking looks up each word: linear, but a filter_tools query as long as the
 * body limit allows (4 MiB) held the event loop for 1.5-5 s, so a few such calls froze every
 * caller. A request for a tool is a sentence or a paragraph; 4,096 characters is some 700
 * words, more than any task description a model sends, and reads in tens of milliseconds over
 * a catalogue of 1,300 tools. Longer queries are refused, naming the limit, before any of it is
 * read: filter_tools says so in its schema (`maxLength`), and the ranker itself holds the same
 * bound for code mode's `tools.search` and any other plugin that searches through `tool-search`.
 */
import { SwitchboardError } from '../../kernel/index.js';

/** The most characters (Unicode code points, as JSON Schema's `maxLength` counts) a query may have. */
export const MAX_QUERY_CHARACTERS = 4096;

/** The code points of `text`, counted only as far as one past `limit`. */
function codePointsUpTo(text: string, limit: number): number {
  let n = 0;
  for (let i = 0; i < text.length && n <= limit; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Throws INVALID_ARGUMENTS when `query` is longer than MAX_QUERY_CHARACTERS. */
export function checkQueryLength(query: string): void {
  // Most queries are short: UTF-16 units never undercount code points.
  if (query.length <= MAX_QUERY_CHARACTERS) return;
  if (codePointsUpTo(query, MAX_QUERY_CHARACTERS) <= MAX_QUERY_CHARACTERS) return;
  throw new SwitchboardError(
    'INVALID_ARGUMENTS',
    `query must NOT have more than ${MAX_QUERY_CHARACTERS} characters: a search reads at most that many; ask in fewer words`,
    { argument: 'query', limit: MAX_QUERY_CHARACTERS },
  );
}
