/**
 * The words of a text as ranking sees them: split on anything not an ASCII letter or digit,
 * on camelCase and acronym boundaries, between letters and digits; lower-cased; the stop
 * words of a request ("a", "my", "what") dropped. Queries and indexed fields go through the
 * same function, so both sides agree.
 */
import { stem } from '../stem.js';
import { joinedShorthand, withoutShorthand } from './shorthand.js';
import {
  AS_A_ROLE,
  CALLED,
  CHECK_OUT,
  CONTRACTION,
  GET_RID_OF,
  I_AM_A,
  KEEP_DOING,
  LET_KNOW,
  LOG_IN,
  MAKE_TICKET,
  NOUN_AS_VERB,
  nounAsVerb,
  POLITE_MIND,
  TODO,
  TOLD_THAT,
  UNSURE,
  NAMED_RESOURCE,
  PULL_GET,
  PUT_OFF,
  uncontracted,
} from './phrases.js';
import { idiomsRead } from './idioms.js';
import { SITE_DOMAINS, typedValues } from './values.js';

export const STOP_WORDS = new Set([
  ...['a', 'an', 'the', 'of', 'to', 'for', 'in', 'on', 'and', 'or', 'with', 'by', 'from', 'x', 'is', 'it', 'me', 'my', 'all'],
  ...['i', 'am', 'are', 'be', 'this', 'that', 'these', 'at', 'as', 'into', 'its', 'can', 'do', 'does', 'how', 'what', 'which', 'some', 'any'],
  // Pronouns, modals, politeness and quantifying adverbs: a request's grammar, never what it is
  // about ("what do you remember about me"), yet each matched some tool's prose and counted in
  // coordination. Not the auxiliaries have/was/done ("what have I done" asks for completed
  // work) nor particles (look up, find out): measured, they lose (bench/README.md, round 4).
  ...['you', 'your', 'yours', 'we', 'our', 'ours', 'us', 'they', 'them', 'their', 'he', 'him', 'his', 'she', 'her', 'those', 'there', 'here'],
  ...['will', 'would', 'should', 'could', 'shall', 'please', 'just', 'so', 'if', 'than', 'also', 'very', 'too'],
  ...['about', 'every', 'each', 'whole', 'again', 'still'],
  ...['then', 'finally', 'lastly', 'afterwards'],
  // Indefinite pronouns of things and places, grammar too ("everything" is also a test server's
  // name); those of persons (someone, everyone) say that a person is meant, and stay.
  ...['everything', 'something', 'anything', 'somewhere', 'anywhere', 'everywhere'],
]);

const enum CharClass {
  Other,
  Lower,
  Upper,
  Digit,
}

function classOf(code: number): CharClass {
  if (code >= 97 && code <= 122) return CharClass.Lower;
  if (code >= 65 && code <= 90) return CharClass.Upper;
  if (code >= 48 && code <= 57) return CharClass.Digit;
  return CharClass.Other;
}

/** An "s" that ends a run of capitals ("URLs", "IDs", "PRs"): the acronym's plural, not the start of a word "Ls". */
function acronymPlural(text: string, at: number): boolean {
  return text.charCodeAt(at) === 115 && classOf(text.charCodeAt(at + 1)) !== CharClass.Lower;
}

/** The longest camelCase run also kept whole: a brand is short, an identifier may not be. */
const MAX_JOINED = 24;

/**
 * Lower-case words of `text`: split on anything not an ASCII letter or digit, on camelCase
 * and acronym boundaries ("parseHTTPResponse" -> parse http response), and between letters
 * and digits. A camelCase run is also kept whole: "GitHub", "YouTube", "JavaScript" are
 * written so in prose and "github", "youtube", "javascript" in requests (split alone, a
 * request for "javascript" never met a description's "JavaScript"). One pass over the
 * characters: the index build runs it over every description.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const push = (from: number, to: number): void => {
    if (to <= from) return;
    const w = text.slice(from, to).toLowerCase();
    if (!STOP_WORDS.has(w)) out.push(w);
  };
  let start = 0;
  let prev = CharClass.Other;
  // Where the current run of letters and digits began, and whether a lower-case letter was
  // followed by a capital inside it ("YouTube", "GitHub"): such a run is also one word.
  let runStart = 0;
  let camel = false;
  const endRun = (to: number): void => {
    if (camel && to - runStart <= MAX_JOINED) push(runStart, to);
    camel = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = classOf(text.charCodeAt(i));
    if (c === CharClass.Other) {
      push(start, i);
      endRun(i);
      start = i + 1;
      runStart = i + 1;
    } else if ((prev === CharClass.Lower && c === CharClass.Upper) || (prev !== CharClass.Other && (prev === CharClass.Digit) !== (c === CharClass.Digit))) {
      if (prev === CharClass.Lower && c === CharClass.Upper) camel = true;
      push(start, i);
      start = i;
    } else if (prev === CharClass.Upper && c === CharClass.Lower && i - start >= 2 && !acronymPlural(text, i)) {
      // "HTTPResponse": the last capital of a run starts the next word.
      push(start, i - 1);
      start = i - 1;
    }
    prev = c;
  }
  push(start, text.length);
  endRun(text.length);
  return out;
}

/** The search terms of a query or a text field: its words, stemmed. */
export function tokenize(text: string): string[] {
  return words(text).map(stem);
}

/**
 * A file name in a request ("notes.txt", "settings.ini") asks for a file: its base name is a name,
 * not a word of the request ("notes" is no note to remember). Each is read as the words "file" and
 * its extension. A host name is no file (".com" is no file type; values.ts reads it as a site).
 */
// Only from the start of a run of name characters: from every position inside a long run
// without a dot, the run was read to its end again (100,000 letters took 5 s).
const FILE_NAME = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]+\.([A-Za-z][A-Za-z0-9]{0,3})\b(?![.@/-]\w)/g;
/** A site's domain (values.ts reads the common ones as sites first) or a country's. */
const NOT_FILE_TYPES = new Set<string>([...SITE_DOMAINS, 'uk', 'de', 'fr', 'me', 'us']);

/**
 * JavaScript libraries named with ".js" ("Next.js", "Node.js", "Three.js"): a library, whose
 * documentation or package a request is about, not a file to open.
 */
const JS_LIBRARY =
  /(?<![\w./-])(next|node|vue|nuxt|express|three|d3|chart|ember|backbone|angular|react|solid|svelte|alpine|moment|p5|pixi|electron|nest)\.js\b(?![.@/-]\w)/gi;

/**
 * Files every project has, named without an extension: "open the readme" asks for a file
 * reader, and "readme" alone matched only tools whose prose mentions one.
 */
const WELL_KNOWN_FILE = /\b(readme|changelog|makefile|dockerfile|gitignore|procfile|gemfile|jenkinsfile|vagrantfile|codeowners)\b/gi;

/**
 * A dotfile named alone (".env", ".npmrc", ".bashrc"): a file, not the word after the dot
 * (".env" asked for LaunchDarkly's environments). Not before "file" or "files": ".log files" are
 * files of a type, which the word keeps.
 */
const DOTFILE_NAME = /(?<![\w./~-])\.[A-Za-z][\w-]{0,40}\b(?![.\w/-])(?!\s+files?\b)/g;

/**
 * "#general", "#support": a chat channel by its name, written the way chat tools write one. The
 * name is a name, not a word of the request ("#support" asks for no support tool): it is read as
 * the word "channel".
 */
const CHANNEL = /(^|\s)#[A-Za-z][\w-]*/g;

/**
 * A user's standard folders by name ("my downloads folder", "the Desktop directory"): a place
 * on the disk, not the act its name is ("downloads" asks for no download tool). Read as the
 * word "folder". Downloads is that folder even alone; the others only with folder or directory.
 */
const STANDARD_FOLDER = /\b(?:downloads(?:\s+(?:folder|directory|dir))?|(?:documents|desktop|home|pictures|music|videos)\s+(?:folder|directory|dir))\b/gi;

/**
 * A path in a request ("/var/log", "~/.bashrc", "./build/cache"): its segments are names, not
 * words of the request ("/var/log" asks for no log reader, "/srv/archive" for nothing archived).
 * Read as the word "path", which file and directory tools take, or as a file of its type when
 * the last segment is a file name ("/etc/nginx/nginx.conf", a dotfile). Only where a path
 * starts a token, so a URL's path, "owner/repo" and "and/or" are left alone.
 */
const PATH = /(^|[\s"'([=])((?:~|\.{1,2})?\/[^\s"')\]]+)/g;
/** A file name's type: its last extension ("report.tar.gz" is a gz); a dotfile (".bashrc") is a file of none. */
const PATH_FILE_TYPE = /^[^.].*\.([A-Za-z][A-Za-z0-9]{0,3})$/;
const DOTFILE = /^\.[A-Za-z]/;

/**
 * A file's type as a request word. A `.log` file is text to read: its extension alone made
 * "read /var/log/app/error.log" a request for git's log and a service's logs (a file reader 16th).
 */
function fileType(ext: string): string {
  return ext.toLowerCase() === 'log' ? 'text' : ext;
}

function pathWords(lead: string, path: string): string {
  // The last segment that has a name ("/var/log/" is /var/log); a loop, since a pattern
  // anchored at the end would rescan a long run of slashes from each of its positions.
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  const last = path.slice(path.lastIndexOf('/', end - 1) + 1, end);
  if (DOTFILE.test(last)) return `${lead} file `;
  const type = PATH_FILE_TYPE.exec(last)?.[1];
  return type === undefined ? `${lead} path ` : `${lead} file ${fileType(type)} `;
}

/** Runs of white space. */
const SPACES = /\s+/g;

/**
 * `text` with each run of white space one space: the patterns here and the clause break
 * (ranking.ts) then never rescan a long run from each of its positions (100,000 spaces took
 * seconds).
 */
export function singleSpaced(text: string): string {
  return text.replace(SPACES, ' ');
}

export function queryWords(query: string): string[] {
  // Paths first (a value inside one is part of its name), then values, then shorthand that
  // splitting would break ("k8s"), then the conventions below.
  const pathsRead = singleSpaced(query).replace(PATH, (_, lead: string, path: string) => pathWords(lead, path));
  const text = idiomsRead(joinedShorthand(typedValues(pathsRead)))
    .replace(POLITE_MIND, ' ')
    .replace(CONTRACTION, uncontracted)
    .replace(CHANNEL, '$1channel')
    .replace(LOG_IN, 'login')
    .replace(STANDARD_FOLDER, 'folder')
    .replace(TODO, 'todo')
    .replace(AS_A_ROLE, '')
    .replace(I_AM_A, ' ')
    .replace(CHECK_OUT, 'checkout ')
    .replace(TOLD_THAT, '$1$2 ')
    .replace(LET_KNOW, ' send message $1 ')
    .replace(NOUN_AS_VERB, nounAsVerb)
    .replace(NAMED_RESOURCE, '$1 ')
    .replace(PUT_OFF, 'reschedule $1 to ')
    .replace(PULL_GET, 'get ')
    .replace(KEEP_DOING, '')
    .replace(UNSURE, ' ')
    .replace(GET_RID_OF, ' delete ')
    .replace(MAKE_TICKET, 'create ')
    .replace(CALLED, ' ')
    .replace(JS_LIBRARY, ' $1js javascript library ')
    .replace(FILE_NAME, (name, ext: string) => (NOT_FILE_TYPES.has(ext.toLowerCase()) ? name : ` file ${fileType(ext)} `))
    .replace(WELL_KNOWN_FILE, ' file $1 ')
    .replace(DOTFILE_NAME, ' file ');
  return withoutShorthand(words(text));
}
