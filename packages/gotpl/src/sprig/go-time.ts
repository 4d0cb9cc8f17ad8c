/**
 * Go's time.Time as a template value: an instant (Unix seconds and nanoseconds) in a
 * zone. It prints as Go's Time.String() does, encodes to JSON as RFC 3339, exposes its
 * argument-less methods as fields (`(now).Year`), and formats with Go's layouts.
 */
import { GoStruct } from '../values.js';
import { LONG_DAYS, LONG_MONTHS, nextChunk, SHORT_DAYS, SHORT_MONTHS, Std } from './layout.js';
import type { Zone } from './zones.js';
import { UTC } from './zones.js';

const pad = (n: number, width: number): string => {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + s : s;
};

export interface Civil {
  readonly year: number;
  /** 1..12 */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** 0 = Sunday */
  readonly weekday: number;
  /** 1..366 */
  readonly yearDay: number;
}

export class GoTime extends GoStruct {
  readonly goType = 'time.Time';
  readonly goKind = 'struct';

  constructor(
    /** Whole seconds since 1970-01-01 UTC. */
    readonly sec: number,
    /** 0..999999999 */
    readonly nsec: number,
    readonly zone: Zone,
  ) {
    super();
  }

  /** Go's zero Time: January 1, year 1, 00:00:00 UTC. */
  static zero(): GoTime {
    return new GoTime(-62135596800, 0, UTC);
  }

  static fromMillis(ms: number, zone: Zone): GoTime {
    const sec = Math.floor(ms / 1000);
    return new GoTime(sec, Math.round((ms - sec * 1000) * 1e6), zone);
  }

  in(zone: Zone): GoTime {
    return new GoTime(this.sec, this.nsec, zone);
  }

  /** Adds nanoseconds (a Duration). */
  add(ns: bigint): GoTime {
    const total = BigInt(this.sec) * 1_000_000_000n + BigInt(this.nsec) + ns;
    const sec = total / 1_000_000_000n - (total % 1_000_000_000n < 0n ? 1n : 0n);
    return new GoTime(Number(sec), Number(total - sec * 1_000_000_000n), this.zone);
  }

  /** Nanoseconds from other to this. */
  sub(other: GoTime): bigint {
    return (BigInt(this.sec) - BigInt(other.sec)) * 1_000_000_000n + BigInt(this.nsec - other.nsec);
  }

  civil(): Civil & { abbr: string; offset: number } {
    const { abbr, offset } = this.zone.lookup(this.sec);
    const d = new Date((this.sec + offset) * 1000);
    const year = d.getUTCFullYear();
    // setUTCFullYear, unlike Date.UTC, does not read years 0..99 as 1900..1999.
    const startOfYear = new Date(0).setUTCFullYear(year, 0, 1);
    return {
      year,
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      weekday: d.getUTCDay(),
      yearDay: Math.floor((d.getTime() - startOfYear) / 86_400_000) + 1,
      abbr,
      offset,
    };
  }

  format(layout: string): string {
    const c = this.civil();
    let out = '';
    for (;;) {
      const chunk = nextChunk(layout);
      out += chunk.prefix;
      if (chunk.std === Std.None) return out;
      layout = chunk.suffix;
      out += formatElement(chunk.std, c, this.nsec, chunk.digits, chunk.separator);
    }
  }

  goString(): string {
    return this.format('2006-01-02 15:04:05.999999999 -0700 MST');
  }

  toJSON(): string {
    return this.format('2006-01-02T15:04:05.999999999Z07:00');
  }

  field(name: string): unknown {
    switch (name) {
      case 'Year':
        return this.civil().year;
      case 'Month':
        return LONG_MONTHS[this.civil().month - 1];
      case 'Day':
        return this.civil().day;
      case 'Hour':
        return this.civil().hour;
      case 'Minute':
        return this.civil().minute;
      case 'Second':
        return this.civil().second;
      case 'Nanosecond':
        return this.nsec;
      case 'YearDay':
        return this.civil().yearDay;
      case 'Weekday':
        return LONG_DAYS[this.civil().weekday];
      case 'Unix':
        return this.sec;
      case 'UnixMilli':
        return this.sec * 1000 + Math.floor(this.nsec / 1e6);
      case 'UTC':
        return this.in(UTC);
      case 'IsZero':
        return this.sec === -62135596800 && this.nsec === 0;
      case 'String':
        return this.goString();
    }
    return undefined;
  }
}

function zoneNumber(std: Std, offset: number): string {
  const iso =
    std === Std.ISO8601TZ || std === Std.ISO8601ColonTZ || std === Std.ISO8601SecondsTZ || std === Std.ISO8601ShortTZ || std === Std.ISO8601ColonSecondsTZ;
  if (offset === 0 && iso) return 'Z';
  let zone = Math.trunc(offset / 60);
  let abs = offset;
  let out = '+';
  if (zone < 0) {
    out = '-';
    zone = -zone;
    abs = -abs;
  }
  out += pad(Math.floor(zone / 60), 2);
  const colon = std === Std.ISO8601ColonTZ || std === Std.NumColonTZ || std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ;
  if (colon) out += ':';
  if (std !== Std.NumShortTZ && std !== Std.ISO8601ShortTZ) out += pad(zone % 60, 2);
  if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz || std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) {
    if (std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) out += ':';
    out += pad(abs % 60, 2);
  }
  return out;
}

/** appendNano. */
function fraction(nsec: number, digits: number, separator: string, trim: boolean): string {
  if (trim && (digits === 0 || nsec === 0)) return '';
  let s = separator + String(nsec).padStart(9, '0');
  if (digits < 9) s = s.slice(0, 1 + digits);
  if (trim) s = s.replace(/0+$/, '').replace(/[.,]$/, '');
  return s;
}

function formatElement(std: Std, c: Civil & { abbr: string; offset: number }, nsec: number, digits: number, separator: string): string {
  switch (std) {
    case Std.Year:
      return pad(Math.abs(c.year % 100), 2);
    case Std.LongYear:
      return pad(c.year, 4);
    case Std.Month:
      return SHORT_MONTHS[c.month - 1]!;
    case Std.LongMonth:
      return LONG_MONTHS[c.month - 1]!;
    case Std.NumMonth:
      return String(c.month);
    case Std.ZeroMonth:
      return pad(c.month, 2);
    case Std.WeekDay:
      return SHORT_DAYS[c.weekday]!;
    case Std.LongWeekDay:
      return LONG_DAYS[c.weekday]!;
    case Std.Day:
      return String(c.day);
    case Std.UnderDay:
      return c.day < 10 ? ' ' + String(c.day) : String(c.day);
    case Std.ZeroDay:
      return pad(c.day, 2);
    case Std.UnderYearDay:
      return String(c.yearDay).padStart(3, ' ');
    case Std.ZeroYearDay:
      return pad(c.yearDay, 3);
    case Std.Hour:
      return pad(c.hour, 2);
    case Std.Hour12:
      return String(c.hour % 12 === 0 ? 12 : c.hour % 12);
    case Std.ZeroHour12:
      return pad(c.hour % 12 === 0 ? 12 : c.hour % 12, 2);
    case Std.Minute:
      return String(c.minute);
    case Std.ZeroMinute:
      return pad(c.minute, 2);
    case Std.Second:
      return String(c.second);
    case Std.ZeroSecond:
      return pad(c.second, 2);
    case Std.PM:
      return c.hour >= 12 ? 'PM' : 'AM';
    case Std.pm:
      return c.hour >= 12 ? 'pm' : 'am';
    case Std.TZ: {
      if (c.abbr !== '') return c.abbr;
      const zone = Math.trunc(c.offset / 60);
      const abs = Math.abs(zone);
      return (zone < 0 ? '-' : '+') + pad(Math.floor(abs / 60), 2) + pad(abs % 60, 2);
    }
    case Std.FracSecond0:
      return fraction(nsec, digits, separator, false);
    case Std.FracSecond9:
      return fraction(nsec, digits, separator, true);
    case Std.None:
      return '';
  }
  return zoneNumber(std, c.offset);
}
