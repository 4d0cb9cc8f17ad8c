/**
 * Go's reference-time layouts ("2006-01-02 15:04:05 MST"): cutting a layout into its
 * elements (time/format.go's nextStdChunk), shared by formatting and parsing.
 */

export const enum Std {
  None,
  LongMonth,
  Month,
  NumMonth,
  ZeroMonth,
  LongWeekDay,
  WeekDay,
  Day,
  UnderDay,
  ZeroDay,
  UnderYearDay,
  ZeroYearDay,
  Hour,
  Hour12,
  ZeroHour12,
  Minute,
  ZeroMinute,
  Second,
  ZeroSecond,
  LongYear,
  Year,
  PM,
  pm,
  TZ,
  ISO8601TZ,
  ISO8601SecondsTZ,
  ISO8601ShortTZ,
  ISO8601ColonTZ,
  ISO8601ColonSecondsTZ,
  NumTZ,
  NumSecondsTz,
  NumShortTZ,
  NumColonTZ,
  NumColonSecondsTZ,
  FracSecond0,
  FracSecond9,
}

export interface Chunk {
  readonly prefix: string;
  readonly std: Std;
  /** The layout text of the element ("Jan", ".000"). */
  readonly text: string;
  readonly suffix: string;
  /** Fractional seconds: digits, and the separator ('.' or ','). */
  readonly digits: number;
  readonly separator: string;
}

const ZERO_X = [Std.ZeroMonth, Std.ZeroDay, Std.ZeroHour12, Std.ZeroMinute, Std.ZeroSecond, Std.Year] as const;

const isDigitAt = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;
const lowerAt = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 0x61 && s.charCodeAt(i) <= 0x7a;

const TZ_FORMS: ReadonlyArray<readonly [string, Std]> = [
  ['-070000', Std.NumSecondsTz],
  ['-07:00:00', Std.NumColonSecondsTZ],
  ['-0700', Std.NumTZ],
  ['-07:00', Std.NumColonTZ],
  ['-07', Std.NumShortTZ],
  ['Z070000', Std.ISO8601SecondsTZ],
  ['Z07:00:00', Std.ISO8601ColonSecondsTZ],
  ['Z0700', Std.ISO8601TZ],
  ['Z07:00', Std.ISO8601ColonTZ],
  ['Z07', Std.ISO8601ShortTZ],
];

/** nextStdChunk: the text before the first element, the element, and the rest. */
export function nextChunk(layout: string): Chunk {
  const at = (i: number, std: Std, len: number, prefixEnd = i): Chunk => ({
    prefix: layout.slice(0, prefixEnd),
    std,
    text: layout.slice(prefixEnd, i + len),
    suffix: layout.slice(i + len),
    digits: 0,
    separator: '',
  });
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i]!;
    const rest = layout.slice(i);
    switch (c) {
      case 'J':
        if (rest.startsWith('Jan')) {
          if (rest.startsWith('January')) return at(i, Std.LongMonth, 7);
          if (!lowerAt(layout, i + 3)) return at(i, Std.Month, 3);
        }
        break;
      case 'M':
        if (rest.startsWith('Mon')) {
          if (rest.startsWith('Monday')) return at(i, Std.LongWeekDay, 6);
          if (!lowerAt(layout, i + 3)) return at(i, Std.WeekDay, 3);
        }
        if (rest.startsWith('MST')) return at(i, Std.TZ, 3);
        break;
      case '0': {
        const d = layout.charCodeAt(i + 1);
        if (d >= 0x31 && d <= 0x36) return at(i, ZERO_X[d - 0x31]!, 2);
        if (rest.startsWith('002')) return at(i, Std.ZeroYearDay, 3);
        break;
      }
      case '1':
        if (layout[i + 1] === '5') return at(i, Std.Hour, 2);
        return at(i, Std.NumMonth, 1);
      case '2':
        if (rest.startsWith('2006')) return at(i, Std.LongYear, 4);
        return at(i, Std.Day, 1);
      case '_':
        if (layout[i + 1] === '2') {
          // _2006 is the literal "_" and then the year.
          if (rest.startsWith('_2006')) return at(i + 1, Std.LongYear, 4, i + 1);
          return at(i, Std.UnderDay, 2);
        }
        if (rest.startsWith('__2')) return at(i, Std.UnderYearDay, 3);
        break;
      case '3':
        return at(i, Std.Hour12, 1);
      case '4':
        return at(i, Std.Minute, 1);
      case '5':
        return at(i, Std.Second, 1);
      case 'P':
        if (layout[i + 1] === 'M') return at(i, Std.PM, 2);
        break;
      case 'p':
        if (layout[i + 1] === 'm') return at(i, Std.pm, 2);
        break;
      case '-':
      case 'Z':
        for (const [form, std] of TZ_FORMS) if (rest.startsWith(form)) return at(i, std, form.length);
        break;
      case '.':
      case ',': {
        const ch = layout[i + 1];
        if (ch === '0' || ch === '9') {
          let j = i + 1;
          while (j < layout.length && layout[j] === ch) j++;
          if (!isDigitAt(layout, j)) {
            return { ...at(i, ch === '0' ? Std.FracSecond0 : Std.FracSecond9, j - i), digits: j - (i + 1), separator: c };
          }
        }
        break;
      }
    }
  }
  return { prefix: layout, std: Std.None, text: '', suffix: '', digits: 0, separator: '' };
}

export const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const SHORT_MONTHS = LONG_MONTHS.map((m) => m.slice(0, 3));
export const SHORT_DAYS = LONG_DAYS.map((d) => d.slice(0, 3));
