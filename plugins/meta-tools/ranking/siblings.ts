/**
 * A sentence of a tool's description that names another tool of its server is about that
 * tool: "Use list_accounts first to get the account name", "Use 'write_pdf' for all PDF
 * creation tasks", "Use hubspot-batch-read-objects to retrieve specific objects by their IDs".
 * Indexed as the describing tool's own words, it made `write_file` a PDF writer and
 * `create_mailbox` a way to see folders. Such sentences are left out of the index.
 *
 * A name counts only when it cannot be an English word: it joins words with `_` or `-`, or
 * is camelCase (`read_text_file`, `hubspot-list-objects`, `readArticle`); "search" or
 * "interact" in a sentence stays prose. Linear in the description: one pass for sentences,
 * one for name-shaped tokens, a set lookup each.
 */

/** Where a description's sentences end: after a full stop, `!` or `?` and white space, or at a line break. */
const SENTENCE_END = /(?<=[.!?])\s+|\n+/;
/** A token shaped like a tool name. */
const NAME_SHAPED = /[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*/g;

/** Whether a tool's name is shaped so that prose cannot hold it by chance. */
export function isNameShaped(name: string): boolean {
  const tokens = name.match(NAME_SHAPED);
  return tokens?.length === 1 && tokens[0] === name;
}

/** `description` without the sentences that name one of `names` (its server's name-shaped tool names) other than `own`. */
export function withoutSiblingSentences(description: string, names: ReadonlySet<string> | undefined, own: string): string {
  if (!names || names.size < 2) return description;
  const namesSibling = (sentence: string): boolean => {
    for (const token of sentence.match(NAME_SHAPED) ?? []) if (token !== own && names.has(token)) return true;
    return false;
  };
  const sentences = description.split(SENTENCE_END);
  const kept = sentences.filter((s) => !namesSibling(s));
  return kept.length === sentences.length ? description : kept.join(' ');
}
