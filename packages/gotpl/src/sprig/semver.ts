/**
 * sprig's semver and semverCompare: Masterminds/semver v3's version parsing, ordering and
 * constraints (`>= 1.2, < 2`, `^1.2`, `~1.2.x`, `1.2 - 1.4`, `||`), ported with its
 * regular expressions, which run on re2js so that a hostile constraint cannot make them
 * backtrack.
 */
import { GoStruct } from '../values.js';
import type { FunctionGroup } from './define.js';
import { fixed, S } from './define.js';
import { compileRe2, type RE2JS } from './re2.js';

const SEMVER = 'v?([0-9]+)(\\.[0-9]+)?(\\.[0-9]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const CV = 'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';
/**
 * A regular expression compiled at its first use: compiling these five took 50-90 ms of CPU
 * when the module loaded, at every Switchboard start (workflows load the template engine),
 * though few templates ever compare versions.
 */
function lazily(pattern: string): () => RE2JS {
  let re: RE2JS | undefined;
  return () => (re ??= compileRe2(pattern));
}
const VERSION = lazily(`^${SEMVER}$`);
const CONSTRAINT = lazily(`^\\s*(${OPS})\\s*(${CV})\\s*$`);
const RANGE = lazily(`\\s*(${CV})\\s+-\\s+(${CV})\\s*`);
const FIND = lazily(`(${OPS})\\s*(${CV})`);
const VALID = lazily(`^(\\s*(${OPS})\\s*(${CV})\\s*)((?:\\s+|,\\s*)(${OPS})\\s*(${CV})\\s*)*$`);

/** Longest version or constraint text looked at; longer ones are refused as improper. */
const MAX_TEXT = 1024;

/** FindStringSubmatch: the match and its groups ('' for a group that did not take part). */
function submatch(re: RE2JS, s: string, from = 0): { groups: string[]; start: number; end: number } | null {
  const m = re.matcher(s);
  if (!m.find(from)) return null;
  const groups: string[] = [];
  for (let g = 0; g <= re.groupCount(); g++) {
    const st = m.start(g);
    groups.push(st < 0 ? '' : s.slice(st, m.end(g)));
  }
  return { groups, start: m.start(), end: m.end() };
}

function findAll(re: RE2JS, s: string): Array<{ groups: string[]; start: number; end: number }> {
  const out: Array<{ groups: string[]; start: number; end: number }> = [];
  for (let pos = 0, prevEnd = -1; pos <= s.length;) {
    const m = submatch(re, s, pos);
    if (m === null) break;
    let accept = true;
    if (m.end === pos) {
      if (m.start === prevEnd) accept = false;
      pos++;
    } else pos = m.end;
    prevEnd = m.end;
    if (accept) out.push(m);
  }
  return out;
}

const UINT64_LIMIT = 2n ** 64n;
const containsOnly = (s: string, chars: RegExp): boolean => chars.test(s);

function parseSegment(digits: string): bigint {
  const n = BigInt(digits);
  if (n >= UINT64_LIMIT) throw new Error(`Error parsing version segment: strconv.ParseUint: parsing ${JSON.stringify(digits)}: value out of range`);
  return n;
}

export class SemverVersion extends GoStruct {
  readonly goType = '*semver.Version';
  readonly goKind = 'ptr';

  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string,
    readonly metadata: string,
    readonly original: string,
  ) {
    super();
  }

  /** semver.NewVersion. */
  static parse(v: string): SemverVersion {
    const m = v.length > MAX_TEXT ? null : submatch(VERSION(), v);
    if (m === null) throw new Error('Invalid Semantic Version');
    const g = m.groups;
    const major = parseSegment(g[1]!);
    const minor = g[2] === '' ? 0n : parseSegment(g[2]!.slice(1));
    const patch = g[3] === '' ? 0n : parseSegment(g[3]!.slice(1));
    const pre = g[5]!;
    const metadata = g[8]!;
    if (pre !== '') {
      for (const p of pre.split('.')) {
        if (containsOnly(p, /^[0-9]*$/)) {
          if (p.length > 1 && p.startsWith('0')) throw new Error('Version segment starts with 0');
        } else if (!containsOnly(p, /^[A-Za-z0-9-]*$/)) throw new Error('Invalid Prerelease string');
      }
    }
    if (metadata !== '') for (const p of metadata.split('.')) if (!containsOnly(p, /^[A-Za-z0-9-]*$/)) throw new Error('Invalid Metadata string');
    return new SemverVersion(major, minor, patch, pre, metadata, v);
  }

  goString(): string {
    return `${this.major}.${this.minor}.${this.patch}${this.pre === '' ? '' : '-' + this.pre}${this.metadata === '' ? '' : '+' + this.metadata}`;
  }

  toJSON(): string {
    return this.goString();
  }

  field(name: string): unknown {
    switch (name) {
      case 'Major':
        return Number(this.major);
      case 'Minor':
        return Number(this.minor);
      case 'Patch':
        return Number(this.patch);
      case 'Prerelease':
        return this.pre;
      case 'Metadata':
        return this.metadata;
      case 'Original':
        return this.original;
      case 'String':
        return this.goString();
    }
    return undefined;
  }

  compare(o: SemverVersion): number {
    for (const [a, b] of [
      [this.major, o.major],
      [this.minor, o.minor],
      [this.patch, o.patch],
    ] as const) {
      if (a !== b) return a < b ? -1 : 1;
    }
    if (this.pre === '' && o.pre === '') return 0;
    if (this.pre === '') return 1;
    if (o.pre === '') return -1;
    return comparePrerelease(this.pre, o.pre);
  }
}

function comparePrerelease(v: string, o: string): number {
  const s = v.split('.');
  const t = o.split('.');
  for (let i = 0; i < Math.max(s.length, t.length); i++) {
    const d = comparePrePart(s[i] ?? '', t[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

function comparePrePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return o !== '' ? -1 : 1;
  if (o === '') return 1;
  const uint = (x: string): bigint | null => (/^\d+$/.test(x) && BigInt(x) < UINT64_LIMIT ? BigInt(x) : null);
  const oi = uint(o);
  const si = uint(s);
  if (oi === null && si === null) return s > o ? 1 : -1;
  if (oi === null) return -1;
  if (si === null) return 1;
  return si > oi ? 1 : -1;
}

interface Constraint {
  readonly con: SemverVersion;
  readonly op: string;
  readonly minorDirty: boolean;
  readonly patchDirty: boolean;
  readonly dirty: boolean;
}

const isX = (x: string): boolean => x === 'x' || x === '*' || x === 'X';

function parseConstraint(c: string): Constraint {
  if (c === '') return { con: new SemverVersion(0n, 0n, 0n, '', '', '0.0.0'), op: '', minorDirty: false, patchDirty: false, dirty: true };
  const m = submatch(CONSTRAINT(), c);
  if (m === null) throw new Error(`improper constraint: ${c}`);
  const g = m.groups;
  let ver = g[2]!;
  let minorDirty = false;
  let patchDirty = false;
  let dirty = false;
  if (isX(g[3]!) || g[3] === '') {
    ver = `0.0.0${g[6]!}`;
    dirty = true;
  } else if (isX(g[4]!.replace(/^\./, '')) || g[4] === '') {
    minorDirty = dirty = true;
    ver = `${g[3]!}.0.0${g[6]!}`;
  } else if (isX(g[5]!.replace(/^\./, '')) || g[5] === '') {
    dirty = patchDirty = true;
    ver = `${g[3]!}${g[4]!}.0${g[6]!}`;
  }
  let con: SemverVersion;
  try {
    con = SemverVersion.parse(ver);
  } catch {
    throw new Error('constraint Parser Error');
  }
  return { con, op: g[1]!, minorDirty, patchDirty, dirty };
}

function tilde(v: SemverVersion, c: Constraint): boolean {
  if (v.compare(c.con) < 0) return false;
  if (c.con.major === 0n && c.con.minor === 0n && c.con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== c.con.major) return false;
  return !(v.minor !== c.con.minor && !c.minorDirty);
}

function check(v: SemverVersion, c: Constraint): boolean {
  const preBlocked = v.pre !== '' && c.con.pre === '';
  switch (c.op) {
    case '!=': {
      if (c.dirty) {
        if (preBlocked) return false;
        if (c.con.major !== v.major) return true;
        if (c.con.minor !== v.minor && !c.minorDirty) return true;
        if (c.minorDirty) return false;
        if (c.con.patch !== v.patch && !c.patchDirty) return true;
        if (c.patchDirty) return (v.pre !== '' || c.con.pre !== '') && comparePrerelease(v.pre, c.con.pre) !== 0;
      }
      return v.compare(c.con) !== 0;
    }
    case '>': {
      if (preBlocked) return false;
      if (!c.dirty) return v.compare(c.con) === 1;
      if (v.major > c.con.major) return true;
      if (v.major < c.con.major || c.minorDirty) return false;
      if (c.patchDirty) return v.minor > c.con.minor;
      return v.compare(c.con) === 1;
    }
    case '<':
      return !preBlocked && v.compare(c.con) < 0;
    case '>=':
    case '=>':
      return !preBlocked && v.compare(c.con) >= 0;
    case '<=':
    case '=<': {
      if (preBlocked) return false;
      if (!c.dirty) return v.compare(c.con) <= 0;
      if (v.major > c.con.major) return false;
      return !(v.major === c.con.major && v.minor > c.con.minor && !c.minorDirty);
    }
    case '~':
    case '~>':
      return !preBlocked && tilde(v, c);
    case '^': {
      if (preBlocked || v.compare(c.con) < 0) return false;
      if (c.con.major > 0n || c.minorDirty) return v.major === c.con.major;
      if (v.major > 0n) return false;
      if (c.con.minor > 0n || c.patchDirty) return v.minor === c.con.minor;
      if (v.minor > 0n) return false;
      return c.con.patch === v.patch;
    }
  }
  // "" and "=": equality, or a tilde range when the version has wildcards.
  if (preBlocked) return false;
  return c.dirty ? tilde(v, c) : v.compare(c.con) === 0;
}

/** semver.NewConstraint: OR-groups of AND-ed constraints. */
function parseConstraints(text: string): Constraint[][] {
  if (text.length > MAX_TEXT) throw new Error(`improper constraint: ${text}`);
  let c = text;
  for (const m of findAll(RANGE(), text)) c = c.replace(m.groups[0]!, `>= ${m.groups[1]!}, <= ${m.groups[11]!} `);
  return c.split('||').map((part) => {
    if (submatch(VALID(), part) === null) throw new Error(`improper constraint: ${part}`);
    const found = findAll(FIND(), part).map((m) => m.groups[0]!);
    return (found.length === 0 ? [part] : found).map(parseConstraint);
  });
}

export const SEMVER_FUNCTIONS: FunctionGroup = {
  semver: fixed([S], (a) => SemverVersion.parse(a[0] as string)),
  semverCompare: fixed([S, S], (a) => {
    const groups = parseConstraints(a[0] as string);
    const v = SemverVersion.parse(a[1] as string);
    return groups.some((and) => and.every((c) => check(v, c)));
  }),
};
