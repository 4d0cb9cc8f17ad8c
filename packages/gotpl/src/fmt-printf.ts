/**
 * fmt.Sprintf's format-string interpreter (doPrintf): flags, explicit argument indexes
 * `%[2]d`, `*` widths and precisions, and the %!verb(...) reports Go writes inline.
 */
import type { Budget } from './budget.js';
import { Printer, clearFlags, tooLarge } from './fmt.js';
import { isIntNumber } from './values.js';

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** fmt.parsenum: a decimal number at s[start:end]. */
function parseNum(s: string, start: number, end: number): { num: number; isNum: boolean; next: number } {
  if (start >= end) return { num: 0, isNum: false, next: end };
  let num = 0;
  let isNum = false;
  let i = start;
  for (; i < end && isDigit(s.charCodeAt(i)); i++) {
    if (tooLarge(num)) return { num: 0, isNum: false, next: end };
    num = num * 10 + (s.charCodeAt(i) - 0x30);
    isNum = true;
  }
  return { num, isNum, next: i };
}

/** fmt.intFromArg: a `*` width or precision. */
function intFromArg(args: readonly unknown[], argNum: number): { num: number; isInt: boolean; argNum: number } {
  if (argNum >= args.length) return { num: 0, isInt: false, argNum };
  const a = args[argNum];
  let num = 0;
  let isInt = false;
  if (typeof a === 'number' && isIntNumber(a)) {
    num = a;
    isInt = true;
  }
  if (tooLarge(num)) {
    num = 0;
    isInt = false;
  }
  return { num, isInt, argNum: argNum + 1 };
}

class FormatState {
  argNum = 0;
  reordered = false;
  goodArgNum = true;
  afterIndex = false;

  constructor(
    readonly p: Printer,
    readonly format: string,
    readonly args: readonly unknown[],
  ) {}

  /** fmt.argNumber: an optional `[n]` at i; returns the new index into the format. */
  argNumber(i: number): number {
    const s = this.format;
    if (i >= s.length || s[i] !== '[') {
      this.afterIndex = false;
      return i;
    }
    this.reordered = true;
    // parseArgNumber: there must be at least 3 bytes, "[n]".
    let ok = false;
    let index = 0;
    let width = 1;
    if (s.length - i >= 3) {
      for (let j = i + 1; j < s.length; j++) {
        if (s[j] === ']') {
          const n = parseNum(s, i + 1, j);
          width = j - i + 1;
          if (n.isNum && n.next === j) {
            ok = true;
            index = n.num - 1;
          }
          break;
        }
      }
    }
    if (ok && index >= 0 && index < this.args.length) {
      this.argNum = index;
      this.afterIndex = true;
      return i + width;
    }
    this.goodArgNum = false;
    this.afterIndex = ok;
    return i + width;
  }
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: readonly unknown[], budget: Budget | null = null): string {
  const p = new Printer(budget);
  const f = p.f;
  const st = new FormatState(p, format, args);
  const end = format.length;
  let i = 0;
  formatLoop: while (i < end) {
    st.goodArgNum = true;
    const lasti = i;
    while (i < end && format.charCodeAt(i) !== 0x25) i++;
    if (i > lasti) p.buf += format.slice(lasti, i);
    if (i >= end) break;
    i++; // skip '%'
    clearFlags(f);
    simpleFormat: for (; i < end; i++) {
      const c = format[i]!;
      switch (c) {
        case '#':
          f.sharp = true;
          break;
        case '0':
          f.zero = !f.minus; // only allow zero padding to the left
          break;
        case '+':
          f.plus = true;
          break;
        case '-':
          f.minus = true;
          f.zero = false;
          break;
        case ' ':
          f.space = true;
          break;
        default:
          // Fast path: simple flags and a lower-case verb.
          if (c >= 'a' && c <= 'z' && st.argNum < args.length) {
            if (c === 'v') {
              f.sharpV = f.sharp;
              f.sharp = false;
              f.plusV = f.plus;
              f.plus = false;
            }
            p.printArg(args[st.argNum], c);
            st.argNum++;
            i++;
            continue formatLoop;
          }
          break simpleFormat;
      }
    }

    i = st.argNumber(i);

    if (i < end && format[i] === '*') {
      i++;
      const w = intFromArg(args, st.argNum);
      f.wid = w.num;
      f.widPresent = w.isInt;
      st.argNum = w.argNum;
      if (!f.widPresent) p.buf += '%!(BADWIDTH)';
      if (f.wid < 0) {
        f.wid = -f.wid;
        f.minus = true;
        f.zero = false;
      }
      st.afterIndex = false;
    } else {
      const w = parseNum(format, i, end);
      f.wid = w.num;
      f.widPresent = w.isNum;
      i = w.next;
      if (st.afterIndex && f.widPresent) st.goodArgNum = false; // "%[3]2d"
    }

    if (i + 1 < end && format[i] === '.') {
      i++;
      if (st.afterIndex) st.goodArgNum = false; // "%[3].2d"
      i = st.argNumber(i);
      if (i < end && format[i] === '*') {
        i++;
        const pr = intFromArg(args, st.argNum);
        f.prec = pr.num;
        f.precPresent = pr.isInt;
        st.argNum = pr.argNum;
        if (f.prec < 0) {
          f.prec = 0;
          f.precPresent = false;
        }
        if (!f.precPresent) p.buf += '%!(BADPREC)';
        st.afterIndex = false;
      } else {
        const pr = parseNum(format, i, end);
        f.prec = pr.num;
        f.precPresent = true; // "%.d" means precision 0
        i = pr.next;
      }
    }

    if (!st.afterIndex) i = st.argNumber(i);

    if (i >= end) {
      p.buf += '%!(NOVERB)';
      break;
    }

    const cp = format.codePointAt(i)!;
    const verb = String.fromCodePoint(cp);
    i += verb.length;

    if (verb === '%') {
      p.buf += '%'; // does not absorb an operand and ignores width and precision
    } else if (!st.goodArgNum) {
      p.buf += `%!${verb}(BADINDEX)`;
    } else if (st.argNum >= args.length) {
      p.buf += `%!${verb}(MISSING)`;
    } else {
      if (verb === 'v') {
        f.sharpV = f.sharp;
        f.sharp = false;
        f.plusV = f.plus;
        f.plus = false;
      }
      p.printArg(args[st.argNum], verb);
      st.argNum++;
    }
  }

  // Unused arguments are reported, unless indexes made the accounting ambiguous.
  if (!st.reordered && st.argNum < args.length) {
    clearFlags(f);
    p.buf += '%!(EXTRA ';
    for (let k = st.argNum; k < args.length; k++) {
      if (k > st.argNum) p.buf += ', ';
      p.printArg(args[k], 'T');
      if (args[k] !== null && args[k] !== undefined) {
        p.buf += '=';
        p.printArg(args[k], 'v');
      }
    }
    p.buf += ')';
  }
  return p.buf;
}
