/**
 * Idioms read as the words tools use: a request says what it wants in phrases no tool's text
 * has, each group (idioms/people.ts, idioms/work.ts) with what it reads and why. Each pattern
 * starts only where its phrase can and reads each character a bounded number of times
 * (test/unit/ranking-phrases.test.ts floods them). The order matters: a pattern sees the text the
 * ones before it left (a listing read from "which ... are" is no longer a "which").
 */
import { ASKING, ASKING_THE_WORLD, ASSISTING, CONVERSATION_AND_TIME } from './idioms/people.js';
import { ANALYSING, BROWSING, OPERATING, PROGRAMMING } from './idioms/work.js';

const IDIOMS = [...CONVERSATION_AND_TIME, ...ASKING, ...OPERATING, ...ASSISTING, ...BROWSING, ...ANALYSING, ...ASKING_THE_WORLD, ...PROGRAMMING];

/** `text` with each idiom read. */
export function idiomsRead(text: string): string {
  let out = text;
  for (const [pattern, words] of IDIOMS) out = out.replace(pattern, words);
  return out;
}
