/**
 * A seeded generator of templates and data for the differential suite. It covers the
 * grammar (text, trim markers, comments, pipelines, parentheses, variables, if/with/range
 * with else chains, break/continue, define/template/block, literals of every syntax) and
 * Go's builtins, and occasionally corrupts a template to exercise parse errors.
 *
 * It stays inside the territory where Go and gotpl are meant to agree (docs/gotpl.md):
 * - data numbers are never integer-valued (Go decodes JSON numbers as float64, while an
 *   integer-valued JavaScript number is an int to gotpl), and float literals are never
 *   integer-valued either;
 * - float verbs (%e %f %g) only get floats; list slices stay within the length.
 * Comparisons of an int with a float can still arise; the suite classifies those.
 */

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Ty = 'int' | 'float' | 'string' | 'bool' | 'nil' | 'list' | 'map' | 'any';

interface Expr {
  readonly text: string;
  readonly ty: Ty;
}

const STRINGS = [
  '',
  'a',
  'hello',
  'Hello, World',
  '<b>&\'"',
  'héllo',
  '日本語',
  'emoji 😀',
  'a b',
  'x=1&y=2',
  'tab\there',
  'line\nbreak',
  '%d %s',
  '\u0001ctl',
  '50%',
  'back\\slash',
  '`raw`',
  'ZZ',
  'αβγ',
];
const FLOATS = [0.5, -1.25, 3.75, 1234.5678, 0.001, 2.5e-7, 1.5e22, -99.99, 7.125, 0.1, 123456789.5, 1e-5 + 0.5, 2.675, 1.005, 0.3333333333333333, -0.0625];
const KEYS = ['a', 'b', 'c', 'k', 'x', 'Name', '_id', 'é', 'Z', 'a1'];
const FLOAT_LITERALS = ['1.5', '0.25', '-2.5', '3.14159', '2.5e-3', '1e-7', '.5', '0x1.8p-1', '1_000.5', '6.02e23', '2.675', '0.1'];
const INT_LITERALS = ['0', '1', '2', '3', '-1', '7', '42', '0x1F', '0o17', '017', '0b101', '1_000', "'a'", "'\\n'", "'é'", '255', '-300'];
const TEXTS = ['', 'x', ' ', '\n', 'a-b', '  spaced  ', '}', '%', 'line\n', '\t', ' | ', 'é'];

export interface Case {
  readonly template: string;
  readonly data: Record<string, unknown>;
}

class Gen {
  private vars: string[][] = [['$']];
  private defined: string[] = [];
  private rangeDepth = 0;
  private budget = 0;
  private blocks = 0;
  /** Inside with/range/define bodies dot is something else, so prefer $-rooted fields. */
  private dotIsRoot = true;

  constructor(private readonly r: () => number) {}

  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  // ---- data ----

  scalar(): unknown {
    const k = this.int(10);
    if (k < 4) return this.pick(STRINGS);
    if (k < 7) return this.pick(FLOATS);
    if (k < 9) return this.chance(0.5);
    return null;
  }

  map(depth: number): Record<string, unknown> {
    const m: Record<string, unknown> = {};
    const n = this.int(5);
    for (let i = 0; i < n; i++) m[this.pick(KEYS)] = depth > 0 && this.chance(0.2) ? this.map(depth - 1) : this.scalar();
    return m;
  }

  data(): Record<string, unknown> {
    const list = Array.from({ length: this.int(5) }, () => this.scalar());
    return {
      s: this.pick(STRINGS),
      s2: this.pick(STRINGS),
      e: '',
      f: this.pick(FLOATS),
      g: this.pick(FLOATS),
      t: true,
      b: false,
      n: null,
      l: list,
      ls: Array.from({ length: 1 + this.int(4) }, () => this.pick(STRINGS)),
      le: [],
      m: this.map(1),
      me: {},
      nest: { inner: this.map(1), arr: [this.map(0), this.pick(FLOATS)] },
      lm: [this.map(0), this.map(0)],
    };
  }

  // ---- expressions ----

  scopeVars(): string[] {
    return this.vars.flat();
  }

  field(): Expr {
    const k = this.int(20);
    const key = this.pick(KEYS);
    const pre = this.chance(this.dotIsRoot ? 0.3 : 0.85) ? '$' : '';
    const table: Expr[] = [
      { text: `${pre}.s`, ty: 'string' },
      { text: `${pre}.s2`, ty: 'string' },
      { text: `${pre}.e`, ty: 'string' },
      { text: `${pre}.f`, ty: 'float' },
      { text: `${pre}.g`, ty: 'float' },
      { text: `${pre}.t`, ty: 'bool' },
      { text: `${pre}.b`, ty: 'bool' },
      { text: `${pre}.n`, ty: 'nil' },
      { text: `${pre}.l`, ty: 'list' },
      { text: `${pre}.ls`, ty: 'list' },
      { text: `${pre}.le`, ty: 'list' },
      { text: `${pre}.m`, ty: 'map' },
      { text: `${pre}.me`, ty: 'map' },
      { text: `${pre}.m.${key}`, ty: 'any' },
      { text: `${pre}.nest.inner.${key}`, ty: 'any' },
      { text: `${pre}.nest.arr`, ty: 'list' },
      { text: `${pre}.lm`, ty: 'list' },
      { text: '.', ty: 'any' },
      { text: '$', ty: 'map' },
      { text: `${pre}.missing`, ty: 'any' },
    ];
    return table[k]!;
  }

  literal(): Expr {
    switch (this.int(7)) {
      case 0:
      case 1:
        return { text: JSON.stringify(this.pick(STRINGS)).replace(/\\u0001/g, '\\x01'), ty: 'string' };
      case 2:
        return { text: '`' + this.pick(['raw', 'a\\nb', 'x y', '']) + '`', ty: 'string' };
      case 3:
        return { text: this.pick(INT_LITERALS), ty: 'int' };
      case 4:
        return { text: this.pick(FLOAT_LITERALS), ty: 'float' };
      case 5:
        return { text: this.pick(['true', 'false']), ty: 'bool' };
      default:
        return { text: this.pick(INT_LITERALS.slice(0, 7)), ty: 'int' };
    }
  }

  operand(depth: number): Expr {
    const k = this.int(10);
    const vars = this.scopeVars().filter((v) => v !== '$');
    if (k < 4) return this.field();
    if (k < 7) return this.literal();
    if (k === 7 && vars.length > 0) return { text: this.pick(vars), ty: 'any' };
    if (k === 8 && depth < 3) {
      const p = this.pipeline(depth + 1);
      return { text: `(${p.text})`, ty: p.ty };
    }
    return this.chance(0.1) ? { text: 'nil', ty: 'nil' } : this.field();
  }

  /** An operand of a wanted type, when it matters (comparisons, printf verbs). */
  typed(ty: Ty, depth: number): Expr {
    for (let i = 0; i < 6; i++) {
      const e = this.operand(depth);
      if (e.ty === ty) return e;
    }
    const fallback: Partial<Record<Ty, Expr>> = { int: { text: '2', ty: 'int' }, float: { text: '.f', ty: 'float' }, string: { text: '.s', ty: 'string' } };
    return fallback[ty] ?? this.operand(depth);
  }

  printfCall(depth: number): Expr {
    const args: Expr[] = Array.from({ length: this.int(4) }, () => this.operand(depth));
    let format = this.pick(['', 'x=', '[', 'a b ']);
    for (let i = 0; i < args.length + this.int(2) - (this.chance(0.2) ? 1 : 0); i++) {
      const a = args[i];
      const float = a?.ty === 'float';
      const verbs = float ? 'vvvdsqxXbeEfFgGt' : 'vvvvdsqxXoObctU';
      const verb = a === undefined && this.chance(0.3) ? '%' : this.pick(verbs.split(''));
      const flags = this.chance(0.3) ? this.pick(['-', '+', '#', ' ', '0', '-0', '+0', ' 0', '#0']) : '';
      const width = this.chance(0.3) ? String(this.int(9)) : this.chance(0.04) ? '*' : '';
      const prec = this.chance(0.25) ? '.' + (this.chance(0.2) ? '' : String(this.int(6))) : '';
      const index = this.chance(0.05) ? `[${1 + this.int(args.length + 1)}]` : '';
      format += `%${flags}${index}${width}${prec}${verb}` + this.pick(['', ' ', '|', ',']);
    }
    if (this.chance(0.05)) format += '%';
    return { text: ['printf', JSON.stringify(format), ...args.map((a) => a.text)].join(' '), ty: 'string' };
  }

  call(depth: number): Expr {
    const o = () => this.operand(depth);
    switch (this.int(16)) {
      case 0:
        return this.printfCall(depth);
      case 1:
        return { text: ['print', ...Array.from({ length: this.int(4) }, () => o().text)].join(' '), ty: 'string' };
      case 2:
        return { text: ['println', ...Array.from({ length: this.int(3) }, () => o().text)].join(' '), ty: 'string' };
      case 3: {
        const a = o();
        const same = this.chance(0.85) && a.ty !== 'any' ? this.typed(a.ty, depth) : o();
        const more = this.chance(0.2) && this.pick([false, true]) ? ' ' + this.typed(a.ty, depth).text : '';
        return { text: `${this.pick(['eq', 'ne', 'eq'])} ${a.text} ${same.text}${more}`, ty: 'bool' };
      }
      case 4: {
        const ty = this.pick<Ty>(['int', 'float', 'string', 'string', 'int']);
        return { text: `${this.pick(['lt', 'le', 'gt', 'ge'])} ${this.typed(ty, depth).text} ${this.typed(ty, depth).text}`, ty: 'bool' };
      }
      case 5:
        return { text: `${this.pick(['and', 'or'])} ${Array.from({ length: 1 + this.int(3) }, () => o().text).join(' ')}`, ty: 'any' };
      case 6:
        return { text: `not ${o().text}`, ty: 'bool' };
      case 7:
        return { text: `len ${o().text}`, ty: 'int' };
      case 8: {
        const coll = this.pick(['.l', '.ls', '.m', '.lm', '.s', '.nest', '$.m', '.le']);
        const idx = () => (this.chance(0.6) ? String(this.int(5) - (this.chance(0.1) ? 1 : 0)) : JSON.stringify(this.pick(KEYS.concat(['inner', 'arr']))));
        const n = coll === '.s' ? this.int(2) : this.int(3); // s[i] is a uint8 in Go, an int here
        return { text: `index ${coll}${' '.repeat(n > 0 ? 1 : 0)}${Array.from({ length: n }, idx).join(' ')}`, ty: coll === '.s' ? 'int' : 'any' };
      }
      case 9: {
        // Slices stay within the length: Go's JSON-decoded slices may have spare capacity.
        const s = this.pick(['"hello"', '.ls', '.le', '"abcdef"', '.e']); // slicing through a UTF-8 sequence is a known difference
        const n = this.int(3);
        const lim = s === '.ls' ? 1 : s === '.le' ? 0 : 5;
        return { text: `slice ${s} ${Array.from({ length: n }, () => String(this.int(lim + 1))).join(' ')}`, ty: 'any' };
      }
      case 10:
        return { text: `${this.pick(['html', 'js', 'urlquery'])} ${Array.from({ length: 1 + this.int(2) }, () => o().text).join(' ')}`, ty: 'string' };
      case 11:
        if (this.chance(0.7)) return o();
        return { text: `call ${this.pick(['.s', 'nil', '.m', '.f'])}`, ty: 'any' };
      case 12:
        return this.chance(0.05)
          ? { text: 'nosuchfunc 1', ty: 'any' }
          : { text: `len ${this.pick(['.s', '.l', '.ls', '.m', '.e', '.lm', '$.nest'])}`, ty: 'int' };
      default:
        return o();
    }
  }

  /** A pipeline, with occasional further stages that take the previous value last. */
  pipeline(depth: number): Expr {
    let e = depth < 3 && this.chance(0.55) ? this.call(depth) : this.operand(depth);
    if (this.chance(0.25)) {
      const stage = this.pick([
        'print',
        'printf "%v"',
        'printf "%q"',
        'len',
        'not',
        'html',
        'urlquery',
        'js',
        'println',
        'eq "hello"',
        'and 1',
        'or 0',
        'index .m',
        'print "x"',
        'slice',
      ]);
      e = { text: `${e.text} | ${stage}`, ty: 'any' };
    }
    return e;
  }

  // ---- structure ----

  action(body: string): string {
    const l = this.chance(0.12) ? '- ' : this.chance(0.5) ? ' ' : '';
    const r = this.chance(0.12) ? ' -' : this.chance(0.5) ? ' ' : '';
    return `{{${l}${body}${r}}}`;
  }

  item(depth: number): string {
    if (this.budget-- <= 0) return this.pick(TEXTS);
    const k = this.int(depth > 2 ? 5 : 13);
    if (k < 2) return this.pick(TEXTS);
    if (k < 5) return this.action(this.pipeline(0).text);
    if (k === 5) {
      const name = `$v${this.int(3)}`;
      const scope = this.vars[this.vars.length - 1]!;
      const declared = this.scopeVars().includes(name);
      const op = declared && this.chance(0.5) ? '=' : ':=';
      if (op === ':=') scope.push(name);
      return this.action(`${name} ${op} ${this.pipeline(0).text}`);
    }
    if (k === 6) return this.branch('if', depth);
    if (k === 7) return this.branch('with', depth);
    if (k === 8 || k === 9) return this.range(depth);
    if (k === 10) return this.pick(['{{/* c */}}', '{{- /* trimmed */ -}}', '{{/* multi\nline */}}', '{{/* c */ -}}', '{{- /* c */}}']);
    if (k === 11 && this.defined.length > 0)
      return this.action(`template "${this.pick(this.defined)}" ${this.chance(0.7) ? this.pipeline(0).text : ''}`.trimEnd());
    if (k === 12 && this.rangeDepth > 0) return this.action(this.pick(['break', 'continue']));
    if (k === 11 || k === 12) {
      const name = this.chance(0.97) ? `b${this.blocks++}` : 'b0';
      return `{{block "${name}" ${this.pipeline(0).text}}}${this.inNewScope(() => this.elsewhere(() => this.list(depth + 1)))}{{end}}`;
    }
    return this.pick(TEXTS);
  }

  list(depth: number): string {
    return Array.from({ length: 1 + this.int(3) }, () => this.item(depth)).join('');
  }

  inNewScope<T>(f: () => T): T {
    const saved = this.vars;
    const savedRange = this.rangeDepth;
    this.vars = [['$']];
    this.rangeDepth = 0;
    try {
      return f();
    } finally {
      this.vars = saved;
      this.rangeDepth = savedRange;
    }
  }

  scoped<T>(f: () => T): T {
    this.vars.push([]);
    try {
      return f();
    } finally {
      this.vars.pop();
    }
  }

  /** Generates `f` with dot no longer the root data. */
  elsewhere<T>(f: () => T): T {
    const saved = this.dotIsRoot;
    this.dotIsRoot = false;
    try {
      return f();
    } finally {
      this.dotIsRoot = saved;
    }
  }

  branch(kind: 'if' | 'with', depth: number): string {
    return this.scoped(() => {
      const body = () => this.list(depth + 1);
      let s = this.action(`${kind} ${this.pipeline(0).text}`) + (kind === 'with' ? this.elsewhere(body) : body());
      while (this.chance(0.25)) s += this.action(`else ${kind} ${this.pipeline(0).text}`) + (kind === 'with' ? this.elsewhere(body) : body());
      if (this.chance(0.4)) s += this.action('else') + this.list(depth + 1);
      return s + this.action('end');
    });
  }

  range(depth: number): string {
    return this.scoped(() => {
      const coll = this.pick(['.l', '.ls', '.le', '.m', '.me', '.lm', '.nest.inner', '3', '0', '-1', '$.ls', '.s', '.f', '.n', '(slice .ls 1)']);
      const decl = this.pick(['', '$v := ', '$i, $v := ', '$i, $v := ', '$k := ']);
      for (const v of decl.match(/\$\w+/g) ?? []) this.vars[this.vars.length - 1]!.push(v);
      this.rangeDepth++;
      let s = this.action(`range ${decl}${coll}`) + this.elsewhere(() => this.list(depth + 1));
      this.rangeDepth--;
      if (this.chance(0.3)) s += this.action('else') + this.list(depth + 1);
      return s + this.action('end');
    });
  }

  template(): string {
    this.budget = 12;
    let defs = '';
    const nDefs = this.chance(0.25) ? 1 + this.int(2) : 0;
    for (let i = 0; i < nDefs; i++) {
      const name = `d${i}`;
      defs += `{{define "${name}"}}${this.inNewScope(() => this.elsewhere(() => this.list(1)))}{{end}}`;
      this.defined.push(name);
    }
    const body = Array.from({ length: 1 + this.int(4) }, () => this.item(0)).join('');
    let t = this.chance(0.5) ? defs + body : body + defs;
    if (this.chance(0.08)) t = this.mutate(t);
    return t;
  }

  mutate(t: string): string {
    const at = this.int(t.length + 1);
    if (this.chance(0.5) && t.length > 0) return t.slice(0, at) + t.slice(at + 1);
    return t.slice(0, at) + this.pick(['{', '}', '(', ')', '|', '$', '.', '"', '`', "'", '-', '{{', '}}', '{{end}}', '{{else}}']) + t.slice(at);
  }
}

/** `count` cases from `seed`; the same seed always yields the same cases. */
export function generateCases(seed: number, count: number): Case[] {
  const r = prng(seed);
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const g = new Gen(r);
    const data = g.data();
    cases.push({ template: g.template(), data });
  }
  return cases;
}
