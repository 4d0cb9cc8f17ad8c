/** A pattern, and the words a request that has it is read with in its place. */
export type Idiom = readonly [pattern: RegExp, words: string];
