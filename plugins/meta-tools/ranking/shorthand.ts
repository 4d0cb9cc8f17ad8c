/**
 * Chat shorthand in a request ("pls", "rn", "tmrw", "msg", "dm", "dir", "PRs"): each is read as
 * what it stands for, so "pls" goes as "please" does (a stop word) and "msg" finds what
 * "message" finds. Only forms that mean one thing wherever a person types them; an ambiguous
 * one ("min", "mo", "pwd", "hr", "k") is left as typed. Shell commands used as verbs ("ls the src
 * dir", "grep the repo") are the intent table's (intent.ts): they add words, below an exact one.
 */
const SHORTHAND: Readonly<Record<string, string>> = {
  // Politeness and asides: no task in them.
  pls: '',
  plz: '',
  thx: '',
  fyi: '',
  btw: '',
  asap: '',
  imo: '',
  tbh: '',
  // Spoken forms and spellings of grammar words.
  gimme: 'give',
  lemme: 'let',
  wanna: 'want',
  gonna: '',
  gotta: '',
  wat: '',
  wats: '',
  whats: '',
  u: '',
  ur: '',
  // Times.
  rn: 'now',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  yday: 'yesterday',
  wk: 'week',
  wks: 'weeks',
  yr: 'year',
  bday: 'birthday',
  // Things.
  msg: 'message',
  msgs: 'messages',
  dm: 'direct message',
  dms: 'direct messages',
  dir: 'directory',
  dirs: 'directories',
  cal: 'calendar',
  tbl: 'table',
  acct: 'account',
  org: 'organization',
  orgs: 'organizations',
  fwd: 'forward',
  pic: 'picture',
  pics: 'pictures',
  img: 'image',
  imgs: 'images',
  vid: 'video',
  pw: 'password',
  prs: 'pull requests',
  gh: 'github',
  gcal: 'calendar',
  kube: 'kubernetes',
  tldr: 'summary',
};

/** Shorthand that words.ts would split ("k8s" is k, 8, s; "w/o" w and o): read before it. */
const SPLIT_FORMS = /\b(?:k8s|tl;? ?dr|w\/o|w\/)(?!\w)/gi;
/** By the form lower-cased, without its `;` and space. */
const SPLIT_MEANT: Readonly<Record<string, string>> = { k8s: 'kubernetes', tldr: 'summary', 'w/o': 'without', 'w/': 'with' };

/** `k`, kubectl's usual alias, where a kubectl command follows it ("k get pods"); elsewhere a k is a k. */
const KUBECTL_ALIAS = /\bk(?= (?:get|describe|logs|apply|delete|exec|scale|rollout|port-forward|top|edit|create|explain)\b)/gi;

/** `text` with the shorthand that splitting into words would break read as what it stands for. */
export function joinedShorthand(text: string): string {
  return text.replace(SPLIT_FORMS, (form) => ` ${SPLIT_MEANT[form.toLowerCase().replace(/[; ]/g, '')]} `).replace(KUBECTL_ALIAS, 'kubectl');
}

/** `words` (lower-cased, from words.ts) with chat shorthand read as what it stands for. */
export function withoutShorthand(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const meant = Object.hasOwn(SHORTHAND, w) ? SHORTHAND[w]! : undefined;
    if (meant === undefined) out.push(w);
    else if (meant) out.push(...meant.split(' '));
  }
  return out;
}
