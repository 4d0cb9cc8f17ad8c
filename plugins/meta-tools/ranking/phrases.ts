/**
 * Phrases of a request read as what they mean, before it is split into words: grammar that
 * would count as words (contractions, politeness, doubt, a user story's role), idioms whose
 * words name other acts ("log in", "get rid of", "check out a branch", "open an issue"), and
 * what a request carries rather than asks (a name something is to be called, a message to
 * send). Each pattern starts only where its match can and reads a character a bounded number
 * of times; words.ts applies them in order (queryWords).
 */

/**
 * "log in", "sign in", "logged into": one act, signing in, not a log to read ("log in to the
 * chat workspace" asked for nothing of kubectl_logs or git_log). Read as the one word "login".
 * After a determiner it is the noun and a place ("the log in the pod"), and stays as it is.
 */
export const LOG_IN = /(?<!\b(?:the|a|an|this|that|my|your|its|our|their|which|each|every|last|latest)\s+)\b(?:log|sign)(?:ged|ging|ed|ing)?\s+(?:into|in)\b/gi;

/**
 * "Would you mind ...", "if you don't mind": politeness, not a mind map. The phrase goes as
 * the other polite words do (STOP_WORDS).
 */
export const POLITE_MIND = /\b(?:(?:would|do)\s+you|if\s+you\s+(?:don['\u2019]t|do\s+not))\s+mind\b/gi;

/**
 * English contractions: "Anna's", "what's", "I'd", "don't", "isn't". Split at the apostrophe
 * they left words of one letter ("s", "t", "d") and halves ("don", "isn") that counted as
 * words of the request and matched any tool whose prose had them. The suffix goes; a
 * negation keeps its verb ("don't" is "do", a stop word as it is), since a lexical ranking
 * cannot read "not" anyway. Only after a letter: a quoted value ('M', 'd') is a value.
 */
export const CONTRACTION = /\b(\w+?)n['\u2019]t\b|(?<=[A-Za-z])['\u2019](?:s|d|ll|re|ve|m)\b/gi;

/** The verbs whose negation is not verb + n't: can't, won't, shan't. */
const IRREGULAR_NEGATION: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall' };

/** What a contraction leaves: a negation its verb, any other nothing. */
export function uncontracted(_: string, verb?: string): string {
  return verb === undefined ? '' : (IRREGULAR_NEGATION[verb.toLowerCase()] ?? verb);
}

/**
 * What something is to be called: "a folder called reports", "a project called Move 2027", an
 * issue titled 'Broken pagination'. The name is a value, not a word of the request ("Move" asks
 * for no move tool, "reports" for no report): it goes, with the word that introduced it (read
 * as the word "name" instead, it matched every tool that takes one). A file name stays, for
 * its type (FILE_NAME). Only the first word of an unquoted name is known to be one.
 */
export const CALLED =
  /\b(?:called|named|titled|entitled)\s+(?:'[^'\n]{1,200}'|"[^"\n]{1,200}"|(?![\w-]{1,200}\.[A-Za-z][A-Za-z0-9]{0,3}\b)[^\s,;:.!?]{1,200})/gi;

/**
 * "Open an issue", "file a ticket", "raise a bug", "log a new PR": making one, not opening a
 * file or reading a log ("file an issue on GitHub" found file tools). Only with "a", "an" or
 * "new" before the thing made; "open the issue" reads it.
 */
export const MAKE_TICKET =
  /\b(?:open|file|raise|log|submit)\s+(?:(?:a|an|new)\s+){1,2}(?=(?:[\w-]+\s+){0,2}(?:issues?|tickets?|bugs?|prs?|pull\s+requests?|incidents?)\b)/gi;

/**
 * A noun said as the request's verb: "email a summary to my manager", "message the team",
 * "post it in #incidents" send something ("email" alone matched every mail tool alike, "post"
 * a forum post); "index every page into the docs index" adds records to an index. Only where
 * a verb stands (a sentence's or clause's start, after "and", "then", "please" or "to") and
 * before what it acts on: "the email from Bob" and "describe the search index" keep their nouns.
 */
export const NOUN_AS_VERB =
  /(?<=^|[.!?;:,]\s?|\b(?:and|then|please|to)\s)(?:e-?mail|mail|message|dm|post|index)(?=\s+(?:a|an|the|my|our|your|his|her|their|them|him|me|us|it|this|that|these|those|every|all|each|everyone|everybody)\b)/gi;

/** What a noun said as a verb asks for (NOUN_AS_VERB): sending it, or adding records to an index. */
export function nounAsVerb(noun: string): string {
  return noun.toLowerCase() === 'index' ? ' index upsert insert ' : ` send ${noun} `;
}

/**
 * "Keeps crashing", "I keep forgetting", "kept failing": "keep" says the act repeats, not that
 * anything is kept (it asked for save and store tools). Before a verb's -ing form it goes.
 */
export const KEEP_DOING = /\b(?:keep|keeps|kept|keeping)\s+(?=[a-z]{2,40}ing\b)/gi;

/**
 * "Get rid of", "throw away", "throw out", "clear out": deleting, said in words no tool uses.
 * Read as the word "delete".
 */
export const GET_RID_OF =
  /\b(?:get(?:s|ting)?|got)\s+rid\s+of\b|\b(?:throw|throws|threw|throwing)\s+(?:away|out)\b|\b(?:clear|clears|cleared|clearing|clean|cleans|cleaned|cleaning|wipe|wipes|wiped|wiping)\s+out\b/gi;

/**
 * "I have no idea why", "not sure whether", "no clue", "I wonder if": the asker's doubt, not
 * what is asked ("no" matched yes/no answers, "idea" brainstorming). The phrase goes.
 */
export const UNSURE = /\b(?:(?:i\s+)?(?:have|had)\s+no\s+(?:idea|clue)|no\s+(?:idea|clue)|(?:i(?:'m|\s+am)?\s+)?not\s+sure|(?:i\s+)?wonder)\b/gi;

/**
 * "As a data analyst, I need ...", "As the on-call engineer we ...": a user story's role, who
 * asks, not what is asked ("data analyst" asked for charts of data). It goes, up to four words
 * and only before "I" or "we" at the start of a sentence.
 */
export const AS_A_ROLE = /(?<=^|[.!?;:,]\s{0,3})as\s+(?:a|an|the)\s+(?:[\w-]{1,40}\s+){0,3}[\w-]{1,40},?\s+(?=(?:i|we)\b)/gi;

/**
 * "I'm a data scientist exploring a new cluster", "We're a small agency and ...": the asker's
 * role, said before the request (as synthetic tasks often open), asks nothing ("data" found a
 * knowledge search). It goes up to what follows it: a verb's -ing form, "and", "who", a
 * preposition, or the end of the clause. Read after contractions are undone ("I'm" is "I").
 */
export const I_AM_A =
  /(?<=^|[.!?;:,]\s{0,3})(?:i|we)(?:\s+am|\s+are)?\s+(?:a|an)\s+(?:[\w-]{1,40}\s+){0,3}?[\w-]{1,40}(?=\s*[.,;!?]|\s+(?:and|who|that|at|in|on|for|with|from)\b|\s+[a-z]{2,40}ing\b)/gi;

/**
 * "Check out the tag v3.2.1", "check out a new branch": git's checkout, not a look at
 * something. Only before a branch, tag, commit or version, at most two words between.
 */
export const CHECK_OUT = /\bcheck(?:s|ed|ing)?\s+out\s+(?=(?:[\w.-]{1,100}\s+){0,2}(?:branch|branches|tag|tags|commit|revision|version)\b)/gi;

/**
 * "Remember that the staging DB password rotates", "dm the team lead that the build is
 * green", "reply that I agree": what follows "that" is the message or the fact to keep, not
 * the task (it asked for databases and builds). After a verb of telling or keeping, with at
 * most four words between, it goes up to the clause's end; the verb and whom it addresses stay.
 */
export const TOLD_THAT =
  /\b([Rr]emember|[Mm]emori[sz]e|[Nn]ote|[Tt]ell|[Rr]eply|[Cc]omment|[Ss]ay|[Pp]ost|[Dd][Mm]|[Mm]essage|[Ee]mail|[Mm]ail|[Pp]ing|[Nn]otify|[Kk]now|[Aa]nswer)\b((?:\s+[\w'-]{1,40}){0,4}?)\s+that\s+(?=(?:it|i|we|he|she|they|you|the|my|our|his|her|their|this|a|an|[A-Z][\w'-]*)\b)[^.;!?,]{0,300}?(?=\s+and\s+(?!that\b)|[.;!?,]|$)/g;

/** "to-do" is one word (todo), not two stop words. */
export const TODO = /\bto-dos?\b/gi;

/**
 * "Let the on-call know the database is back", "let the team know that we shipped": a message
 * to send; what they are to know is its text, not the task ("the database" asked for MongoDB).
 * Read as sending a message to whom; "let me know" is no message (the asker wants the answer).
 */
export const LET_KNOW = /\blet\s+(?!(?:me|us)\b)((?:[\w'#-]{1,40}\s+){1,4}?)know\b(?:\s+(?!and\b)(?:that\s+)?[^.;!?,]{0,300}?(?=\s+and\s+|[.;!?,]|$))?/gi;

/**
 * "The checkout service", "the payments pod", "the dev server", "our staging cluster": the
 * word before a running thing's kind is its name, not a word of the request ("checkout" asked
 * for git's checkout, "dev" for a server named shopify-dev). It goes; the kind stays. So for a
 * stored thing's kind (since stop 66): "the log file" is a file ("log" found git's log first),
 * "the sales table", "the beta-search flag", "the promotions folder", "the design channel".
 * Only a lower-case word after a determiner, and not an adjective ("a new folder" is made):
 * "the Django app" names a framework, which may matter.
 */
export const NAMED_RESOURCE =
  /\b([Tt]he|[Oo]ur|[Mm]y|[Aa]|[Ii]ts)\s+(?!(?:new|old|other|same|whole|first|last|latest|current|next|previous|empty|shared|public|private|local|remote|default|entire|only|big|large|small)\s)([a-z][\w-]{1,39})\s+(?=(?:service|services|pods?|deployments?|namespace|containers?|microservices?|app|api|cluster|server|flags?|tables?|files?|folders?|channels?|collections?|index|indexes|boards?)\b)/g;

/**
 * The names NAMED_RESOURCE takes out of `text`: the ranking gives one back when a server of
 * the catalogue is called so ("the weather service", "the slack channel" name the service).
 */
export function resourceNames(text: string): string[] {
  return [...text.matchAll(NAMED_RESOURCE)].map((m) => m[2]!.toLowerCase());
}

/**
 * "Push the report task to Friday", "move my dentist appointment to next week": putting off,
 * not pushing code or moving a file. Read as "reschedule" (the intent table: update, due,
 * date). Only where a day, "tomorrow", "later" or a next week or month follows "to", or a
 * span follows "back" ("push my meetings back by thirty minutes").
 */
export const PUT_OFF =
  /\b(?:push|pushes|pushed|pushing|move|moves|moved|moving|bump|bumps|bumped|shift|shifts|shifted)\s+((?:[\w'-]{1,40}\s+){0,8}?)(?:(?:back\s+)?(?:to|until|till)\s+(?=(?:next\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|later|week|month)\b)|back\s+(?:by\s+)?(?=(?:an?|half\s+an|one|two|three|four|five|ten|fifteen|twenty|thirty|forty-five|\d{1,3})\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?)\b))/gi;

/**
 * "Pull the captions from this video", "pull up the saved details", "pull last week's signups
 * from the database": getting something, not git's pull. Only before what is got (an article,
 * a possessive, up, out, last); "pull the latest" and a pull request stay git's.
 */
export const PULL_GET = /\bpull(?:s|ed|ing)?\s+(?!the\s+latest\b)(?=(?:up|out|the|a|an|all|every|last|this|that|these|those|my|our|his|her|their|its)\b)/gi;
