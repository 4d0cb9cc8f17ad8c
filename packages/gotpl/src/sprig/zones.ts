/**
 * Time zones for the date functions: UTC, Local (which is UTC: renderings must not depend
 * on the host's zone), fixed offsets, and IANA names through Intl. Go's tzdata
 * abbreviations ("EST", "CET") are what Intl's en-US short names give where they are
 * letters, a small table for common zones where they are not, and "+03"-style numbers
 * otherwise, as tzdata itself writes zones without an abbreviation.
 */

export interface ZoneInfo {
  /** Abbreviation ("EST"), or "" for a fixed zone without a name. */
  readonly abbr: string;
  /** Seconds east of UTC. */
  readonly offset: number;
}

export interface Zone {
  /** Location name: "UTC", "Local", "America/New_York", or a fixed zone's name. */
  readonly name: string;
  lookup(unixSeconds: number): ZoneInfo;
}

export const UTC: Zone = { name: 'UTC', lookup: () => ({ abbr: 'UTC', offset: 0 }) };
export const LOCAL: Zone = { name: 'Local', lookup: () => ({ abbr: 'UTC', offset: 0 }) };

export function fixedZone(name: string, offset: number): Zone {
  return { name, lookup: () => ({ abbr: name, offset }) };
}

/** Abbreviations tzdata has and Intl's en-US names do not: zone -> [standard, daylight]. */
const ABBREVIATIONS: Readonly<Record<string, readonly [string, string]>> = {
  'Europe/London': ['GMT', 'BST'],
  'Europe/Dublin': ['GMT', 'IST'],
  'Europe/Lisbon': ['WET', 'WEST'],
  'Europe/Paris': ['CET', 'CEST'],
  'Europe/Berlin': ['CET', 'CEST'],
  'Europe/Madrid': ['CET', 'CEST'],
  'Europe/Rome': ['CET', 'CEST'],
  'Europe/Amsterdam': ['CET', 'CEST'],
  'Europe/Brussels': ['CET', 'CEST'],
  'Europe/Vienna': ['CET', 'CEST'],
  'Europe/Zurich': ['CET', 'CEST'],
  'Europe/Stockholm': ['CET', 'CEST'],
  'Europe/Oslo': ['CET', 'CEST'],
  'Europe/Copenhagen': ['CET', 'CEST'],
  'Europe/Warsaw': ['CET', 'CEST'],
  'Europe/Prague': ['CET', 'CEST'],
  'Europe/Budapest': ['CET', 'CEST'],
  'Europe/Athens': ['EET', 'EEST'],
  'Europe/Helsinki': ['EET', 'EEST'],
  'Europe/Kiev': ['EET', 'EEST'],
  'Europe/Kyiv': ['EET', 'EEST'],
  'Europe/Bucharest': ['EET', 'EEST'],
  'Europe/Moscow': ['MSK', 'MSK'],
  'Asia/Tokyo': ['JST', 'JDT'],
  'Asia/Seoul': ['KST', 'KDT'],
  'Asia/Shanghai': ['CST', 'CDT'],
  'Asia/Hong_Kong': ['HKT', 'HKST'],
  'Asia/Kolkata': ['IST', 'IST'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Asia/Manila': ['PST', 'PDT'],
  'Asia/Karachi': ['PKT', 'PKST'],
  'Asia/Jakarta': ['WIB', 'WIB'],
  'Africa/Johannesburg': ['SAST', 'SAST'],
  'Africa/Lagos': ['WAT', 'WAT'],
  'Africa/Nairobi': ['EAT', 'EAT'],
  'Africa/Cairo': ['EET', 'EEST'],
  'Australia/Sydney': ['AEST', 'AEDT'],
  'Australia/Melbourne': ['AEST', 'AEDT'],
  'Australia/Brisbane': ['AEST', 'AEDT'],
  'Australia/Perth': ['AWST', 'AWDT'],
  'Australia/Adelaide': ['ACST', 'ACDT'],
  'Pacific/Auckland': ['NZST', 'NZDT'],
};

interface Formatters {
  readonly offset: Intl.DateTimeFormat;
  readonly short: Intl.DateTimeFormat;
}

const formatters = new Map<string, Formatters | null>();
/** Zones looked up by name are few; this bounds what a template can make us keep. */
const MAX_ZONES = 512;

function intlFor(name: string): Formatters | null {
  let f = formatters.get(name);
  if (f !== undefined) return f;
  try {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' });
    const resolved = offset.resolvedOptions().timeZone;
    // Intl accepts any capitalisation; Go's LoadLocation reads a file and does not.
    const caseVariant = resolved !== name && resolved.toLowerCase() === name.toLowerCase();
    f = caseVariant ? null : { offset, short: new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' }) };
  } catch {
    f = null;
  }
  if (formatters.size < MAX_ZONES) formatters.set(name, f);
  return f;
}

function zoneName(f: Intl.DateTimeFormat, date: Date): string {
  return f.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** Seconds east of UTC from Intl's "GMT-05:00". */
function offsetAt(f: Intl.DateTimeFormat, date: Date): number {
  const m = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(zoneName(f, date));
  if (m === null || m[1] === undefined) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0));
}

function ianaZone(name: string, f: Formatters): Zone {
  return {
    name,
    lookup(unixSeconds: number): ZoneInfo {
      const date = new Date(unixSeconds * 1000);
      const offset = offsetAt(f.offset, date);
      const short = zoneName(f.short, date);
      let abbr: string;
      const known = ABBREVIATIONS[name];
      if (known !== undefined) {
        // Daylight time adds to the offset, so the smaller of January's and July's is standard time.
        const year = date.getUTCFullYear();
        const standard = Math.min(offsetAt(f.offset, new Date(Date.UTC(year, 0, 1))), offsetAt(f.offset, new Date(Date.UTC(year, 6, 1))));
        abbr = offset === standard ? known[0] : known[1];
      } else if (/^[A-Z]{3,5}$/.test(short) && !short.startsWith('GMT')) {
        abbr = short;
      } else if (offset === 0) {
        abbr = name === 'UTC' || name === 'Etc/UTC' ? 'UTC' : 'GMT';
      } else {
        const abs = Math.abs(offset);
        const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
        const mm = Math.floor((abs % 3600) / 60);
        abbr = (offset < 0 ? '-' : '+') + hh + (mm === 0 ? '' : String(mm).padStart(2, '0'));
      }
      return { abbr, offset };
    },
  };
}

/** time.LoadLocation, or null where Go reports an error (sprig then uses UTC). */
export function loadLocation(name: string): Zone | null {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return LOCAL;
  const f = intlFor(name);
  return f === null ? null : ianaZone(name, f);
}
