/** Go's time.Duration: Duration.String() and time.ParseDuration, on nanoseconds held as bigint. */

const SECOND = 1_000_000_000n;
const MAX = 2n ** 63n;

/** fmtFrac: ".5" for the fraction of v / 10^prec, nothing when it is zero. */
function fraction(v: bigint, prec: number): [string, bigint] {
  let s = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print ||= digit !== 0n;
    if (print) s = digit.toString() + s;
    v /= 10n;
  }
  return [print ? '.' + s : '', v];
}

/** Duration.String(): "1h2m3.5s", "1.5ms", "0s". */
export function formatDuration(d: bigint): string {
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND) {
    if (u === 0n) return '0s';
    let unit: string;
    let prec: number;
    if (u < 1000n) [unit, prec] = ['ns', 0];
    else if (u < 1_000_000n) [unit, prec] = ['µs', 3];
    else [unit, prec] = ['ms', 6];
    const [frac, rest] = fraction(u, prec);
    out = rest.toString() + frac + unit;
  } else {
    const [frac, rest] = fraction(u, 9);
    u = rest;
    out = (u % 60n).toString() + frac + 's';
    u /= 60n;
    if (u > 0n) {
      out = (u % 60n).toString() + 'm' + out;
      u /= 60n;
      if (u > 0n) out = u.toString() + 'h' + out;
    }
  }
  return neg ? '-' + out : out;
}

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1000n],
  ['µs', 1000n],
  ['μs', 1000n],
  ['ms', 1_000_000n],
  ['s', SECOND],
  ['m', 60n * SECOND],
  ['h', 3600n * SECOND],
]);

/** time's quote for its messages: ASCII as is, anything else as \x bytes. */
export function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80 || cp < 0x20) for (const b of Buffer.from(ch, 'utf8')) out += '\\x' + b.toString(16).padStart(2, '0');
    else out += ch === '"' || ch === '\\' ? '\\' + ch : ch;
  }
  return out + '"';
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** time.ParseDuration: "1h30m", "-1.5s", "300ms". */
export function parseDuration(orig: string): bigint {
  const invalid = (): Error => new Error(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    let i = 0;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v >= MAX) throw invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (MAX - 1n) / 10n) {
          overflow = true;
          continue;
        }
        f = f * 10n + BigInt(s.charCodeAt(j) - 48);
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    let k = 0;
    while (k < s.length && !(s[k] === '.' || isDigit(s[k]))) k++;
    if (k === 0) throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS.get(u);
    if (unit === undefined) throw new Error(`time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}`);
    if (v > MAX / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX) throw invalid();
    }
    d += v;
    if (d > MAX) throw invalid();
  }
  if (neg) return -d;
  if (d > MAX - 1n) throw invalid();
  return d;
}
