/**
 * sprig's date functions on Go's time.Time (go-time.ts). `now` reads the rendering's clock
 * (RenderOptions.now), so a test can fix it. The local zone is UTC. Where sprig takes
 * "a date" as interface{}, a time is used as it is, an integer as Unix seconds (Go would
 * take only its int types, not the float64 of JSON numbers) and anything else means now.
 */
import type { CallContext } from '../context.js';
import { isIntNumber } from '../values.js';
import type { FunctionGroup } from './define.js';
import { fixed, I, S, T } from './define.js';
import { formatDuration, parseDuration } from './duration.js';
import { GoTime } from './go-time.js';
import { parseTime } from './time-parse.js';
import { LOCAL, loadLocation, UTC } from './zones.js';

const SECOND = 1_000_000_000n;

function now(context: CallContext): GoTime {
  return GoTime.fromMillis(context.now(), LOCAL);
}

/** The time a date argument stands for (sprig's type switch). */
function toTime(v: unknown, context: CallContext): GoTime {
  if (v instanceof GoTime) return v;
  if (typeof v === 'number' && isIntNumber(v)) return new GoTime(v, 0, LOCAL);
  return now(context);
}

function dateInZone(layout: string, date: unknown, zone: string, context: CallContext): string {
  return toTime(date, context)
    .in(loadLocation(zone) ?? UTC)
    .format(layout);
}

/** Duration.Round: to the nearest multiple of m, halves away from zero. */
function roundDuration(d: bigint, m: bigint): bigint {
  const r = d % m;
  if (d < 0n) return -r + -r < m ? d - r : d - m - r;
  return r + r < m ? d - r : d + m - r;
}

function durationRound(v: unknown, context: CallContext): string {
  let d = 0n;
  if (typeof v === 'string') {
    try {
      d = parseDuration(v);
    } catch {
      d = 0n;
    }
  } else if (typeof v === 'number' && isIntNumber(v)) d = BigInt(v);
  else if (v instanceof GoTime) d = now(context).sub(v);
  const u = d < 0n ? -d : d;
  const hour = 3600n * SECOND;
  const units: ReadonlyArray<readonly [bigint, string]> = [
    [hour * 24n * 365n, 'y'],
    [hour * 24n * 30n, 'mo'],
    [hour * 24n, 'd'],
    [hour, 'h'],
    [60n * SECOND, 'm'],
    [SECOND, 's'],
  ];
  for (const [size, suffix] of units) if (u > size) return (u / size).toString() + suffix;
  return '0s';
}

function duration(v: unknown): string {
  let n = 0n;
  if (typeof v === 'string') n = /^[+-]?\d+$/.test(v) ? BigInt(v) : 0n;
  else if (typeof v === 'number' && isIntNumber(v)) n = BigInt(v);
  if (n >= 2n ** 63n || n < -(2n ** 63n)) n = 0n;
  return formatDuration(BigInt.asIntN(64, n * SECOND));
}

function dateModify(spec: string, date: GoTime, must: boolean): GoTime {
  try {
    return date.add(parseDuration(spec));
  } catch (e) {
    if (must) throw e;
    return date;
  }
}

function toDate(layout: string, value: string, must: boolean): GoTime {
  try {
    return parseTime(layout, value, LOCAL);
  } catch (e) {
    if (must) throw e;
    return GoTime.zero();
  }
}

export const DATES: FunctionGroup = {
  now: fixed([], (_, context) => now(context)),
  date: fixed([S, I], (a, context) => dateInZone(a[0] as string, a[1], 'Local', context)),
  dateInZone: fixed([S, I, S], (a, context) => dateInZone(a[0] as string, a[1], a[2] as string, context)),
  date_in_zone: fixed([S, I, S], (a, context) => dateInZone(a[0] as string, a[1], a[2] as string, context)),
  htmlDate: fixed([I], (a, context) => dateInZone('2006-01-02', a[0], 'Local', context)),
  htmlDateInZone: fixed([I, S], (a, context) => dateInZone('2006-01-02', a[0], a[1] as string, context)),
  dateModify: fixed([S, T], (a) => dateModify(a[0] as string, a[1] as GoTime, false)),
  date_modify: fixed([S, T], (a) => dateModify(a[0] as string, a[1] as GoTime, false)),
  mustDateModify: fixed([S, T], (a) => dateModify(a[0] as string, a[1] as GoTime, true)),
  must_date_modify: fixed([S, T], (a) => dateModify(a[0] as string, a[1] as GoTime, true)),
  toDate: fixed([S, S], (a) => toDate(a[0] as string, a[1] as string, false)),
  mustToDate: fixed([S, S], (a) => toDate(a[0] as string, a[1] as string, true)),
  unixEpoch: fixed([T], (a) => String((a[0] as GoTime).sec)),
  ago: fixed([I], (a, context) => {
    const t = a[0] instanceof GoTime || (typeof a[0] === 'number' && isIntNumber(a[0])) ? toTime(a[0], context) : now(context);
    return formatDuration(roundDuration(now(context).sub(t), SECOND));
  }),
  duration: fixed([I], (a) => duration(a[0])),
  durationRound: fixed([I], (a, context) => durationRound(a[0], context)),
};
