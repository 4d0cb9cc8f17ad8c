/** time.ParseInLocation, ported from time/format.go: the layout drives the parse, and errors read as Go's. */
import { GoTime } from './go-time.js';
import { nextChunk, LONG_DAYS, LONG_MONTHS, SHORT_DAYS, SHORT_MONTHS, Std } from './layout.js';
import { timeQuote } from './duration.js';
import type { Zone } from './zones.js';
import { fixedZone, UTC } from './zones.js';

class Bad extends Error {}

const isDigit = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

function getnum(s: string, fixed: boolean): [number, string] {
  if (!isDigit(s, 0)) throw new Bad();
  if (!isDigit(s, 1)) {
    if (fixed) throw new Bad();
    return [s.charCodeAt(0) - 48, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 48) * 10 + s.charCodeAt(1) - 48, s.slice(2)];
}

function getnum3(s: string, fixed: boolean): [number, string] {
  let n = 0;
  let i = 0;
  for (; i < 3 && isDigit(s, i); i++) n = n * 10 + s.charCodeAt(i) - 48;
  if (i === 0 || (fixed && i !== 3)) throw new Bad();
  return [n, s.slice(i)];
}

function lookup(table: readonly string[], s: string): [number, string] {
  for (let i = 0; i < table.length; i++) {
    const v = table[i]!;
    if (s.length >= v.length && s.slice(0, v.length).toLowerCase() === v.toLowerCase() && /^[A-Za-z]*$/.test(s.slice(0, v.length)))
      return [i, s.slice(v.length)];
  }
  throw new Bad();
}

function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Bad();
  return Number(s);
}

function skip(value: string, prefix: string): string {
  while (prefix.length > 0) {
    if (prefix[0] === ' ') {
      if (value.length > 0 && value[0] !== ' ') throw new Bad();
      prefix = prefix.replace(/^ +/, '');
      value = value.replace(/^ +/, '');
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) throw new Bad();
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

function parseNanoseconds(value: string, nbytes: number): number {
  if (value[0] !== '.' && value[0] !== ',') throw new Bad();
  if (nbytes > 10) nbytes = 10;
  let ns = atoi(value.slice(1, nbytes));
  for (let i = 0; i < 10 - nbytes; i++) ns *= 10;
  return ns;
}

function parseSignedOffset(value: string): number {
  if (value[0] !== '-' && value[0] !== '+') return 0;
  const m = /^\d+/.exec(value.slice(1));
  if (m === null || Number(m[0]) > 23) return 0;
  return 1 + m[0].length;
}

function parseTimeZone(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4;
  if (value.startsWith('GMT')) return value.length === 3 ? 3 : 3 + parseSignedOffset(value.slice(3));
  if (value[0] === '+' || value[0] === '-') return parseSignedOffset(value);
  let n = 0;
  while (n < 6 && n < value.length && value[n]! >= 'A' && value[n]! <= 'Z') n++;
  if (n === 3) return 3;
  if (n === 4 && (value[3] === 'T' || value.startsWith('WITA'))) return 4;
  if (n === 5 && value[4] === 'T') return 5;
  return 0;
}

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
const daysIn = (m: number, y: number): number => (m === 2 && isLeap(y) ? 29 : DAYS_BEFORE[m]! - DAYS_BEFORE[m - 1]!);

/** time.Date: civil fields in a zone to an instant, normalising overflowing fields as Go does. */
export function goDate(year: number, month: number, day: number, hour: number, min: number, sec: number, nsec: number, zone: Zone): GoTime {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, min, sec, 0);
  const local = Math.floor(d.getTime() / 1000);
  let offset = zone.lookup(local).offset;
  if (offset !== 0) {
    const again = zone.lookup(local - offset).offset;
    if (again !== offset) offset = again;
  }
  return new GoTime(local - offset, 0, zone).add(BigInt(nsec));
}

function parseError(layout: string, value: string, layoutElem: string, valueElem: string, message: string): Error {
  if (message === '') {
    return new Error(`parsing time ${timeQuote(value)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`);
  }
  return new Error(`parsing time ${timeQuote(value)}${message}`);
}

/** time.ParseInLocation(layout, value, local). */
export function parseTime(layout: string, value: string, local: Zone): GoTime {
  const alayout = layout;
  const avalue = value;
  let amSet = false;
  let pmSet = false;
  let year = 0;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let z: Zone | null = null;
  let zoneOffset = -1;
  let zoneName = '';
  for (;;) {
    const chunk = nextChunk(layout);
    try {
      value = skip(value, chunk.prefix);
    } catch {
      throw parseError(alayout, avalue, chunk.prefix, value, '');
    }
    if (chunk.std === Std.None) {
      if (value.length !== 0) throw parseError(alayout, avalue, '', value, `: extra text: ${timeQuote(value)}`);
      break;
    }
    layout = chunk.suffix;
    const hold = value;
    let range = '';
    try {
      switch (chunk.std) {
        case Std.Year: {
          if (value.length < 2) throw new Bad();
          year = atoi(value.slice(0, 2));
          value = value.slice(2);
          year += year >= 69 ? 1900 : 2000;
          break;
        }
        case Std.LongYear:
          if (value.length < 4 || !isDigit(value, 0)) throw new Bad();
          year = atoi(value.slice(0, 4));
          value = value.slice(4);
          break;
        case Std.Month:
          [month, value] = lookup(SHORT_MONTHS, value);
          month++;
          break;
        case Std.LongMonth:
          [month, value] = lookup(LONG_MONTHS, value);
          month++;
          break;
        case Std.NumMonth:
        case Std.ZeroMonth:
          [month, value] = getnum(value, chunk.std === Std.ZeroMonth);
          if (month <= 0 || month > 12) range = 'month';
          break;
        case Std.WeekDay:
          [, value] = lookup(SHORT_DAYS, value);
          break;
        case Std.LongWeekDay:
          [, value] = lookup(LONG_DAYS, value);
          break;
        case Std.Day:
        case Std.UnderDay:
        case Std.ZeroDay:
          if (chunk.std === Std.UnderDay && value[0] === ' ') value = value.slice(1);
          [day, value] = getnum(value, chunk.std === Std.ZeroDay);
          break;
        case Std.UnderYearDay:
        case Std.ZeroYearDay:
          for (let i = 0; i < 2; i++) if (chunk.std === Std.UnderYearDay && value[0] === ' ') value = value.slice(1);
          [yday, value] = getnum3(value, chunk.std === Std.ZeroYearDay);
          break;
        case Std.Hour:
          [hour, value] = getnum(value, false);
          if (hour < 0 || hour >= 24) range = 'hour';
          break;
        case Std.Hour12:
        case Std.ZeroHour12:
          [hour, value] = getnum(value, chunk.std === Std.ZeroHour12);
          if (hour < 0 || hour > 12) range = 'hour';
          break;
        case Std.Minute:
        case Std.ZeroMinute:
          [min, value] = getnum(value, chunk.std === Std.ZeroMinute);
          if (min < 0 || min >= 60) range = 'minute';
          break;
        case Std.Second:
        case Std.ZeroSecond: {
          [sec, value] = getnum(value, chunk.std === Std.ZeroSecond);
          if (sec < 0 || sec >= 60) {
            range = 'second';
            break;
          }
          // Fractional seconds after the seconds, when the layout has none of its own.
          if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
            const next = nextChunk(layout).std;
            if (next === Std.FracSecond0 || next === Std.FracSecond9) break;
            let n = 2;
            while (n < value.length && isDigit(value, n)) n++;
            nsec = parseNanoseconds(value, n);
            value = value.slice(n);
          }
          break;
        }
        case Std.PM:
        case Std.pm: {
          if (value.length < 2) throw new Bad();
          const p = value.slice(0, 2);
          value = value.slice(2);
          const upper = chunk.std === Std.PM;
          if (p === (upper ? 'PM' : 'pm')) pmSet = true;
          else if (p === (upper ? 'AM' : 'am')) amSet = true;
          else throw new Bad();
          break;
        }
        case Std.TZ: {
          if (value.startsWith('UTC')) {
            z = UTC;
            value = value.slice(3);
            break;
          }
          const n = parseTimeZone(value);
          if (n === 0) throw new Bad();
          zoneName = value.slice(0, n);
          value = value.slice(n);
          break;
        }
        case Std.FracSecond0: {
          const n = 1 + chunk.digits;
          if (value.length < n) throw new Bad();
          nsec = parseNanoseconds(value, n);
          value = value.slice(n);
          break;
        }
        case Std.FracSecond9: {
          if (value.length < 2 || (value[0] !== '.' && value[0] !== ',') || !isDigit(value, 1)) break;
          let i = 0;
          while (i + 1 < value.length && isDigit(value, i + 1)) i++;
          nsec = parseNanoseconds(value, 1 + i);
          value = value.slice(1 + i);
          break;
        }
        default: {
          const std = chunk.std;
          const iso =
            std === Std.ISO8601TZ ||
            std === Std.ISO8601ShortTZ ||
            std === Std.ISO8601ColonTZ ||
            std === Std.ISO8601SecondsTZ ||
            std === Std.ISO8601ColonSecondsTZ;
          if (iso && value[0] === 'Z') {
            value = value.slice(1);
            z = UTC;
            break;
          }
          let parts: [string, string, string, string];
          if (std === Std.ISO8601ColonTZ || std === Std.NumColonTZ) {
            if (value.length < 6 || value[3] !== ':') throw new Bad();
            parts = [value[0]!, value.slice(1, 3), value.slice(4, 6), '00'];
            value = value.slice(6);
          } else if (std === Std.NumShortTZ || std === Std.ISO8601ShortTZ) {
            if (value.length < 3) throw new Bad();
            parts = [value[0]!, value.slice(1, 3), '00', '00'];
            value = value.slice(3);
          } else if (std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ) {
            if (value.length < 9 || value[3] !== ':' || value[6] !== ':') throw new Bad();
            parts = [value[0]!, value.slice(1, 3), value.slice(4, 6), value.slice(7, 9)];
            value = value.slice(9);
          } else if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz) {
            if (value.length < 7) throw new Bad();
            parts = [value[0]!, value.slice(1, 3), value.slice(3, 5), value.slice(5, 7)];
            value = value.slice(7);
          } else {
            if (value.length < 5) throw new Bad();
            parts = [value[0]!, value.slice(1, 3), value.slice(3, 5), '00'];
            value = value.slice(5);
          }
          const [hr] = getnum(parts[1], true);
          const [mm] = getnum(parts[2], true);
          const [ss] = getnum(parts[3], true);
          if (hr > 24) range = 'time zone offset hour';
          if (mm > 60) range = 'time zone offset minute';
          if (ss > 60) range = 'time zone offset second';
          zoneOffset = (hr * 60 + mm) * 60 + ss;
          if (parts[0] === '-') zoneOffset = -zoneOffset;
          else if (parts[0] !== '+') throw new Bad();
        }
      }
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      if (range !== '') throw parseError(alayout, avalue, chunk.text, value, `: ${range} out of range`);
      throw parseError(alayout, avalue, chunk.text, hold, '');
    }
    if (range !== '') throw parseError(alayout, avalue, chunk.text, value, `: ${range} out of range`);
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    let d = 0;
    let m = 0;
    if (isLeap(year)) {
      if (yday === 31 + 29) {
        m = 2;
        d = 29;
      } else if (yday > 31 + 29) yday--;
    }
    if (yday < 1 || yday > 365) throw parseError(alayout, avalue, '', value, ': day-of-year out of range');
    if (m === 0) {
      m = Math.floor((yday - 1) / 31) + 1;
      if (DAYS_BEFORE[m]! < yday) m++;
      d = yday - DAYS_BEFORE[m - 1]!;
    }
    if (month >= 0 && month !== m) throw parseError(alayout, avalue, '', value, ': day-of-year does not match month');
    month = m;
    if (day >= 0 && day !== d) throw parseError(alayout, avalue, '', value, ': day-of-year does not match day');
    day = d;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day < 1 || day > daysIn(month, year)) throw parseError(alayout, avalue, '', value, ': day out of range');
  if (z !== null) return goDate(year, month, day, hour, min, sec, nsec, z);
  if (zoneOffset !== -1) {
    const t = goDate(year, month, day, hour, min, sec, nsec, UTC).add(BigInt(-zoneOffset) * 1_000_000_000n);
    const info = local.lookup(t.sec);
    if (info.offset === zoneOffset && (zoneName === '' || info.abbr === zoneName)) return t.in(local);
    return t.in(fixedZone(zoneName, zoneOffset));
  }
  if (zoneName !== '') {
    const t = goDate(year, month, day, hour, min, sec, nsec, UTC);
    const info = local.lookup(t.sec);
    if (info.abbr === zoneName) return t.add(BigInt(-info.offset) * 1_000_000_000n).in(local);
    let offset = 0;
    if (zoneName.length > 3 && zoneName.startsWith('GMT')) offset = Number(zoneName.slice(3)) * 3600;
    return t.in(fixedZone(zoneName, offset));
  }
  return goDate(year, month, day, hour, min, sec, nsec, local);
}
