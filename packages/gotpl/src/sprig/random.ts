/**
 * sprig's random functions, drawn from node:crypto: randAlphaNum, randAlpha, randAscii,
 * randNumeric (goutils' CryptoRandom*), shuffle (of a string's runes), randInt and uuidv4.
 * They cannot be compared with Go's output; their specification checks alphabets, lengths
 * and ranges.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { spendBytes, spendWork } from '../budget.js';
import type { Budget } from '../budget.js';
import type { FunctionGroup } from './define.js';
import { fixed, INT, S } from './define.js';
import { charsOf } from './runes.js';

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const NUMERIC = '0123456789';
/** goutils' CryptoRandomAscii: the printable ASCII range 32..126. */
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

function random(count: number, alphabet: string, budget: Budget, name: string): string {
  // goutils returns an error for a negative count, which sprig drops: the result is "".
  if (count <= 0) return '';
  spendBytes(budget, count, name);
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet.charAt(randomInt(alphabet.length));
  return out;
}

function shuffle(s: string, budget: Budget): string {
  const runes = charsOf(s, budget, 'shuffle');
  for (let i = runes.length - 1; i > 0; i--) {
    spendWork(budget, 1, 'shuffle');
    const j = randomInt(i + 1);
    [runes[i], runes[j]] = [runes[j]!, runes[i]!];
  }
  return runes.join('');
}

export const RANDOM: FunctionGroup = {
  randAlphaNum: fixed([INT], (a, { budget: b }) => random(a[0] as number, ALPHA + NUMERIC, b, 'randAlphaNum')),
  randAlpha: fixed([INT], (a, { budget: b }) => random(a[0] as number, ALPHA, b, 'randAlpha')),
  randAscii: fixed([INT], (a, { budget: b }) => random(a[0] as number, ASCII, b, 'randAscii')),
  randNumeric: fixed([INT], (a, { budget: b }) => random(a[0] as number, NUMERIC, b, 'randNumeric')),
  shuffle: fixed([S], (a, { budget }) => shuffle(a[0] as string, budget)),
  randInt: fixed([INT, INT], (a) => {
    const [min, max] = a as [number, number];
    if (max - min <= 0) throw new Error('invalid argument to Intn');
    // crypto.randomInt draws from ranges below 2^48; wider ones are scaled from 48 random bits.
    if (max - min < 2 ** 48 && Number.isSafeInteger(min) && Number.isSafeInteger(max)) return randomInt(min, max);
    return min + Math.floor((randomInt(2 ** 48 - 1) / 2 ** 48) * (max - min));
  }),
  uuidv4: fixed([], () => randomUUID()),
};
