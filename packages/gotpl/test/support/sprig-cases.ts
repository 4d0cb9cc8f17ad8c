/**
 * Cases for the sprig differential suite: for every function Switchboard offers and Go
 * can be asked about, calls built from its parameter kinds, with values drawn from pools
 * of literals, data fields and sub-expressions (now and then of the wrong kind, so that
 * Go's argument errors are compared too), some written as pipelines.
 *
 * The data keeps numbers non-integer, because Go decodes JSON numbers as float64 while an
 * integer-valued number is an int to gotpl (docs/gotpl.md, difference 1); integers come
 * from literals in the template and from conversions (`int`, `atoi`, `int64`).
 */
import { prng } from './generator.js';
import type { SprigCase } from './sprig-oracle.js';
import {
  STR,
  INT,
  BIG,
  FLOAT,
  LISTS,
  MAPS,
  TIMES,
  LAYOUTS,
  DATE_STRINGS,
  ZONES,
  DURATIONS,
  PATHS,
  B64,
  B32,
  JSON_TEXT,
  REGEX,
  REPL,
  VERSIONS,
  CONSTRAINTS,
  URLS,
  URL_MAPS,
  KEYS,
} from './sprig-pools.js';

/** What a parameter takes. */
type Kind =
  | 'datestr'
  | 'ver'
  | 'cons'
  | 'url'
  | 'urlmap'
  | 'v'
  | 's'
  | 'i'
  | 'f'
  | 'a'
  | 'l'
  | 'm'
  | 'b'
  | 't'
  | 'rx'
  | 'repl'
  | 'layout'
  | 'zone'
  | 'dur'
  | 'path'
  | 'b64'
  | 'b32'
  | 'json'
  | 'num'
  | 'key';

/** A function's parameters; a trailing '...' repeats the kind before it 0..3 times. */
const SIGNATURES: Readonly<Record<string, readonly string[]>> = {
  // strings
  trim: ['s'],
  trimAll: ['s', 's'],
  trimall: ['s', 's'],
  trimPrefix: ['s', 's'],
  trimSuffix: ['s', 's'],
  upper: ['s'],
  lower: ['s'],
  title: ['s'],
  untitle: ['s'],
  repeat: ['i', 's'],
  substr: ['i', 'i', 's'],
  nospace: ['s'],
  trunc: ['i', 's'],
  abbrev: ['i', 's'],
  abbrevboth: ['i', 'i', 's'],
  initials: ['s'],
  wrap: ['i', 's'],
  wrapWith: ['i', 's', 's'],
  contains: ['s', 's'],
  hasPrefix: ['s', 's'],
  hasSuffix: ['s', 's'],
  quote: ['a', '...'],
  squote: ['a', '...'],
  cat: ['a', '...'],
  indent: ['i', 's'],
  nindent: ['i', 's'],
  replace: ['s', 's', 's'],
  plural: ['s', 's', 'i'],
  snakecase: ['s'],
  camelcase: ['s'],
  kebabcase: ['s'],
  swapcase: ['s'],
  toString: ['a'],
  toStrings: ['a'],
  split: ['s', 's'],
  splitList: ['s', 's'],
  splitn: ['s', 'i', 's'],
  join: ['s', 'a'],
  sortAlpha: ['a'],
  // math
  add: ['num', '...'],
  add1: ['num'],
  sub: ['num', 'num'],
  mul: ['num', 'num', '...'],
  div: ['num', 'num'],
  mod: ['num', 'num'],
  max: ['num', 'num', '...'],
  min: ['num', 'num', '...'],
  biggest: ['num', 'num'],
  floor: ['num'],
  ceil: ['num'],
  round: ['num', 'i'],
  addf: ['num', '...'],
  add1f: ['num'],
  subf: ['num', 'num'],
  mulf: ['num', 'num'],
  divf: ['num', 'num'],
  maxf: ['num', 'num', '...'],
  minf: ['num', 'num', '...'],
  seq: ['i', '...'],
  until: ['i'],
  untilStep: ['i', 'i', 'i'],
  // conversion
  int: ['num'],
  int64: ['num'],
  float64: ['num'],
  atoi: ['s'],
  toDecimal: ['num'],
  // defaults and flow
  default: ['a', 'a'],
  empty: ['a'],
  coalesce: ['a', '...'],
  all: ['a', '...'],
  any: ['a', '...'],
  compact: ['l'],
  mustCompact: ['l'],
  ternary: ['a', 'a', 'b'],
  fail: ['s'],
  fromJson: ['json'],
  mustFromJson: ['json'],
  toJson: ['a'],
  mustToJson: ['a'],
  toPrettyJson: ['a'],
  mustToPrettyJson: ['a'],
  toRawJson: ['a'],
  mustToRawJson: ['a'],
  deepCopy: ['a'],
  mustDeepCopy: ['a'],
  // lists
  list: ['a', '...'],
  tuple: ['a', '...'],
  first: ['l'],
  mustFirst: ['l'],
  rest: ['l'],
  mustRest: ['l'],
  last: ['l'],
  mustLast: ['l'],
  initial: ['l'],
  mustInitial: ['l'],
  append: ['l', 'a'],
  mustAppend: ['l', 'a'],
  push: ['l', 'a'],
  mustPush: ['l', 'a'],
  prepend: ['l', 'a'],
  mustPrepend: ['l', 'a'],
  concat: ['l', '...'],
  reverse: ['l'],
  mustReverse: ['l'],
  uniq: ['l'],
  mustUniq: ['l'],
  without: ['l', 'a', '...'],
  mustWithout: ['l', 'a', '...'],
  has: ['a', 'l'],
  mustHas: ['a', 'l'],
  mustSlice: ['l', 'i', '...'],
  chunk: ['i', 'l'],
  mustChunk: ['i', 'l'],
  // dicts
  dict: ['key', 'a', '...'],
  get: ['m', 'key'],
  set: ['m', 'key', 'v'],
  unset: ['m', 'key'],
  hasKey: ['m', 'key'],
  pluck: ['key', 'm', '...'],
  keys: ['m', '...'],
  values: ['m'],
  pick: ['m', 'key', '...'],
  omit: ['m', 'key', '...'],
  merge: ['m', 'm', '...'],
  mustMerge: ['m', 'm'],
  mergeOverwrite: ['m', 'm', '...'],
  mustMergeOverwrite: ['m', 'm'],
  dig: ['key', 'key', 'a', 'm'],
  // types
  typeOf: ['a'],
  typeIs: ['s', 'a'],
  typeIsLike: ['s', 'a'],
  kindOf: ['a'],
  kindIs: ['s', 'a'],
  deepEqual: ['a', 'a'],
  // regex
  regexMatch: ['rx', 's'],
  mustRegexMatch: ['rx', 's'],
  regexFind: ['rx', 's'],
  mustRegexFind: ['rx', 's'],
  regexFindAll: ['rx', 's', 'i'],
  mustRegexFindAll: ['rx', 's', 'i'],
  regexReplaceAll: ['rx', 's', 'repl'],
  mustRegexReplaceAll: ['rx', 's', 'repl'],
  regexReplaceAllLiteral: ['rx', 's', 'repl'],
  mustRegexReplaceAllLiteral: ['rx', 's', 'repl'],
  regexSplit: ['rx', 's', 'i'],
  mustRegexSplit: ['rx', 's', 'i'],
  regexQuoteMeta: ['s'],
  // encoding and paths
  b64enc: ['s'],
  b64dec: ['b64'],
  b32enc: ['s'],
  b32dec: ['b32'],
  sha1sum: ['s'],
  sha256sum: ['s'],
  sha512sum: ['s'],
  adler32sum: ['s'],
  base: ['path'],
  dir: ['path'],
  clean: ['path'],
  ext: ['path'],
  isAbs: ['path'],
  osBase: ['path'],
  osDir: ['path'],
  osClean: ['path'],
  osExt: ['path'],
  osIsAbs: ['path'],
  // dates
  date: ['layout', 't'],
  dateInZone: ['layout', 't', 'zone'],
  date_in_zone: ['layout', 't', 'zone'],
  htmlDate: ['t'],
  htmlDateInZone: ['t', 'zone'],
  dateModify: ['dur', 't'],
  date_modify: ['dur', 't'],
  mustDateModify: ['dur', 't'],
  must_date_modify: ['dur', 't'],
  unixEpoch: ['t'],
  ago: ['t'],
  duration: ['a'],
  durationRound: ['a'],
  now: [],
  toDate: ['layout', 'datestr'],
  mustToDate: ['layout', 'datestr'],
  // versions and URLs
  semver: ['ver'],
  semverCompare: ['cons', 'ver'],
  urlParse: ['url'],
  urlJoin: ['urlmap'],
};

/** Functions whose result Go gives in random order: their output goes through sortAlpha. */
const UNORDERED = new Set(['keys', 'values']);

const DATA = {
  s: 'Hello World',
  f: 2.5,
  n: null,
  b: true,
  l: [1.5, 'a', null, true, 'b'],
  ls: ['b', 'a', 'c', 'a'],
  e: [],
  m: { a: 1.5, b: 'x', c: null, d: [0.5, 'y'] },
  em: {},
  nested: { items: [0.5, 1.5], x: { y: 'deep' }, a: 'top' },
  csv: 'a,b,c',
  ver: '1.2.3',
};

function quoteGo(s: string): string {
  return JSON.stringify(s);
}

const KIND_POOLS: Readonly<Record<Kind, () => readonly string[]>> = {
  s: () => [...STR.map(quoteGo), '.s', '.csv'],
  i: () => [...INT, '(int "42")', '(atoi "-7")', '(len .ls)'],
  f: () => FLOAT,
  num: () => [...INT, ...BIG, ...FLOAT, '.f', '"12"', '"0x1F"', '"3.99"', '"010"', '"1_000"', '"abc"', 'true', 'nil', '.n', '(int64 "9")'],
  a: () => [
    ...INT.slice(0, 6),
    ...FLOAT.slice(0, 4),
    ...STR.slice(0, 8).map(quoteGo),
    'true',
    'false',
    'nil',
    '.n',
    '.l',
    '.m',
    '.em',
    '.e',
    '.f',
    '.s',
    '(list 1 2)',
    '(dict "k" "v")',
  ],
  // What set may store: no map from the data, which could then contain itself (Go overflows its stack printing it).
  v: () => [...INT.slice(0, 6), ...FLOAT.slice(0, 4), ...STR.slice(0, 8).map(quoteGo), 'true', 'nil', '.n', '.l', '.e', '(list 1 2)', '(dict "k" "v")'],
  l: () => LISTS,
  m: () => MAPS,
  b: () => ['true', 'false', '(empty .e)', '(eq 1 2)'],
  t: () => TIMES,
  rx: () => REGEX.map(quoteGo),
  repl: () => REPL.map(quoteGo),
  layout: () => LAYOUTS.map(quoteGo),
  zone: () => ZONES.map(quoteGo),
  dur: () => DURATIONS.map(quoteGo),
  path: () => PATHS.map(quoteGo),
  b64: () => [...B64.map(quoteGo), '(b64enc .s)'],
  b32: () => [...B32.map(quoteGo), '(b32enc .s)'],
  json: () => JSON_TEXT.map(quoteGo),
  key: () => KEYS,
  ver: () => [...VERSIONS.map(quoteGo), '.ver'],
  datestr: () => DATE_STRINGS.map(quoteGo),
  cons: () => CONSTRAINTS.map(quoteGo),
  url: () => URLS.map(quoteGo),
  urlmap: () => URL_MAPS,
};

/** Any value, except the large numbers: as a count they would make Go build gigabytes. */
const ALL_POOL = Object.values(KIND_POOLS)
  .flatMap((f) => f())
  .filter((x) => !/^-?\d{5,}$/.test(x));

/** The functions the generator calls, for the coverage check. */
export const GENERATED_FUNCTIONS: readonly string[] = Object.keys(SIGNATURES);

export function generateSprigCases(seed: number, count: number): SprigCase[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const names = Object.keys(SIGNATURES);
  const cases: SprigCase[] = [];
  for (let n = 0; n < count; n++) {
    const name = names[n % names.length]!;
    const sig = SIGNATURES[name]!;
    const args: string[] = [];
    for (let i = 0; i < sig.length; i++) {
      if (sig[i] === '...') {
        const more = Math.floor(rand() * 4);
        for (let k = 0; k < more; k++) args.push(pick(KIND_POOLS[sig[i - 1] as Kind]()));
        continue;
      }
      // Now and then an argument of any kind, so that Go's conversions and errors are compared too.
      args.push(rand() < 0.12 && sig[i] !== 'v' ? pick(ALL_POOL) : pick(KIND_POOLS[sig[i] as Kind]()));
    }
    let call: string;
    if (args.length > 0 && rand() < 0.2) call = `${args[args.length - 1]!} | ${name} ${args.slice(0, -1).join(' ')}`.trimEnd();
    else call = `${name} ${args.join(' ')}`.trimEnd();
    if (UNORDERED.has(name)) call = `${call} | sortAlpha`;
    cases.push({ template: `{{ ${call} }}`, data: DATA });
  }
  return cases;
}

export { DATA as SPRIG_DATA };
