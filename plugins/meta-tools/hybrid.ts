/**
 * filter_tools' `query` ranking with an embedder: the lexical ranking (ranking.ts, a black
 * box here) fused with the cosine similarity of the query's vector to each tool's
 * (tool-vectors.ts). Without an embedder, or while its vectors are missing or it fails, the
 * answer is the lexical ranking alone and `ranking` says why (docs/discovery.md).
 *
 * Fusion is a blend of the scores, lexical weighing BLEND_ALPHA (docs/decisions.md: measured
 * against reciprocal rank fusion on the development set), over the tools the lexical ranking
 * matched and the semantic ranking's top SEMANTIC_DEPTH, so a paraphrase that shares no word
 * with a tool still finds it.
 */
import { EmbedderError, type CatalogueApi, type CatalogueEntry, type Embedder } from '../../kernel/index.js';
import { checkQueryLength } from './query-length.js';
import { gatesCore, rankEntries, type Scored } from './ranking.js';
import { unit, type ToolVectors, type VectorSnapshot } from './tool-vectors.js';

/** RRF's constant: 60 in the original paper; smaller lets the top ranks count for more. */
export const RRF_K = 60;
/** The lexical share of the blend filter_tools uses (measured on the development set: docs/decisions.md). */
export const BLEND_ALPHA = 0.7;
/** Semantic matches a query brings in beyond the lexical ones. */
export const SEMANTIC_DEPTH = 50;
/** Query vectors kept (a query embeds once; an agent repeats itself). */
const QUERY_CACHE = 256;

export interface RankedAnswer {
  scored: Scored[];
  /** filter_tools' `ranking` field: `hybrid`, `lexical`, or `lexical (<why the embedder is not used>)`. */
  ranking: string;
}

/** Semantic matches best first: snapshot rows and their centred cosine. */
export interface Semantic {
  rows: Int32Array;
  scores: Float32Array;
}

/**
 * Centred cosine of the query with each candidate row, best `depth` first. Without core tools
 * (`withoutCore`) when the query does not ask for them: a core tool ranks only on a strong
 * lexical match (ranking/standing.ts), and meaning alone never is one.
 *
 * The hot loop of a hybrid query: tools x dimension multiply-adds, every row's dot product with
 * the query in one WebAssembly SIMD call (dot-rows.ts); then each candidate's score from its
 * product, read through locals, and the best `depth` kept in a bounded min-heap of typed
 * arrays, so a query allocates O(depth), not O(tools), and sorts nothing. A subset of the
 * catalogue (a view, a pattern) is scored from the same whole scan: one call over every row
 * (0.8 ms at 10,000 x 300) costs less than choosing rows for it.
 */
export function semanticRanking(
  s: VectorSnapshot,
  query: Float32Array,
  candidates: readonly CatalogueEntry[],
  depth = SEMANTIC_DEPTH,
  withoutCore = false,
): Semantic {
  const { dimension: d, matrix, mean, meanDot, centredNorm, meanSquare, core } = s;
  let qMean = 0;
  let qSq = 0;
  for (let i = 0; i < d; i++) {
    qMean += query[i]! * mean[i]!;
    qSq += query[i]! * query[i]!;
  }
  const qNorm = Math.sqrt(Math.max(0, qSq - 2 * qMean + meanSquare)) || 1;
  // A subset of the catalogue (a view, a pattern): its rows, looked up once per candidate.
  let subset: Int32Array | undefined;
  if (candidates !== s.entries) {
    const found = new Int32Array(candidates.length);
    let n = 0;
    for (const entry of candidates) {
      const row = s.rows.get(entry);
      if (row !== undefined) found[n++] = row;
    }
    subset = found.subarray(0, n);
  }
  const count = subset ? subset.length : s.entries.length;
  const dots = matrix.scan(query);
  const k = Math.min(depth, count);
  // Min-heap on score (equal scores: the later row is the lesser); slot 0 is the weakest kept.
  const heapRows = new Int32Array(k);
  const heapScores = new Float64Array(k);
  let size = 0;
  for (let c = 0; c < count; c++) {
    const row = subset ? subset[c]! : c;
    const norm = centredNorm[row]!;
    if (norm === 0 || (withoutCore && core[row] === 1)) continue;
    const dot = dots[row]!;
    const score = (dot - qMean - meanDot[row]! + meanSquare) / (qNorm * norm);
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!weaker(score, row, heapScores[p]!, heapRows[p]!)) break;
        heapRows[i] = heapRows[p]!;
        heapScores[i] = heapScores[p]!;
        i = p;
      }
      heapRows[i] = row;
      heapScores[i] = score;
    } else if (k > 0 && weaker(heapScores[0]!, heapRows[0]!, score, row)) {
      siftDown(heapRows, heapScores, size, row, score);
    }
  }
  // Take the weakest off one by one into the answer's tail: best first, equal scores by row.
  const rows = new Int32Array(size);
  const scores = new Float32Array(size);
  for (let n = size; n > 0; n--) {
    rows[n - 1] = heapRows[0]!;
    scores[n - 1] = heapScores[0]!;
    if (n > 1) siftDown(heapRows, heapScores, n - 1, heapRows[n - 1]!, heapScores[n - 1]!);
  }
  return { rows, scores };
}

/** Whether (score a, row a) ranks below (score b, row b): a lower score, or the same score and a later row. */
function weaker(a: number, rowA: number, b: number, rowB: number): boolean {
  return a < b || (a === b && rowA > rowB);
}

/** Puts (row, score) at the heap's root and sifts it down over the first `size` slots. */
function siftDown(heapRows: Int32Array, heapScores: Float64Array, size: number, row: number, score: number): void {
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    const m = r < size && weaker(heapScores[r]!, heapRows[r]!, heapScores[l]!, heapRows[l]!) ? r : l;
    if (!weaker(heapScores[m]!, heapRows[m]!, score, row)) break;
    heapRows[i] = heapRows[m]!;
    heapScores[i] = heapScores[m]!;
    i = m;
  }
  heapRows[i] = row;
  heapScores[i] = score;
}

/**
 * The lexical answer with some entries raised: `base(i, score)` is the i-th lexical entry's
 * fused score (falling with i), `boost` what the semantic ranking adds to its few entries.
 * Only the raised entries are sorted; the rest keep their lexical order and are merged in, so
 * a query over ten thousand matches sorts fifty, not ten thousand.
 */
function raise(lexical: readonly Scored[], base: (i: number, score: number) => number, boost: Map<CatalogueEntry, number>): Scored[] {
  const raised: { entry: CatalogueEntry; score: number; order: number }[] = [];
  const rest: Scored[] = [];
  for (let i = 0; i < lexical.length; i++) {
    const { entry, score } = lexical[i]!;
    const fused = base(i, score);
    const b = boost.size > 0 ? boost.get(entry) : undefined;
    if (b === undefined) rest.push({ entry, score: fused });
    else {
      raised.push({ entry, score: fused + b, order: i });
      boost.delete(entry);
    }
  }
  for (const [entry, b] of boost) raised.push({ entry, score: b, order: Infinity });
  raised.sort((a, b) => b.score - a.score || a.order - b.order || (a.entry.name < b.entry.name ? -1 : 1));
  const out: Scored[] = new Array<Scored>(raised.length + rest.length);
  let r = 0;
  let l = 0;
  for (let o = 0; o < out.length; o++) {
    if (r < raised.length && (l >= rest.length || raised[r]!.score > rest[l]!.score)) {
      const { entry, score } = raised[r++]!;
      out[o] = { entry, score: Math.round(score * 10000) / 10000 };
    } else {
      const next = rest[l++]!;
      next.score = Math.round(next.score * 10000) / 10000;
      out[o] = next;
    }
  }
  return out;
}

/** Reciprocal rank fusion: 1/(k + lexical rank) + 1/(k + semantic rank). */
export function fuse(lexical: readonly Scored[], semantic: Semantic, s: VectorSnapshot, k = RRF_K): Scored[] {
  const boost = new Map<CatalogueEntry, number>();
  semantic.rows.forEach((row, i) => boost.set(s.entries[row]!, 1 / (k + i + 1)));
  return raise(lexical, (i) => 1 / (k + i + 1), boost);
}

/**
 * A blend of the scores: alpha x lexical score / the best lexical score, plus (1 - alpha) x
 * cosine / the best cosine (negative cosines add nothing). What filter_tools uses, with
 * BLEND_ALPHA (docs/decisions.md).
 */
export function blend(lexical: readonly Scored[], semantic: Semantic, s: VectorSnapshot, alpha = BLEND_ALPHA): Scored[] {
  const top = lexical[0]?.score || 1;
  const best = semantic.scores[0] ?? 0;
  const boost = new Map<CatalogueEntry, number>();
  if (best > 0) semantic.rows.forEach((row, i) => boost.set(s.entries[row]!, ((1 - alpha) * Math.max(0, semantic.scores[i]!)) / best));
  return raise(lexical, (_, score) => (alpha * score) / top, boost);
}

export class HybridRanker {
  private readonly queries = new Map<string, Promise<Float32Array>>();

  constructor(
    private readonly catalogue: CatalogueApi,
    private readonly embedder: Embedder | undefined,
    private readonly vectors: ToolVectors | undefined,
  ) {}

  async rank(query: string, candidates: readonly CatalogueEntry[]): Promise<RankedAnswer> {
    checkQueryLength(query);
    const lexical = rankEntries(this.catalogue, query, candidates);
    if (!this.embedder || !this.vectors) return { scored: lexical, ranking: 'lexical' };
    const snapshot = this.vectors.snapshot;
    if (!snapshot) {
      const f = this.vectors.failure;
      if (f) return { scored: lexical, ranking: `lexical (embedder unavailable: ${f.reason}: ${f.message})` };
      const { done, total } = this.vectors.progress;
      return { scored: lexical, ranking: `lexical (embedder not ready: tool vectors for ${done} of ${total} tools)` };
    }
    let vector: Float32Array;
    try {
      vector = await this.queryVector(query);
    } catch (err) {
      const e = err instanceof EmbedderError ? err : new EmbedderError('bad-response', (err as Error).message);
      return { scored: lexical, ranking: `lexical (embedder unavailable: ${e.reason}: ${e.message})` };
    }
    if (vector.length !== snapshot.dimension) {
      return {
        scored: lexical,
        ranking: `lexical (embedder unavailable: bad-response: the query's vector has ${vector.length} numbers, the tools' ${snapshot.dimension})`,
      };
    }
    // Core tools are gated as lexical ranking gates them: meaning alone never raises one.
    const scored = blend(lexical, semanticRanking(snapshot, vector, candidates, SEMANTIC_DEPTH, gatesCore(query, candidates)), snapshot);
    const behind = snapshot.catalogueVersion !== this.catalogue.version;
    return { scored, ranking: behind ? `hybrid (tool vectors are being updated: ${snapshot.rows.size} tools have them)` : 'hybrid' };
  }

  private queryVector(text: string): Promise<Float32Array> {
    const key = text.trim().toLowerCase();
    const hit = this.queries.get(key);
    if (hit) {
      this.queries.delete(key);
      this.queries.set(key, hit);
      return hit;
    }
    const embedder = this.embedder!;
    const made = embedder.embed([text], { signal: AbortSignal.timeout(embedder.queryTimeoutMs) }).then(([v]) => {
      if (!v) throw new EmbedderError('bad-response', 'no vector for the query');
      return unit(v);
    });
    this.queries.set(key, made);
    if (this.queries.size > QUERY_CACHE) this.queries.delete(this.queries.keys().next().value!);
    // A failure is not remembered: the next search asks again.
    made.catch(() => this.queries.delete(key));
    return made;
  }
}
