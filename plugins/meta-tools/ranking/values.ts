/**
 * Values in a request read as what they are. "Get https://blog.example.org/2026/05/release-notes",
 * "send bob.smith@contoso.com a note", "what's 17:45 CET in Los Angeles", "what is at 40.7484,
 * -73.9857": split into words, a value became names and numbers ("release notes" found a
 * release tracker, "17 45" nothing) and the request lost the one thing it said, the kind of
 * value it carries, which tools name in their parameters (url, email, time, date,
 * coordinates, version, id). Each value is replaced by those words; a URL keeps its host's
 * name ("youtube", "github"), which often names the service.
 *
 * Every pattern starts only where a value can start and reads each character a bounded
 * number of times: requests come from callers (test/unit/ranking-values.test.ts floods them).
 */

const MONTH = '(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)';

/** `scheme://host...`: the host's labels without `www` and the top-level domain. */
const SCHEME_URL = /\b(?:https?|ftp|wss?):\/\/([^\s/?#"'<>]+)[^\s"'<>]*/gi;
/** The common top-level domains: a name ending in one is a site, never a file (words.ts). */
export const SITE_DOMAINS = ['com', 'org', 'net', 'io', 'dev', 'ai', 'app', 'co', 'edu', 'gov', 'info'] as const;
/**
 * A site named without its scheme (`github.com`, `docs.python.org/3/library`): a URL all the
 * same. Only under the common top-level domains, so a file name is never one.
 */
const BARE_URL = new RegExp(`(?<![\\w@./:-])((?:[A-Za-z0-9-]{1,63}\\.){1,8}(?:${SITE_DOMAINS.join('|')}))(?:/[^\\s"'<>]*)?(?![\\w.@-])`, 'gi');
/** `name@domain.tld`, not `git@github.com:owner/repo` (an SSH remote). */
const EMAIL = /(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![\w:@])/g;
/**
 * "A meeting with alice@example.com", "invite bob@acme.io": the address is whom the event is
 * with, an attendee, not a mail to write ("email address" put the mail tools first).
 */
const WITH_ADDRESS = new RegExp(`\\b(with|invite|invites|invited|inviting)\\s+${EMAIL.source}`, 'gi');
/** Two decimal degrees: `40.7484, -73.9857`. */
const COORDINATES = /(?<![\d.-])-?\d{1,3}\.\d+\s?,\s?-?\d{1,3}\.\d+(?!\d|\.\d)/g;
/** An IPv4 address. */
const IPV4 = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!\d|\.\d)/g;
/** `1.8.3`, `v2.14.0`, `v3.2.1-rc.1`; a full stop after one ends the sentence, not the value. */
const VERSION = /(?<![\w.])v?\d+\.\d+\.\d+(?:-[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)?(?!\w|\.\w)/g;
/** ISO dates and times, `12/15/2026`, "March 3rd 2021", "3 March", "April 8". */
const DATE = new RegExp(
  [
    '(?<![\\w-])\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?(?:Z|[+-]\\d{2}:?\\d{2})?)?(?![\\w-])',
    '(?<![\\w/])\\d{1,2}/\\d{1,2}/\\d{2,4}(?![\\w/])',
    `\\b${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?\\b`,
    `\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}(?: \\d{4})?\\b`,
  ].join('|'),
  'gi',
);
/** "February 2028": a month of a year. */
const MONTH_OF_YEAR = new RegExp(`\\b${MONTH} \\d{4}\\b`, 'gi');
/** "8am", "3 pm", "17:45", "9:30 am", "11 o'clock". */
const TIME = /(?<![\d:.])(?:[01]?\d|2[0-3])(?:(?::[0-5]\d)?(?: ?(?:am|pm)\b|(?<=:\d\d)(?![\d:]))| ?o['\u2019]?clock\b)/gi;
/**
 * "Last week's planning meeting", "today's action items": a day said as a possessive says which
 * meeting or items, no more (it found the week-of-the-year tool first). It goes, a determiner
 * in its place ("pull last week's signups" still gets them); a day said alone ("what did I
 * finish last week", "due tomorrow") stays a word of the request.
 */
const WHEN_OF =
  /\b(?:(?:last|next|this|past|coming)\s+(?:week|month|year|quarter|weekend)|today|tomorrow|yesterday|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday)['\u2019]s\b/gi;
/**
 * "Move my 3pm to Thursday", "cancel our 10:30": a time said with a possessive is the
 * appointment at that time, not a time to read or convert (it found the clock tools).
 */
const APPOINTMENT_AT = new RegExp(`\\b(my|our|your|his|her|their)\\s+${TIME.source}`, 'gi');
/**
 * "9am their time", "3 pm my time": a time as somebody else's clock reads it, to be converted
 * between time zones (after TIME has read the value as "time").
 */
const CLOCK_OF = /\btime\s+(?:(?:their|my|your|our|his|her)\s+time|local\s+time)\b/gi;
/** "The local time in Osaka": a clock in another time zone, read now. */
const LOCAL_TIME = /\blocal\s+time\b/gi;
/** A time zone by its abbreviation (capitals only: "est" and "ist" are words) or its IANA name. */
const TIME_ZONE =
  /\b(?:UTC|GMT|CET|CEST|EET|EEST|WET|WEST|BST|IST|JST|KST|HKT|SGT|AEST|AEDT|ACST|AWST|NZST|NZDT|PST|PDT|MST|MDT|CST|CDT|EST|EDT|AKST|HST)\b|\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Pacific|Indian)\/[A-Za-z_]+\b/g;
/**
 * A SQL statement: its keywords in capitals, or a select of `*`, `count(` or `distinct` ("select
 * the best photo from the album" is English). The statement is kept (its names may matter);
 * the request gains "sql query".
 */
const SQL =
  /\b(?:SELECT\s[^;]{0,200}?\sFROM|INSERT\s+INTO|UPDATE\s+[\w."]{1,100}\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\s|\bselect\s+(?:\*|count\s*\(|distinct\s)/;
/**
 * A run of letters and digits that mixes them inside (`3f9a2c1`, `U024BE7LH`, `64a1f0c2`, the
 * `7f9c` of a pod `web-7f9c`): an identifier.
 */
const TOKEN = /(?<![A-Za-z0-9])[A-Za-z0-9]{4,64}(?![A-Za-z0-9])/g;
/** A numeronym (`i18n`, `l10n`, `a11y`): a word, though it mixes letters and digits. */
const NUMERONYM = /^[A-Za-z]\d+[A-Za-z]$/;

function hostWords(host: string): string {
  const name = host.replace(/:\d+$/, '').toLowerCase();
  if (/^[\d.]+$/.test(name) || name.startsWith('[')) return 'address';
  const labels = name.split('.').filter((l) => l && l !== 'www');
  return (labels.length > 1 ? labels.slice(0, -1) : labels).join(' ');
}

/** A letter after a digit and a digit after a letter: an identifier, not a word (base64, sha256, mp4). */
function isIdentifier(token: string): boolean {
  return /\d[A-Za-z]/.test(token) && /[A-Za-z]\d/.test(token) && !NUMERONYM.test(token);
}

/** "100 MB", "2.5GB", "512 KiB": an amount of storage is a size (it found nothing: "mb" is no word). */
const STORAGE_SIZE = /\b\d{1,9}(?:\.\d{1,3})?\s?(?:kb|mb|gb|tb|kib|mib|gib|tib|bytes)\b/gi;
/**
 * "For two weeks", "for 30 minutes", "for four nights": how long, a duration (its unit alone
 * asked for the week-of-the-year tool; "find me an apartment in Kyoto for two weeks" had the
 * rental search 12th). So does a "month-long" stay (its month found the days-in-a-month tool),
 * and a span counted "in the last 30 days" or "in 90 days".
 */
const DURATION =
  /\bfor\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,3})\s+(?:minutes?|hours?|days?|nights?|weeks?|months?)\b|\b(?:day|week|month|year|night)[\s-]long\b|\b(?:in|within|over|during)\s+(?:the\s+)?(?:last\s+|past\s+|next\s+)?(?:\d{1,3}|two|three|four|five|six|seven|ten|fourteen|thirty|sixty|ninety)\s+(?:days|weeks|months|hours)\b/gi;
/**
 * A spreadsheet's cells by their address: "column D", "row 12", "cell B7", "A1:C20" (a
 * column's letters in capitals). Read as a range of cells in a sheet ("column" alone found the
 * column charts).
 */
const CELL_RANGE =
  /\b(?:[Cc]olumn|[Cc]ol|[Rr]ow)\s+(?:[A-Z]{1,3}|\d{1,6})\b(?!\s*[.:]\d)|\b[Cc]ells?\s+[A-Z]{1,3}\d{1,6}\b|\b[A-Z]{1,3}\d{1,6}:[A-Z]{1,3}\d{1,6}\b/g;

/** `text` (single-spaced) with each value replaced by the words of its kind. */
export function typedValues(text: string): string {
  return (SQL.test(text) ? `${text} sql query ` : text)
    .replace(SCHEME_URL, (_, host: string) => ` url ${hostWords(host)} `)
    .replace(BARE_URL, (_, host: string) => ` url ${hostWords(host)} `)
    .replace(WITH_ADDRESS, '$1 attendee ')
    .replace(EMAIL, ' email address ')
    .replace(COORDINATES, ' coordinates latitude longitude ')
    .replace(IPV4, ' ip address ')
    .replace(VERSION, ' version ')
    .replace(DURATION, ' duration ')
    .replace(STORAGE_SIZE, ' size ')
    .replace(CELL_RANGE, ' range cell sheet ')
    .replace(DATE, ' date ')
    .replace(MONTH_OF_YEAR, ' month ')
    .replace(WHEN_OF, ' the ')
    .replace(APPOINTMENT_AT, '$1 meeting event ')
    .replace(TIME, ' time ')
    .replace(CLOCK_OF, ' time timezone convert ')
    .replace(LOCAL_TIME, ' time timezone ')
    .replace(TIME_ZONE, ' timezone ')
    .replace(TOKEN, (token) => (isIdentifier(token) ? ' id ' : token));
}
