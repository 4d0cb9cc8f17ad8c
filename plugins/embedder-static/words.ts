/**
 * The words of a text as a word-vector file spells them: lower case, split on anything not a
 * letter or digit and on camelCase boundaries, so a tool named `x_memory_createEntities` reads
 * as "x memory create entities". Deliberately simple (no stemming): the vectors file already
 * holds every inflection the model saw, and a stem would miss them.
 */
const SPLIT = /[^\p{L}\p{N}]+/u;
const CAMEL = /([\p{Ll}\p{N}])(\p{Lu})/gu;
const ACRONYM = /(\p{Lu})(\p{Lu}\p{Ll})/gu;

export function textWords(text: string): string[] {
  const spaced = text.replace(CAMEL, '$1 $2').replace(ACRONYM, '$1 $2');
  return spaced
    .toLowerCase()
    .split(SPLIT)
    .filter((w) => w.length > 0);
}
