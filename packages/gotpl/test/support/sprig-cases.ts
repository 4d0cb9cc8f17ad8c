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

const STR = [
  '',
  'a',
  'abc',
  'Hello World',
  '  padded  ',
  'a,b,,c',
  'one two  three',
  'HTTPServer_error-code 42',
  'camelCaseString',
  'snake_case_here',
  'kebab-case-here',
  'héllo wörld',
  'ß straße',
  'ǆemal',
  'İstanbul',
  '日本語テキスト',
  '😀 emoji',
  'line1\nline2\n',
  'tab\there',
  '0x1F',
  '42',
  '-17',
  '3.14',
  '1e3',
  '010',
  '5.00',
  'true',
  '<b>&amp;</b>',
  'a.b.c',
  'x',
  'The quick brown fox jumps over the lazy dog',
  'ab',
  'ba',
  ',',
  ' ',
  '-',
  '_',
  'AbC',
  'hello_World-fooBar 99bottles',
  'ÀÉÎ',
  '\u00a0nbsp\u2003',
];
/** Counts and widths: small enough that Go does not build gigabytes (gotpl would stop at its budget). */
const INT = ['0', '1', '2', '3', '4', '5', '7', '10', '-1', '-2', '-3', '-10', '42', '100', '1000'];
/** Numbers for arithmetic and conversions, large ones included. */
const BIG = ['123456789', '-987654', '4294967296', '-9007199254740991', '9007199254740991'];
const FLOAT = ['1.5', '-2.5', '0.1', '0.2', '3.14159', '2.675', '-0.5', '1e-7', '123.456', '.5', '0.30000000000000004', '-1234.5678'];
const LISTS = ['.l', '.ls', '.e', '(list 1 2 3)', '(list "x" "y" "x")', '(list 1 "1" 1 2.5 2.5)', '.nested.items', '(list)', '(list nil "" 0 false "a")'];
const MAPS = ['.m', '.em', '(dict "a" 1 "b" 2)', '.nested', '(dict "x" (dict "y" 1.5))', '(dict "a" "" "b" (list) "z" 3)'];
const TIMES = [
  'now',
  '(toDate "2006-01-02" "2023-12-25")',
  '(now | dateModify "-48h")',
  '(toDate "2006-01-02T15:04:05Z07:00" "2021-06-15T08:30:00+02:00")',
  '(toDate "2006-01-02 15:04:05.000" "1999-12-31 23:59:59.999")',
  '(now | dateModify "1h30m15.5s")',
  '1700000000',
  '0',
];
const LAYOUTS = [
  '2006-01-02',
  'Jan _2 15:04:05.000',
  'Monday, 02-Jan-06 15:04:05 MST',
  '3:04PM',
  '2006-01-02T15:04:05Z07:00',
  '20060102150405',
  '.999 pm -0700',
  '__2 002',
  'Mon Jan 2 15:04:05 MST 2006',
  '15h04m',
  '2006-01-02T15:04:05.999999999Z07:00',
  'January 2, 2006',
  '-07:00:00 Z07',
  'literal text',
  '02/01/06 03:04:05.0',
  'Mon Monday Jan January 1 01 2 02 _2',
];
/** Values for toDate: each fits one of the layouts above, or none. */
const DATE_STRINGS = [
  '2024-03-05',
  'Mar  5 14:07:09.123',
  'Tuesday, 05-Mar-24 14:07:09 UTC',
  '2:07PM',
  '2023-12-25T08:30:00+02:00',
  '20240305140709',
  '.123 pm +0100',
  ' 5 065',
  'Tue Mar 5 14:07:09 EST 2024',
  '14h07m',
  '2024-03-05T14:07:09.123456789Z',
  'March 5, 2024',
  '+01:00:00 Z',
  'literal text',
  '05/03/24 02:07:09.5',
  'Tue Tuesday Mar March 3 03 5 05  5',
  '2024-02-30',
  '2024-13-01',
  '',
  'garbage',
  '2024-03-05 extra',
  'mar 5 14:07:09.1234',
];
const ZONES = ['UTC', 'Local', 'America/New_York', 'Asia/Tokyo', 'Europe/Paris', 'America/Los_Angeles', 'Not/AZone', '', 'Asia/Kolkata'];
const DURATIONS = ['1h', '-30m', '1h30m', '1.5h', '300ms', '1us', '2µs', '0', '', 'bogus', '10', '5x', '-1.5s', '1h-2m', '.5s', '24h'];
const PATHS = ['', '/', 'a/b/c', '/a/b/../c/', 'a//b/./c', '../../x', 'file.tar.gz', '/usr/lib/', '.hidden', 'dir/file.txt', '/a/b.c/d'];
const B64 = ['aGVsbG8=', 'aGVsbG8', 'aGVsbG8gd29ybGQ=', '', 'a', '!!!!', 'aGVs\nbG8=', 'aGVsbA==x', 'w6k=', 'AAA='];
const B32 = ['NBSWY3DP', 'NBSWY3D=', 'NBSWY3DPEB3W64TMMQ======', '', 'A', '1111', 'MY======', 'MZXQ===='];
const JSON_TEXT = ['{"a":1,"b":[1,2]}', '[1,"x",null]', '"str"', '42', 'true', 'null', '{"z":1,"a":{"c":2.5}}', '[]'];
const REGEX = [
  'a+',
  '^[a-z]+$',
  '(\\w+)@(\\w+)\\.com',
  '[0-9]+',
  'x*',
  '',
  '(?i)hello',
  '\\bfoo\\b',
  '(?P<word>\\w+)',
  '(',
  'a{2,}',
  '[[:alpha:]]+',
  '\\pL+',
  '(a)\\1',
  '(?=x)',
  'é+',
  '.',
  'a|b|',
  '\\d{3}-\\d{4}',
  '(\\s+)',
  '[,;]\\s*',
  'o',
  '^',
  '$',
  '\\s*',
  'b*',
];
const REPL = ['$1', '${1}x', '$word', '$$', '[$0]', '${2}', '$1x', 'X', '', '${word}!', '$'];
const VERSIONS = [
  '1.2.3',
  'v1.2',
  '1',
  '1.2.3-beta.1+build.5',
  '1.2.3-01',
  '01.2.3',
  'x',
  '',
  '1.2.3.4',
  '2.0.0-rc.1',
  '0.0.1',
  '99999999999999999999.0.0',
  '1.2.3-alpha',
  '1.2.3-alpha.beta',
  '1.0.0+meta',
  '1.2.3-a_b',
  '0.2.5',
  '0.0.3',
  '1.4.5',
  '2.5.0',
  '1.2.0-0',
];
const CONSTRAINTS = [
  '>= 1.2',
  '^1.2.3',
  '~1.2',
  '1.2.x',
  '*',
  '>1.0 <2.0',
  '>=1.0, <2.0',
  '1.2 - 1.4.5',
  '^0.2.3',
  '^0.0.3',
  '!=1.2.3',
  '<= 1.2',
  '=1.2.3',
  '~>2',
  '>= 1.0.0-0',
  '1.x || >=2.5',
  'bogus',
  '',
  '>1.2.x',
  '!= 1.2.x',
  '^0.x',
  '<2.0.0-rc',
  '~0.0.0',
  '>=1.2.3-beta.1',
  '1.2.3 || 2.x',
  '^1.x',
  '<=1.x',
];
const URLS = [
  'https://user:pa%20ss@example.com:8080/p/a%2Fth?q=1&r=%20#frag',
  'http://example.com',
  'mailto:someone@example.com',
  '/relative/path?x=1',
  'example.com/no/scheme',
  'https://[::1]:443/x',
  'ftp://host/%zz',
  'https://exa mple.com/',
  'http://h/p q#f g',
  '',
  'HTTP://Example.COM/A',
  '//host/path',
  'http://host?',
  'urn:isbn:0451450523',
  'http://host/?q=a+b#',
  'https://h/é?ü=1#ä',
  ':nope',
  'http://user@host/',
];
const URL_MAPS = [
  '(dict "scheme" "https" "host" "example.com" "path" "/a b" "query" "x=1" "fragment" "f g")',
  '(dict "scheme" "mailto" "opaque" "joe@example.com")',
  '(dict "host" "h:80" "path" "rel/path" "userinfo" "user:pass")',
  '(dict "scheme" "http" "host" "h" "path" "p" "userinfo" "us er")',
  '(dict "path" "a:b/c")',
  '(dict "scheme" "http" "host" "h" "path" "/é%")',
  '(dict "scheme" "https" "host" 1)',
  '(urlParse "https://user:pa%20ss@example.com:8080/p/a%2Fth?q=1&r=%20#frag")',
  '(dict)',
];
const KEYS = ['"a"', '"b"', '"z"', '"x"', '"items"', '"nope"', '"__proto__"', '"constructor"'];

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
