/**
 * Go's fmt.Sprint, Sprintln and Sprintf over gotpl values (see values.ts), including Go's
 * %v rendering of maps (`map[a:1 b:2]`, keys sorted) and slices (`[1 2 3]`) and its inline
 * error reports (`%!d(string=x)`, `%!d(MISSING)`, `%!(EXTRA int=2)`).
 *
 * One deliberate difference: JavaScript has one number type, so an integer-valued number
 * is an int for %d %c %x etc. but any number is accepted by the float verbs %e %f %g.
 */
import { formatFloat, formatInteger, formatUnicode, pad, padding, toRune } from './fmt-number.js';
import type { Flags } from './fmt-number.js';
import { isPrint, canBackquote, quoteRune, quoteString, truncateRunes, utf8Bytes } from './unicode.js';
import { GoStruct, isIntNumber, kindOf, Kind, sortedKeys, typeName } from './values.js';
import type { GoMap } from './values.js';
import type { Budget } from './budget.js';
import { spendWork } from './budget.js';

const NIL = '<nil>';

export function clearFlags(f: Flags): void {
  f.plus = f.minus = f.sharp = f.space = f.zero = f.plusV = f.sharpV = false;
  f.widPresent = f.precPresent = false;
  f.wid = f.prec = 0;
}

/** fmt.tooLarge: widths and precisions above a million are rejected. */
export function tooLarge(n: number): boolean {
  return n > 1e6 || n < -1e6;
}

/** One formatting run: the output buffer and the current verb's flags (fmt's pp). */
export class Printer {
  buf = '';
  /**
   * The rendering's budget, when printing for a template: every element of a list or map
   * printed is a step on its clock, so printing 100,000 numbers stops at the time limit.
   */
  constructor(readonly budget: Budget | null = null) {}

  readonly f: Flags = {
    plus: false,
    minus: false,
    sharp: false,
    space: false,
    zero: false,
    plusV: false,
    sharpV: false,
    widPresent: false,
    precPresent: false,
    wid: 0,
    prec: 0,
  };

  badVerb(verb: string, arg: unknown): void {
    this.buf += '%!' + verb + '(';
    if (arg === null || arg === undefined) this.buf += NIL;
    else {
      this.buf += typeName(arg) + '=';
      this.printArg(arg, 'v');
    }
    this.buf += ')';
  }

  printArg(arg: unknown, verb: string): void {
    if (arg === null || arg === undefined) {
      if (verb === 'T' || verb === 'v') this.buf += pad(this.f, NIL);
      else this.badVerb(verb, arg);
      return;
    }
    if (verb === 'T') {
      this.fmtS(typeName(arg));
      return;
    }
    this.printValue(arg, verb, 0);
  }

  /** depth > 0 means "inside a map or slice", where a nil element prints as <nil> unpadded. */
  printValue(v: unknown, verb: string, depth: number): void {
    if (v === null || v === undefined) {
      this.buf += this.f.sharpV ? 'interface {}(nil)' : NIL;
      return;
    }
    switch (typeof v) {
      case 'boolean':
        if (verb === 't' || verb === 'v') this.buf += pad(this.f, v ? 'true' : 'false');
        else this.badVerb(verb, v);
        return;
      case 'number':
        this.fmtNumber(v, verb);
        return;
      case 'bigint':
        this.fmtInt(v, verb);
        return;
      case 'string':
        this.fmtString(v, verb);
        return;
    }
    switch (kindOf(v)) {
      case Kind.Map:
        this.printMap(v as GoMap, verb, depth);
        return;
      case Kind.Slice:
        this.printSlice(v as unknown[], verb, depth);
        return;
    }
    if (v instanceof GoStruct) {
      // fmt's handleMethods: a Stringer prints through String() for these verbs.
      if (verb === 'v' || verb === 's' || verb === 'q' || verb === 'x' || verb === 'X') this.fmtString(v.goString(), verb);
      else this.badVerb(verb, v);
      return;
    }
    // Go prints a function's address; JavaScript functions have none to show.
    if (verb === 'v') this.buf += pad(this.f, '<func Value>');
    else this.badVerb(verb, v);
  }

  printMap(m: GoMap, verb: string, depth: number): void {
    const sharpV = this.f.sharpV;
    this.buf += sharpV ? 'map[string]interface {}{' : 'map[';
    const keys = sortedKeys(m);
    for (let i = 0; i < keys.length; i++) {
      if (this.budget !== null) spendWork(this.budget, 1, 'printing a map');
      if (i > 0) this.buf += sharpV ? ', ' : ' ';
      this.printValue(keys[i], verb, depth + 1);
      this.buf += ':';
      this.printValue(m[keys[i]!], verb, depth + 1);
    }
    this.buf += sharpV ? '}' : ']';
  }

  printSlice(s: readonly unknown[], verb: string, depth: number): void {
    const sharpV = this.f.sharpV;
    this.buf += sharpV ? '[]interface {}{' : '[';
    for (let i = 0; i < s.length; i++) {
      if (this.budget !== null) spendWork(this.budget, 1, 'printing a list');
      if (i > 0) this.buf += sharpV ? ', ' : ' ';
      this.printValue(s[i], verb, depth + 1);
    }
    this.buf += sharpV ? '}' : ']';
  }

  fmtNumber(n: number, verb: string): void {
    if (isIntNumber(n)) {
      this.fmtInt(n, verb);
      return;
    }
    switch (verb) {
      case 'v':
      case 'g':
      case 'G':
        this.buf += formatFloat(this.f, n, verb === 'v' ? 'g' : verb, -1);
        return;
      case 'b':
      case 'x':
      case 'X':
        this.buf += formatFloat(this.f, n, verb, -1);
        return;
      case 'e':
      case 'E':
      case 'f':
        this.buf += formatFloat(this.f, n, verb, 6);
        return;
      case 'F':
        this.buf += formatFloat(this.f, n, 'f', 6);
        return;
    }
    this.badVerb(verb, n);
  }

  fmtInt(n: number | bigint, verb: string): void {
    const f = this.f;
    switch (verb) {
      case 'v':
      case 'd':
        this.buf += formatInteger(f, n, 10, verb, false);
        return;
      case 'b':
        this.buf += formatInteger(f, n, 2, verb, false);
        return;
      case 'o':
      case 'O':
        this.buf += formatInteger(f, n, 8, verb, false);
        return;
      case 'x':
        this.buf += formatInteger(f, n, 16, verb, false);
        return;
      case 'X':
        this.buf += formatInteger(f, n, 16, verb, true);
        return;
      case 'c':
        this.buf += pad(f, String.fromCodePoint(toRune(n)));
        return;
      case 'q':
        this.buf += pad(f, quoteRune(toRune(n), f.plus));
        return;
      case 'U':
        this.buf += formatUnicode(f, n, isPrint);
        return;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
        // Deliberate difference: Go rejects an int here; we have no separate int type.
        if (typeof n === 'number') {
          this.buf += formatFloat(f, n, verb === 'F' ? 'f' : verb, verb === 'g' || verb === 'G' ? -1 : 6);
          return;
        }
    }
    this.badVerb(verb, n);
  }

  fmtS(s: string): void {
    if (this.f.precPresent) s = truncateRunes(s, this.f.prec);
    this.buf += pad(this.f, s);
  }

  fmtQ(s: string): void {
    const f = this.f;
    if (f.precPresent) s = truncateRunes(s, f.prec);
    if (f.sharp && canBackquote(s)) this.buf += pad(f, '`' + s + '`');
    else this.buf += pad(f, quoteString(s, f.plus));
  }

  /** %x of a string: hex of its UTF-8 bytes; ' ' separates bytes, '#' adds 0x. */
  fmtSx(s: string, upper: boolean): void {
    const f = this.f;
    const digits = upper ? '0123456789ABCDEF' : '0123456789abcdef';
    const bytes = utf8Bytes(s);
    const length = f.precPresent && f.prec < bytes.length ? f.prec : bytes.length;
    if (length === 0) {
      if (f.widPresent) this.buf += padding(f, f.wid);
      return;
    }
    let width = 2 * length;
    if (f.space) width = (f.sharp ? width * 2 : width) + length - 1;
    else if (f.sharp) width += 2;
    const prefix = upper ? '0X' : '0x';
    let out = f.sharp ? prefix : '';
    for (let i = 0; i < length; i++) {
      if (f.space && i > 0) out += f.sharp ? ' ' + prefix : ' ';
      out += digits[bytes[i]! >> 4]! + digits[bytes[i]! & 15]!;
    }
    if (f.widPresent && f.wid > width) {
      out = f.minus ? out + padding(f, f.wid - width) : padding(f, f.wid - width) + out;
    }
    this.buf += out;
  }

  fmtString(s: string, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.f.sharpV) this.fmtQ(s);
        else this.fmtS(s);
        return;
      case 's':
        this.fmtS(s);
        return;
      case 'x':
      case 'X':
        this.fmtSx(s, verb === 'X');
        return;
      case 'q':
        this.fmtQ(s);
        return;
    }
    this.badVerb(verb, s);
  }
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly unknown[], budget: Budget | null = null): string {
  const p = new Printer(budget);
  let prevString = false;
  for (let i = 0; i < args.length; i++) {
    const isString = typeof args[i] === 'string';
    if (i > 0 && !isString && !prevString) p.buf += ' ';
    p.printArg(args[i], 'v');
    prevString = isString;
  }
  return p.buf;
}

/** fmt.Sprintln: spaces between all operands and a trailing newline. */
export function sprintln(args: readonly unknown[], budget: Budget | null = null): string {
  const p = new Printer(budget);
  for (let i = 0; i < args.length; i++) {
    if (i > 0) p.buf += ' ';
    p.printArg(args[i], 'v');
  }
  return p.buf + '\n';
}

/** Fast path for the template's own output of one value: fmt.Fprint(w, v). */
export function printOne(v: unknown, budget: Budget | null = null): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return String(v);
  return sprint([v], budget);
}
