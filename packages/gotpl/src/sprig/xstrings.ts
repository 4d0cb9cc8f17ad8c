/**
 * xstrings' camelCaseToLowerCase (snakecase, kebabcase): the string is cut into words
 * (runs of upper case, lower case, digits, punctuation, connectors) and rejoined in lower
 * case with a connector, following xstrings' rules for where a connector goes.
 */
import type { Budget } from '../budget.js';
import { spendWork } from '../budget.js';
import { isUnicodeSpace } from '../unicode.js';
import { isLetter, isNumber, isPunct, isUpper, runesOf, toLowerRune } from './runes.js';

const enum Word {
  Invalid,
  Number,
  UpperCase,
  Alphabet,
  Connector,
  Punct,
  Other,
}

const isConnector = (r: number): boolean => r === 0x2d || r === 0x5f || isUnicodeSpace(r);

/** xstrings' isAlphabet: a letter outside the CJK ideograph blocks. */
function isAlphabet(r: number): boolean {
  if (!isLetter(r)) return false;
  if (r < 0x3400) return true;
  if (r >= 0x4e00 && r <= 0x9fcc) return false;
  if (r >= 0x3400 && r <= 0x4d85) return false;
  if (r >= 0x20000 && r <= 0x2b81d) return false;
  return true;
}

interface Cursor {
  readonly runes: readonly number[];
  pos: number;
}

/** nextWord: the type and runes of the word starting at the cursor, which moves past it. */
function nextWord(c: Cursor): { type: Word; word: number[] } {
  const { runes } = c;
  const start = c.pos;
  if (start >= runes.length) return { type: Word.Invalid, word: [] };
  let r = runes[c.pos++]!;
  const take = (ok: (x: number) => boolean): void => {
    while (c.pos < runes.length && ok(runes[c.pos]!)) c.pos++;
  };
  let type: Word;
  if (isConnector(r)) {
    type = Word.Connector;
    take(isConnector);
  } else if (isPunct(r)) {
    type = Word.Punct;
    take(isPunct);
  } else if (isUpper(r)) {
    type = Word.UpperCase;
    if (c.pos < runes.length) {
      r = runes[c.pos]!;
      if (isUpper(r)) {
        take(isUpper);
        // An upper-case run followed by a lower-case letter gives its last letter to the next word.
        if (c.pos < runes.length && isAlphabet(runes[c.pos]!)) c.pos--;
      } else if (isAlphabet(r)) {
        take((x) => isAlphabet(x) && !isUpper(x));
      }
    }
  } else if (isAlphabet(r)) {
    type = Word.Alphabet;
    take((x) => isAlphabet(x) && !isUpper(x));
  } else if (isNumber(r)) {
    type = Word.Number;
    take(isNumber);
  } else {
    type = Word.Other;
    take((x) => !(isConnector(x) || isAlphabet(x) || isNumber(x) || isPunct(x)));
  }
  return { type, word: runes.slice(start, c.pos) };
}

export function wordsToLower(s: string, connectorChar: '_' | '-', budget: Budget, name: string): string {
  if (s === '') return '';
  const connector = connectorChar.charCodeAt(0);
  const c: Cursor = { runes: runesOf(s, budget, name), pos: 0 };
  let out = '';
  const write = (r: number): void => {
    spendWork(budget, 1, name);
    out += String.fromCodePoint(r);
  };
  const lower = (type: Word, word: readonly number[]): void => {
    if (type !== Word.UpperCase && type !== Word.Connector) {
      for (const r of word) write(r);
      return;
    }
    for (const r of word) write(isConnector(r) ? connector : isUpper(r) ? toLowerRune(r) : r);
  };
  let { type, word } = nextWord(c);
  const remaining = (): boolean => c.pos < c.runes.length;
  while (remaining()) {
    if (type !== Word.Connector) lower(type, word);
    const prev = type;
    const last = word;
    ({ type, word } = nextWord(c));
    switch (prev) {
      case Word.Number:
        while (type === Word.Alphabet || type === Word.Number) {
          lower(type, word);
          ({ type, word } = nextWord(c));
        }
        if (type !== Word.Invalid && type !== Word.Punct && type !== Word.Connector) write(connector);
        break;
      case Word.Connector:
        lower(prev, last);
        break;
      case Word.Punct:
        break;
      default: {
        if (type !== Word.Number) {
          if (type !== Word.Connector && type !== Word.Punct) write(connector);
          break;
        }
        if (!remaining()) break;
        const digits = word;
        ({ type, word } = nextWord(c));
        if (type !== Word.Alphabet) {
          lower(Word.Number, digits);
          if (type !== Word.Connector && type !== Word.Punct) write(connector);
          break;
        }
        write(connector);
        lower(Word.Number, digits);
        while (type === Word.Alphabet || type === Word.Number) {
          lower(type, word);
          ({ type, word } = nextWord(c));
        }
        if (type !== Word.Invalid && type !== Word.Connector && type !== Word.Punct) write(connector);
      }
    }
  }
  lower(type, word);
  return out;
}
