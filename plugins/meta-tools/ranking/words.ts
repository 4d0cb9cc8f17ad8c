/**
 * The words of a text as ranking sees them: split on anything not an ASCII letter or digit,
 * on camelCase and acronym boundaries, between letters and digits; lower-cased; the stop
 * words of a request ("a", "my", "what") dropped. Queries and indexed fields go through the
 * same function, so both sides agree.
 */
import { stem } from '../stem.js';
import { joinedShorthand, withoutShorthand } from './shorthand.js';
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

/**
 * Lower-case words of `text`: split on anything not an ASCII letter or digit, on camelCase
 * and acronym boundaries ("parseHTTPResponse" -> parse http response), and between letters
 * and digits. One pass over the characters: the index build runs it over every description.
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
  for (let i = 0; i < text.length; i++) {
    const c = classOf(text.charCodeAt(i));
    if (c === CharClass.Other) {
      push(start, i);
      start = i + 1;
    } else if ((prev === CharClass.Lower && c === CharClass.Upper) || (prev !== CharClass.Other && (prev === CharClass.Digit) !== (c === CharClass.Digit))) {
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
  return out;
}

/** The search terms of a query or a text field: its words, stemmed. */
export function tokenize(text: string): string[] {
  return words(text).map(stem);
}

/**
 * A file name in a request ("notes.txt", "settings.ini") asks for a file: its base name is a
 * name, not a word of the request ("notes" is no note to remember). Each is read as the
 * words "file" and its extension. A host name is no file (".com" is no file type; values.ts reads it as a site).
 */
// Only from the start of a run of name characters: from every position inside a long run
// without a dot, the run was read to its end again (100,000 letters took 5 s).
const FILE_NAME = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]+\.([A-Za-z][A-Za-z0-9]{0,3})\b(?![.@/-]\w)/g;
/** A site's domain (values.ts reads the common ones as sites first) or a country's. */
const NOT_FILE_TYPES = new Set<string>([...SITE_DOMAINS, 'uk', 'de', 'fr', 'me', 'us']);

/**
 * Files every project has, named without an extension: "open the readme" asks for a file
 * reader, and "readme" alone matched only tools whose prose mentions one.
 */
const WELL_KNOWN_FILE = /\b(readme|changelog|makefile|dockerfile|gitignore|procfile|gemfile|jenkinsfile|vagrantfile|codeowners)\b/gi;

/**
 * "#general", "#support": a chat channel by its name, written the way chat tools write one. The
 * name is a name, not a word of the request ("#support" asks for no support tool): it is read as
 * the word "channel".
 */
const CHANNEL = /(^|\s)#[A-Za-z][\w-]*/g;

/**
 * "log in", "sign in", "logged into": one act, signing in, not a log to read ("log in to the
 * chat workspace" asked for nothing of kubectl_logs or git_log). Read as the one word "login".
 * After a determiner it is the noun and a place ("the log in the pod"), and stays as it is.
 */
const LOG_IN = /(?<!\b(?:the|a|an|this|that|my|your|its|our|their|which|each|every|last|latest)\s+)\b(?:log|sign)(?:ged|ging|ed|ing)?\s+(?:into|in)\b/gi;

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

function pathWords(lead: string, path: string): string {
  // The last segment that has a name ("/var/log/" is /var/log); a loop, since a pattern
  // anchored at the end would rescan a long run of slashes from each of its positions.
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  const last = path.slice(path.lastIndexOf('/', end - 1) + 1, end);
  if (DOTFILE.test(last)) return `${lead} file `;
  const type = PATH_FILE_TYPE.exec(last)?.[1];
  return type === undefined ? `${lead} path ` : `${lead} file ${type} `;
}

/**
 * "Would you mind ...", "if you don't mind": politeness, not a mind map. The phrase goes as
 * the other polite words do (STOP_WORDS).
 */
const POLITE_MIND = /\b(?:(?:would|do)\s+you|if\s+you\s+(?:don['\u2019]t|do\s+not))\s+mind\b/gi;

/**
 * English contractions: "Anna's", "what's", "I'd", "don't", "isn't". Split at the apostrophe
 * they left words of one letter ("s", "t", "d") and halves ("don", "isn") that counted as
 * words of the request and matched any tool whose prose had them. The suffix goes; a
 * negation keeps its verb ("don't" is "do", a stop word as it is), since a lexical ranking
 * cannot read "not" anyway. Only after a letter: a quoted value ('M', 'd') is a value.
 */
const CONTRACTION = /\b(\w+?)n['\u2019]t\b|(?<=[A-Za-z])['\u2019](?:s|d|ll|re|ve|m)\b/gi;
/** The verbs whose negation is not verb + n't: can't, won't, shan't. */
const IRREGULAR_NEGATION: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall' };

function uncontracted(_: string, verb?: string): string {
  return verb === undefined ? '' : (IRREGULAR_NEGATION[verb.toLowerCase()] ?? verb);
}

/**
 * What something is to be called: "a folder called reports", "a project called Move 2027", an
 * issue titled 'Broken pagination'. The name is a value, not a word of the request ("Move" asks
 * for no move tool, "reports" for no report): it goes, with the word that introduced it (read
 * as the word "name" instead, it matched every tool that takes one). A file name stays, for
 * its type (FILE_NAME). Only the first word of an unquoted name is known to be one.
 */
const CALLED = /\b(?:called|named|titled|entitled)\s+(?:'[^'\n]{1,200}'|"[^"\n]{1,200}"|(?![\w-]{1,200}\.[A-Za-z][A-Za-z0-9]{0,3}\b)[^\s,;:.!?]{1,200})/gi;

/**
 * "Open an issue", "file a ticket", "raise a bug", "log a new PR": making one, not opening a
 * file or reading a log ("file an issue on GitHub" found file tools). Only with "a", "an" or
 * "new" before the thing made; "open the issue" reads it.
 */
const MAKE_TICKET =
  /\b(?:open|file|raise|log|submit)\s+(?:(?:a|an|new)\s+){1,2}(?=(?:[\w-]+\s+){0,2}(?:issues?|tickets?|bugs?|prs?|pull\s+requests?|incidents?)\b)/gi;

/**
 * "Keeps crashing", "I keep forgetting", "kept failing": "keep" says the act repeats, not that
 * anything is kept (it asked for save and store tools). Before a verb's -ing form it goes.
 */
const KEEP_DOING = /\b(?:keep|keeps|kept|keeping)\s+(?=[a-z]{2,40}ing\b)/gi;

/**
 * "Get rid of", "throw away", "throw out": deleting, said in words no tool uses. Read as the
 * word "delete".
 */
const GET_RID_OF = /\b(?:get(?:s|ting)?|got)\s+rid\s+of\b|\b(?:throw|throws|threw|throwing)\s+(?:away|out)\b/gi;

/**
 * "I have no idea why", "not sure whether", "no clue", "I wonder if": the asker's doubt, not
 * what is asked ("no" matched yes/no answers, "idea" brainstorming). The phrase goes.
 */
const UNSURE = /\b(?:(?:i\s+)?(?:have|had)\s+no\s+(?:idea|clue)|no\s+(?:idea|clue)|(?:i(?:'m|\s+am)?\s+)?not\s+sure|(?:i\s+)?wonder)\b/gi;

/**
 * "As a data analyst, I need ...", "As the on-call engineer we ...": a user story's role, who
 * asks, not what is asked ("data analyst" asked for charts of data). It goes, up to four words
 * and only before "I" or "we" at the start of a sentence.
 */
const AS_A_ROLE = /(?<=^|[.!?;:,]\s{0,3})as\s+(?:a|an|the)\s+(?:[\w-]{1,40}\s+){0,3}[\w-]{1,40},?\s+(?=(?:i|we)\b)/gi;

/**
 * "Check out the tag v3.2.1", "check out a new branch": git's checkout, not a look at
 * something. Only before a branch, tag, commit or version, at most two words between.
 */
const CHECK_OUT = /\bcheck(?:s|ed|ing)?\s+out\s+(?=(?:[\w.-]{1,100}\s+){0,2}(?:branch|branches|tag|tags|commit|revision|version)\b)/gi;

/**
 * "Remember that the staging DB password rotates", "dm the team lead that the build is
 * green", "reply that I agree": what follows "that" is the message or the fact to keep, not
 * the task (it asked for databases and builds). After a verb of telling or keeping, with at
 * most four words between, it goes up to the clause's end; the verb and whom it addresses stay.
 */
const TOLD_THAT =
  /\b([Rr]emember|[Mm]emori[sz]e|[Nn]ote|[Tt]ell|[Rr]eply|[Cc]omment|[Ss]ay|[Pp]ost|[Dd][Mm]|[Mm]essage|[Ee]mail|[Mm]ail|[Pp]ing|[Nn]otify|[Kk]now|[Aa]nswer)\b((?:\s+[\w'-]{1,40}){0,4}?)\s+that\s+(?=(?:it|i|we|he|she|they|you|the|my|our|his|her|their|this|a|an|[A-Z][\w'-]*)\b)[^.;!?,]{0,300}?(?=\s+and\s+(?!that\b)|[.;!?,]|$)/g;

/** "to-do" is one word (todo), not two stop words. */
const TODO = /\bto-dos?\b/gi;

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
  const text = joinedShorthand(typedValues(pathsRead))
    .replace(POLITE_MIND, ' ')
    .replace(CONTRACTION, uncontracted)
    .replace(CHANNEL, '$1channel')
    .replace(LOG_IN, 'login')
    .replace(STANDARD_FOLDER, 'folder')
    .replace(TODO, 'todo')
    .replace(AS_A_ROLE, '')
    .replace(CHECK_OUT, 'checkout ')
    .replace(TOLD_THAT, '$1$2 ')
    .replace(KEEP_DOING, '')
    .replace(UNSURE, ' ')
    .replace(GET_RID_OF, ' delete ')
    .replace(MAKE_TICKET, 'create ')
    .replace(CALLED, ' ')
    .replace(FILE_NAME, (name, ext: string) => (NOT_FILE_TYPES.has(ext.toLowerCase()) ? name : ` file ${ext} `))
    .replace(WELL_KNOWN_FILE, ' file $1 ');
  return withoutShorthand(words(text));
}
