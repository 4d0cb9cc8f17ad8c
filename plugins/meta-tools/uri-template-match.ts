/**
 * Whether a URI a caller reads is one an upstream's resource template describes (RFC 6570
 * level 1: an expression `{var}` stands for one path segment's worth of characters, at least
 * one, never a `/`). Used to find the server that serves a URI no listed resource has.
 *
 * The URI is the caller's and the template the upstream's, so neither may make the match
 * slow. The regular expression this once was backtracked: `repo://{owner}/{repo}{?ref}` ended
 * in `[^/]+[^/]+`, and a URI of 100,000 characters whose last segment did not fit took
 * seconds; `x{a}.{b}.{c}!` against 4,000 dots took 8 s. So no regular expression: since an
 * expression never takes a `/`, the URI's slashes must stand where the template's literal
 * slashes stand, and each segment is matched alone by the greedy wildcard walk (an expression
 * is one character and then any), which takes at most segment x template-segment steps.
 * Longer URIs or templates than MAX_LENGTH never match (listed resources still do, by equality).
 *
 * The walk is the one lib/glob.ts does for tool-name patterns, written again rather than
 * shared: glob's folds case and tests character classes inside its loop, on filter_tools'
 * pattern path, and has no escape for a literal `*` or `?`, which a template may hold.
 */

/** URIs and templates longer than this are never matched (bounds the walk at MAX_LENGTH squared steps). */
export const MAX_LENGTH = 4096;

/** In a compiled segment: any one character, and any run of characters. Literal characters are their codes. */
const ONE = -1;
const ANY = -2;

/**
 * The template's segments: literals and expressions, split where its literals have a slash.
 * One pass; an unclosed `{` and what follows are literal; expressions side by side are one (at
 * least one character either way: level 1 cannot tell them apart).
 */
function segments(template: string): number[][] {
  const out: number[][] = [[]];
  const literal = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 47) out.push([]);
      else out[out.length - 1]!.push(c);
    }
  };
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = open < 0 ? -1 : template.indexOf('}', open);
    if (close < 0) {
      literal(template.slice(at));
      break;
    }
    literal(template.slice(at, open));
    const current = out[out.length - 1]!;
    if (current[current.length - 1] !== ANY) current.push(ONE, ANY);
    at = close + 1;
  }
  return out;
}

/** Whether `text` (no slash in it) fits `pattern`: the greedy wildcard walk, backing up to the last ANY. */
function fits(pattern: readonly number[], text: string, from: number, to: number): boolean {
  let i = from;
  let j = 0;
  let star = -1;
  let mark = from;
  while (i < to) {
    const p = pattern[j];
    if (p !== undefined && (p === ONE || p === text.charCodeAt(i))) {
      i++;
      j++;
    } else if (p === ANY) {
      star = j++;
      mark = i;
    } else if (star >= 0) {
      j = star + 1;
      i = ++mark;
    } else return false;
  }
  while (pattern[j] === ANY) j++;
  return j === pattern.length;
}

const CACHE_LIMIT = 1024;
/** Templates compiled and kept; emptied when full (an upstream's list changing). */
const cache = new Map<string, number[][]>();

/** Whether `uri` is one `template` describes. */
export function templateMatches(template: string, uri: string): boolean {
  if (uri.length > MAX_LENGTH || template.length > MAX_LENGTH) return false;
  let compiled = cache.get(template);
  if (!compiled) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(template, (compiled = segments(template)));
  }
  let from = 0;
  for (let s = 0; s < compiled.length; s++) {
    const end = s === compiled.length - 1 ? uri.length : uri.indexOf('/', from);
    if (end < 0 || (s === compiled.length - 1 && uri.indexOf('/', from) >= 0)) return false;
    if (!fits(compiled[s]!, uri, from, end)) return false;
    from = end + 1;
  }
  return true;
}
