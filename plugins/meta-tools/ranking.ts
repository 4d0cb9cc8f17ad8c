/**
 * Relevance ranking for filter_tools `query`: BM25F over five fields of a tool, its own name
 * (without the `x_<server>_` prefix), its server's name, its summary, its full description
 * and the words of its input schema (ranking/schema-text.ts). Words are split on case, digits and punctuation (ranking/words.ts), compound
 * name tokens are split into the catalogue's own words (compound.ts), and every term is
 * stemmed (stem.ts) on both sides. Verbs that nearly every tool has (list, get, show, ...)
 * count for less rather than nothing.
 *
 * Each query word is a concept that also looks for the words the intent table
 * (ranking/intent.ts) and WordNet (ranking/related.ts) relate to it, at lower weights; a
 * concept scores a tool by its best-matching form only, so a word with many relatives does
 * not outweigh one without. Then a tool's standing (ranking/standing.ts): a deprecated tool
 * ranks below the tool it names as its replacement, and Switchboard's core tools stay out
 * of an answer unless the query asks about Switchboard or they match strongly. A tool also
 * gains a little from how well its server's tools together answer the request (server
 * evidence) and from each request word its name holds as written (ranking/name-forms.ts),
 * and weighs less when its name destroys or writes and the request does not ask for that
 * (ranking/acts.ts). Equal scores are ordered by name.
 *
 * The index is built once per catalogue version and shared by every session. Each posting
 * carries its document's field-weighted, length-normalised term frequency, saturated at build
 * and packed with the others (ranking/postings.ts), so a query only walks the postings of its
 * terms and their relatives and multiplies once per posting.
 */
import type { CatalogueApi, CatalogueEntry } from '../../kernel/index.js';
import { CompoundSplitter } from './compound.js';
import { ASKS_FOR_CHANGE, DESTROYING, readsOnly, WRITING } from './ranking/acts.js';
import { clausesOf, withClauses } from './ranking/clauses.js';
import { INTENT_WEIGHT, intentOf } from './ranking/intent.js';
import { joinedWords, wholeCompounds } from './ranking/joined-words.js';
import { NameCover } from './ranking/name-cover.js';
import { NameForms } from './ranking/name-forms.js';
import { resourceNames } from './ranking/phrases.js';
import { RELATED_WEIGHT, relatedTable } from './ranking/related.js';
import { schemaText } from './ranking/schema-text.js';
import { documentFrequency, PostingsBuilder, WEIGHT_SCALE, type PostingLists } from './ranking/postings.js';
import { catalogueSpelling, namesIn, queryTerms, type Spelling } from './ranking/spelling.js';
import { isNameShaped, withoutSiblingSentences } from './ranking/siblings.js';
import { asksForCore, deprecationOf, toolPart, type Deprecation } from './ranking/standing.js';
import { queryWords as wordsOfQuery, words } from './ranking/words.js';
import { stem } from './stem.js';

export { tokenize, words } from './ranking/words.js';
export { clausesOf, MAX_CLAUSES } from './ranking/clauses.js';

interface Field {
  weight: number;
  /** BM25 length normalisation: 0 ignores a field's length, 1 divides by it fully. */
  b: number;
}
const NAME: Field = { weight: 3, b: 0.5 };
/**
 * A server's name says what all its tools are about ("memory", "calendar"); short, so not
 * length-normalised. As heavy as a tool's own name: a request that names the service ("in the
 * Postgres db", "on Slack") has said where the tool is (1 until stop 65: "How many users signed
 * up last month in the Postgres db?" ranked Postgres's one tool 25th, below MongoDB's).
 */
const SERVER: Field = { weight: 3, b: 0 };
const SUMMARY: Field = { weight: 1, b: 0.75 };
/** Lower than the summary it repeats: the rest of a description is usage notes and parameters, often long. */
const DESCRIPTION: Field = { weight: 0.5, b: 0.75 };
/**
 * Its input schema's property names, descriptions and enum values (ranking/schema-text.ts):
 * what it takes, not what it does, so weighted below the description (0.1 to 0.3 measured on
 * the development set: bench/README.md).
 */
const SCHEMA: Field = { weight: 0.2, b: 0.75 };
const FIELDS = [NAME, SERVER, SUMMARY, DESCRIPTION, SCHEMA] as const;
/** Guard: an upstream's megabyte description must not make the index build (or its memory) unbounded. */
export const MAX_INDEXED_DESCRIPTION = 8192;
/** A core tool's score, when the query does not ask about Switchboard, is scaled by this... */
const CORE_WEIGHT = 0.5;
/** ...and kept only when at least this share of the query's words (and two) match it exactly. */
const CORE_STRONG_SHARE = 0.5;
/** A deprecated tool's score is scaled by this, and kept below its replacement's. */
const DEPRECATED_WEIGHT = 0.5;
/** Lucene's coordination factor, softened: (matched words / query words) to this power. */
const COORD_POWER = 0.5;
/** A tool whose name destroys (delete, remove, kill, ...) when the request says nothing of destroying (ranking/acts.ts). */
const DESTRUCTIVE_WEIGHT = 0.7;
/** A tool whose name writes (create, update, add, ...) when the request plainly reads (ranking/acts.ts; 0.6-0.8 measured alike). */
const WRITING_WEIGHT = 0.7;
const VERB_WEIGHT = 0.3;
/** Bits of RankingIndex.acts. */
const DESTROYS = 1;
const WRITES = 2;
/**
 * Server evidence: a tool's score gains this times how well its server as a whole answers the
 * request (per query word, the best score any of the server's tools has for it, summed). A
 * request's words are often spread over one server's tools ("start a new project in my task
 * app": `task` is what the server's other tools are about), and a tool of the server that
 * answers the whole request should rank above a stray match elsewhere.
 */
const SERVER_EVIDENCE = 0.1;
/** Per word of the request its own name holds as written (not only as a stem), a tool's score gains this share (ranking/name-forms.ts). */
const NAME_FORM_BONUS = 0.1;
/** A tool whose own name the request accounts for word by word gains this share (ranking/name-cover.ts; 0.05-0.12 measured alike). */
const NAME_COVER_BONUS = 0.1;
/**
 * Verbs that half the catalogue's tools could answer: a request's noun says which. `check` is
 * one in requests ("check my inbox", "check the weather") though few tool names have it, so
 * its rarity made `check_health` and `check_service_status` outrank the inbox and the forecast.
 */
const COMMON_VERBS = new Set(
  ['list', 'get', 'show', 'fetch', 'read', 'set', 'create', 'update', 'delete', 'run', 'call', 'describe', 'find', 'check'].map(stem),
);

export interface RankingIndex {
  version: number;
  entries: readonly CatalogueEntry[];
  /** Per term: the documents holding it and their saturated BM25F pseudo-frequency, packed (ranking/postings.ts). */
  postings: PostingLists;
  /** Per entry: 1 for a core tool. */
  core: Uint8Array;
  /** Per entry: what its own name says it does, DESTROYS and/or WRITES (ranking/acts.ts). */
  acts: Uint8Array;
  /** Per entry: its position when the catalogue is sorted by name (ties are ordered by it). */
  nameOrder: Uint32Array;
  /** Position in name order -> entry: nameOrder's inverse. */
  byNameOrder: Uint32Array;
  /** Per entry: its server's number (entries without a server share the last). */
  serverOf: Uint32Array;
  /** Per-entry accumulators of one query, all zero between queries. */
  scratch: {
    total: Float64Array;
    exact: Uint8Array;
    matched: Uint8Array;
    best: Float64Array;
    serverBest: Float64Array;
    serverTotal: Float64Array;
    /** Per entry: how many of the request's words its name holds as written. */
    named: Uint8Array;
  };
  /** The tools' own names as written (ranking/name-forms.ts). */
  nameForms: NameForms;
  /** The terms of each tool's own name (ranking/name-cover.ts). */
  nameCover: NameCover;
  /** The catalogue's server names, lower-case. */
  serverNames: ReadonlySet<string>;
  /** WordNet's relatives of a stemmed word, cut to the terms this index holds. */
  related: Map<string, readonly string[]>;
  /** Entries that say they are deprecated, by index. */
  deprecated: Map<number, Deprecation>;
  /** Terms of words the catalogue writes whole that are two of its words glued (ranking/joined-words.ts). */
  compounds: ReadonlySet<string>;
  /** Misspelt query words read as the catalogue's terms (ranking/spelling.ts); null without the English word list. */
  spelling: Spelling | null;
}

interface Fielded {
  /** Per field, in FIELDS order: the terms of that field. */
  terms: [string[], string[], string[], string[], string[]];
}

export function buildIndex(entries: readonly CatalogueEntry[], version: number): RankingIndex {
  // A catalogue repeats few distinct words many times: stem each once.
  const stems = new Map<string, string>();
  const stemOf = (w: string): string => {
    let s = stems.get(w);
    if (s === undefined) stems.set(w, (s = stem(w)));
    return s;
  };
  // First pass: each field's terms (names kept as words until the catalogue's vocabulary,
  // for splitting compounds, is known; the rest stemmed at once, so no second copy is held).
  const vocabulary = new Set<string>();
  const prose = new Set<string>();
  // Per server, its tools' name-shaped names: a description's sentence naming another is about that one (ranking/siblings.ts).
  const namesOf = new Map<string | undefined, Set<string>>();
  for (const e of entries) {
    const part = toolPart(e);
    if (!isNameShaped(part)) continue;
    const names = namesOf.get(e.server) ?? new Set<string>();
    names.add(part);
    namesOf.set(e.server, names);
  }
  const raw = entries.map((entry) => {
    const name = words(toolPart(entry));
    const server = entry.server === undefined ? [] : words(entry.server);
    const summary = words(entry.summary);
    const description = words(withoutSiblingSentences(entry.description.slice(0, MAX_INDEXED_DESCRIPTION), namesOf.get(entry.server), toolPart(entry)));
    const schema = words(schemaText(entry.inputSchema));
    for (const w of name) vocabulary.add(w);
    for (const w of server) vocabulary.add(w);
    for (const field of [summary, description, schema]) for (const w of field) prose.add(w);
    return [name, server.map(stemOf), summary.map(stemOf), description.map(stemOf), schema.map(stemOf)] as const;
  });
  for (const w of prose) vocabulary.add(w);
  const compounds = wholeCompounds(
    entries.flatMap((e) => [toolPart(e), e.summary, e.description.slice(0, MAX_INDEXED_DESCRIPTION)]),
    vocabulary,
    stemOf,
  );
  const splitter = new CompoundSplitter(vocabulary, prose);

  const docs: Fielded[] = raw.map(([name, server, summary, description, schema]) => {
    const nameTerms: string[] = [];
    for (const w of name) {
      nameTerms.push(stemOf(w));
      // The compound stays a term of its own ("sequentialthinking" still finds itself).
      for (const part of splitter.split(w) ?? []) nameTerms.push(stemOf(part));
    }
    return { terms: [nameTerms, server, summary, description, schema] };
  });

  const averages = FIELDS.map((_, f) => (docs.length ? docs.reduce((sum, d) => sum + d.terms[f]!.length, 0) / docs.length : 1) || 1);
  const building = new PostingsBuilder();
  docs.forEach((d, doc) => {
    const tf = new Map<string, number>();
    FIELDS.forEach((field, f) => {
      const terms = d.terms[f]!;
      if (terms.length === 0) return;
      const norm = field.weight / (1 - field.b + (field.b * terms.length) / averages[f]!);
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + norm);
    });
    for (const [term, f] of tf) building.add(doc, term, f);
  });
  const postings = building.finish();
  const byName = new Map(entries.map((e, i) => [e.name, i]));
  const deprecated = new Map<number, Deprecation>();
  entries.forEach((e, i) => {
    const d = deprecationOf(e, (name) => byName.get(name));
    if (d) deprecated.set(i, d);
  });
  const acts = Uint8Array.from(docs, (d) => (d.terms[0].some((t) => DESTROYING.has(t)) ? DESTROYS : 0) | (d.terms[0].some((t) => WRITING.has(t)) ? WRITES : 0));
  const nameOrder = new Uint32Array(entries.length);
  const byNameOrder = Uint32Array.from(
    [...entries.keys()].sort((a, b) => (entries[a]!.name < entries[b]!.name ? -1 : entries[a]!.name > entries[b]!.name ? 1 : 0)),
  );
  byNameOrder.forEach((doc, i) => (nameOrder[doc] = i));
  const n = entries.length;
  const servers = new Map<string | undefined, number>();
  const serverOf = Uint32Array.from(entries, (e) => {
    let id = servers.get(e.server);
    if (id === undefined) servers.set(e.server, (id = servers.size));
    return id;
  });
  const scratch = {
    total: new Float64Array(n),
    exact: new Uint8Array(n),
    matched: new Uint8Array(n),
    best: new Float64Array(n),
    serverBest: new Float64Array(servers.size),
    serverTotal: new Float64Array(servers.size),
    named: new Uint8Array(n),
  };
  const core = Uint8Array.from(entries, (e) => Number(e.kind === 'core'));
  const related = relatedTable((term) => postings.ids.has(term));
  return {
    version,
    entries,
    postings,
    core,
    acts,
    nameOrder,
    byNameOrder,
    serverOf,
    scratch,
    nameForms: NameForms.of(entries),
    nameCover: NameCover.of(entries, (t) => postings.ids.get(t)),
    serverNames: new Set(entries.flatMap((e) => (e.server === undefined ? [] : [e.server.toLowerCase()]))),
    related,
    deprecated,
    compounds,
    spelling: catalogueSpelling(postings, related, vocabulary),
  };
}

const cache = new WeakMap<CatalogueApi, RankingIndex>();

export function indexFor(catalogue: CatalogueApi): RankingIndex {
  let index = cache.get(catalogue);
  if (!index || index.version !== catalogue.version) {
    index = buildIndex(catalogue.all(), catalogue.version);
    cache.set(catalogue, index);
  }
  return index;
}

export interface Scored {
  entry: CatalogueEntry;
  score: number;
}

/**
 * `terms` and the names taken out before a kind that are a server's whole name: "the weather
 * service", "the slack channel" name the service ("the dev server" does not name shopify-dev).
 */
function withServersNamed(terms: string[], query: string, serverNames: ReadonlySet<string>): string[] {
  for (const name of resourceNames(query)) {
    if (!serverNames.has(name)) continue;
    for (const w of words(name)) {
      const t = stem(w);
      if (!terms.includes(t)) terms.push(t);
    }
  }
  return terms;
}

/** The forms a query term is looked for in, with their weights: itself, its intent words, its WordNet relatives. */
function forms(index: RankingIndex, term: string): [string, number][] {
  const out: [string, number][] = [[term, 1]];
  const seen = new Set([term]);
  for (const [list, weight] of [
    [intentOf(term), INTENT_WEIGHT],
    [index.related.get(term) ?? [], RELATED_WEIGHT],
  ] as const) {
    for (const t of list) {
      if (seen.has(t)) continue;
      seen.add(t);
      out.push([t, weight]);
    }
  }
  return out;
}

/**
 * Whether core tools rank only on a strong match: unless the query's words ask for them, or
 * the candidates are core tools only (a kind filter, a `core_*` pattern).
 */
function coreGatedFor(queryWords: readonly string[], candidates: readonly CatalogueEntry[]): boolean {
  return !asksForCore(queryWords) && candidates.some((e) => e.kind !== 'core');
}

/** Whether `query` over `candidates` gates core tools (hybrid ranking applies the same gate to meaning). */
export function gatesCore(query: string, candidates: readonly CatalogueEntry[]): boolean {
  return coreGatedFor(wordsOfQuery(query), candidates);
}

/** Scores `candidates` (a subset of the catalogue) against `query`; drops non-matches; best first, equal scores by name. */
export function rank(index: RankingIndex, query: string, candidates: readonly CatalogueEntry[]): Scored[] {
  const queryWords = wordsOfQuery(query);
  const spelt = withServersNamed(queryTerms(queryWords, index.postings, index.spelling, namesIn(query)), query, index.serverNames);
  const joined = joinedWords(queryWords, spelt, index.compounds);
  const terms = joined.length === 0 ? spelt : [...spelt, ...joined.map((j) => j.term)];
  const n = index.entries.length;
  // Per-doc accumulators, reused across queries (ranking is synchronous) and cleared below.
  const { total, exact, matched, best, serverBest, serverTotal, named } = index.scratch;
  const touched: number[] = [];
  const inConcept: number[] = [];
  const servers: number[] = [];
  for (const term of terms) {
    for (const [form, weight] of forms(index, term)) {
      const id = index.postings.ids.get(form);
      if (id === undefined) continue;
      const { count, byteStart, gaps, weights } = index.postings;
      const df = documentFrequency(index.postings, id);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const scale = (weight * idf) / WEIGHT_SCALE;
      let at = byteStart[id]!;
      let doc = -1;
      for (let p = count[id]!, end = count[id + 1]!; p < end; p++) {
        // A variable-length gap from the previous document (ranking/postings.ts).
        let gap = 0;
        let shift = 0;
        let byte: number;
        do {
          byte = gaps[at++]!;
          gap += (byte & 0x7f) * 2 ** shift;
          shift += 7;
        } while (byte & 0x80);
        doc += gap;
        const s = scale * weights[p]!;
        if (best[doc] === 0) inConcept.push(doc);
        if (s > best[doc]!) best[doc] = s;
        if (weight === 1) exact[doc]!++;
      }
    }
    // One concept, one contribution per doc: its best form.
    const verb = COMMON_VERBS.has(term) ? VERB_WEIGHT : 1;
    for (const doc of inConcept) {
      if (total[doc] === 0) touched.push(doc);
      total[doc]! += verb * best[doc]!;
      matched[doc]!++;
      const server = index.serverOf[doc]!;
      if (serverBest[server] === 0 && serverTotal[server] === 0) servers.push(server);
      if (verb * best[doc]! > serverBest[server]!) serverBest[server] = verb * best[doc]!;
      best[doc] = 0;
    }
    for (const server of servers) {
      serverTotal[server]! += serverBest[server]!;
      serverBest[server] = 0;
    }
    inConcept.length = 0;
  }

  const allowed = candidates.length === n ? undefined : new Set(candidates);
  const gateCore = coreGatedFor(queryWords, candidates);
  const countedNames = index.nameForms.count(joined.length === 0 ? queryWords : [...queryWords, ...joined.map((j) => j.word)], named);
  const strong = Math.max(2, Math.ceil(terms.length * CORE_STRONG_SHARE));
  let destroying = false;
  let changing = false;
  // Every term the request looks for, in any of its forms: what a tool's name may be covered by.
  const asked = new Set<number>();
  for (const t of terms)
    for (const [f] of forms(index, t)) {
      destroying ||= DESTROYING.has(f);
      changing ||= ASKS_FOR_CHANGE.has(f);
      const id = index.postings.ids.get(f);
      if (id !== undefined) asked.add(id);
    }
  const reading = readsOnly(query, changing);
  const scoreOf = (doc: number): number => {
    // Lucene's coordination: a tool matching more of the request's words is the likelier one.
    let score = total[doc]! * Math.pow(matched[doc]! / terms.length, COORD_POWER) + SERVER_EVIDENCE * serverTotal[index.serverOf[doc]!]!;
    score *= 1 + NAME_FORM_BONUS * named[doc]!;
    if (index.nameCover.covered(doc, asked)) score *= 1 + NAME_COVER_BONUS;
    if (!destroying && (index.acts[doc]! & DESTROYS) !== 0) score *= DESTRUCTIVE_WEIGHT;
    if (reading && (index.acts[doc]! & WRITES) !== 0) score *= WRITING_WEIGHT;
    if (gateCore && index.core[doc] === 1) score = exact[doc]! >= strong ? score * CORE_WEIGHT : 0;
    const d = index.deprecated.get(doc);
    if (d && score > 0) {
      score *= DEPRECATED_WEIGHT;
      const replacement = d.replacement === undefined ? 0 : total[d.replacement]!;
      if (replacement > 0) score = Math.min(score, replacement * DEPRECATED_WEIGHT);
    }
    return score;
  };
  // Each match as one number, its shown score (thousandths) then its name order, so a typed
  // array's native sort orders the answer: no comparator, no object per match until the end.
  const span = n + 1;
  const keys = new Float64Array(touched.length);
  let kept = 0;
  for (const doc of touched) {
    const keep = !allowed || allowed.has(index.entries[doc]!);
    const thousandths = keep ? Math.round(scoreOf(doc) * 1000) : 0;
    if (thousandths > 0) keys[kept++] = thousandths * span + (n - index.nameOrder[doc]!);
  }
  for (const server of servers) serverTotal[server] = 0;
  for (const doc of countedNames) named[doc] = 0;
  for (const doc of touched) {
    total[doc] = 0;
    exact[doc] = 0;
    matched[doc] = 0;
  }
  const sorted = keys.subarray(0, kept).sort();
  const out = new Array<Scored>(kept);
  for (let i = 0; i < kept; i++) {
    // Ascending keys: the best match is last. Past 2^53 (a score in the billions) order would blur; none comes near.
    const key = sorted[kept - 1 - i]!;
    const thousandths = Math.floor(key / span);
    const doc = index.byNameOrder[n - (key - thousandths * span)]!;
    out[i] = { entry: index.entries[doc]!, score: thousandths / 1000 };
  }
  return out;
}

/**
 * A request naming two tasks ("find the crashing pod and show me its logs") ranks the tools of
 * both near the top: each clause is ranked alone too (ranking/clauses.ts).
 */
export function rankEntries(catalogue: CatalogueApi, query: string, candidates: readonly CatalogueEntry[]): Scored[] {
  const index = indexFor(catalogue);
  const whole = rank(index, query, candidates);
  const clauses = clausesOf(query);
  if (clauses.length === 0 || whole.length === 0) return whole;
  return withClauses(
    whole,
    clauses.map((clause) => rank(index, clause, candidates)),
  );
}
