/**
 * `npm run bench -- search-hybrid --vectors <file.vec>`: semantic ranking measured in process
 * on the search development set (bench/devset), with the word vectors of `<file.vec>` through
 * the embedder-static plugin's own code and meta-tools' own tool vectors and fusion. With
 * `--embeddings-url <baseUrl> --model <name>` instead, the vectors come from an
 * OpenAI-compatible endpoint through the embedder-openai plugin's own code (a sentence model:
 * Ollama, TEI, vLLM, OpenAI, or bench/sentence-embeddings-server.ts); the key, if any, from
 * $EMBEDDINGS_API_KEY.
 *
 * - quality per step (hit@1/5/10, MRR) of lexical alone, semantic alone, reciprocal rank
 *   fusion at several K, and a score blend at several weights (what docs/decisions.md's
 *   choice of fusion rests on). In process, so the catalogue has no core_* tools.
 * - query latency p50 over 10,000 tools (the set's tools repeated under other server names):
 *   lexical, and hybrid with the query's vector computed (static vectors are local) and cached;
 *   the tool vectors' memory at 10,000 tools. Static vectors only: a remote model would embed
 *   10,000 texts for a scan whose cost depends on the dimension alone (`discovery` measures
 *   it); for an endpoint, its query embedding time is reported instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalogue } from '../kernel/catalogue.js';
import type { ToolDefinition } from '../kernel/tools.js';
import type { Embedder } from '../kernel/contracts/embedder.js';
import { OutboundPolicy } from '../lib/net/outbound-policy.js';
import { RenewableSecret } from '../lib/secrets/renewable-secret.js';
import { OpenAiEmbedder } from '../plugins/embedder-openai/openai-embedder.js';
import { readVectorsFile } from '../plugins/embedder-static/vectors-file.js';
import { StaticEmbedder } from '../plugins/embedder-static/static-embedder.js';
import { blend, fuse, HybridRanker, RRF_K, semanticRanking, type Semantic } from '../plugins/meta-tools/hybrid.js';
import { rankEntries, type Scored } from '../plugins/meta-tools/ranking.js';
import { ToolVectors, unit } from '../plugins/meta-tools/tool-vectors.js';
import { VectorCache } from '../plugins/meta-tools/vector-cache.js';
import { isHeldBack, loadDevset, type Catalogue as DevCatalogue } from './devset/catalog.js';
import { round } from './stats.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

function catalogueOf(catalogues: readonly DevCatalogue[], copies: number): Catalogue {
  const hooks = { onToolRegister: { call: (t: ToolDefinition) => t }, onCatalogueChange: { call: () => undefined } };
  const catalogue = new Catalogue(hooks as never, quiet as never);
  for (let copy = 0; copy < copies; copy++) {
    for (const c of catalogues) {
      const server = copy === 0 ? c.server : `${c.server}${copy}`;
      const tools: ToolDefinition[] = c.tools.map((t) => ({
        name: `x_${server}_${t.name}`,
        kind: 'tool',
        server,
        description: t.description,
        inputSchema: t.inputSchema,
        invoke: () => Promise.reject(new Error('not run')),
      }));
      catalogue.replaceSource(`server:${server}`, tools);
    }
  }
  return catalogue;
}

interface Figures {
  hitAt1: number;
  hitAt5: number;
  hitAt10: number;
  mrr: number;
}

/** Where the vectors come from: a word-vector file (embedder-static) or an OpenAI-compatible endpoint (embedder-openai). */
export type VectorSource = { kind: 'vectors'; file: string } | { kind: 'openai'; baseUrl: string; model: string; apiKey?: string };

export interface HybridFigures {
  source: string;
  tools: number;
  steps: number;
  dimension: number;
  /** Per part of the development set: all queries, and the dev and held-back parts apart. */
  quality: Record<'all' | 'dev' | 'held-back', Record<string, Figures>>;
  /** Static vectors: the scan at 10,000 tools. */
  at10k?: { tools: number; lexicalP50Ms: number; hybridP50Ms: number; hybridFirstQueryP50Ms: number; vectorBytes: number; vectorsSeconds: number };
  /** An endpoint: one query's embedding, end to end (not part of the hybrid figures' cost). */
  queryEmbedP50Ms?: number;
  toolVectorsSeconds: number;
}

const p50 = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0, 3);

/** The endpoint's embedder as embedder-openai builds it, its host allowed (a local server is on loopback). */
function openAiEmbedder(source: Extract<VectorSource, { kind: 'openai' }>): Embedder {
  const policy = new OutboundPolicy([new URL(source.baseUrl).hostname]);
  return new OpenAiEmbedder(
    {
      baseUrl: source.baseUrl,
      model: source.model,
      batchSize: 64,
      timeoutSeconds: 120,
      queryTimeoutSeconds: 30,
      maxInputChars: 2000,
      maxResponseBytes: 256 * 1024 ** 2,
    },
    {
      apiKey: source.apiKey === undefined ? undefined : RenewableSecret.of(() => source.apiKey!),
      resolve: (url) => policy.resolve(url.hostname, '--embeddings-url'),
    },
  );
}

/** Makes an embedder per catalogue from the source the bench was given (word vectors are read once). */
async function embeddersOf(source: VectorSource): Promise<(id: string) => Embedder> {
  if (source.kind === 'openai') return () => openAiEmbedder(source);
  const words = await readVectorsFile(source.file, '--vectors', { maxFileBytes: 4 * 1024 ** 3, maxDimension: 4096, maxWords: 200_000 });
  return (id) =>
    new StaticEmbedder(
      id,
      () => Promise.resolve(words),
      0.001,
      () => undefined,
      () => undefined,
    );
}

export async function benchSearchHybrid(root: string, source: VectorSource): Promise<HybridFigures> {
  const { catalogues, queries } = await loadDevset(root);
  const embed = await embeddersOf(source);
  const dir = await mkdtemp(join(tmpdir(), 'sb-hybrid-'));
  try {
    const catalogue = catalogueOf(catalogues, 1);
    const embedder = embed('bench');
    const tv = new ToolVectors(catalogue, embedder, new VectorCache(dir, 'bench'), quiet as never);
    const tv0 = performance.now();
    await tv.refreshNow();
    const toolVectorsSeconds = round((performance.now() - tv0) / 1000, 1);
    const snap = tv.snapshot!;
    const all = catalogue.all();
    const variants: Record<string, (lex: Scored[], sem: Semantic) => Scored[]> = {
      lexical: (lex) => lex,
      semantic: (_, sem) => [...sem.rows].map((r) => ({ entry: snap.entries[r]!, score: 0 })),
      ...Object.fromEntries([5, 10, 20, 30, RRF_K].map((k) => [`rrf k=${k}`, (lex: Scored[], sem: Semantic) => fuse(lex, sem, snap, k)])),
      ...Object.fromEntries([0.5, 0.6, 0.7, 0.8, 0.9].map((a) => [`blend a=${a}`, (lex: Scored[], sem: Semantic) => blend(lex, sem, snap, a)])),
    };
    const parts = { all: [] as number[], dev: [] as number[], 'held-back': [] as number[] };
    const ranks: Record<string, (number | null)[]> = Object.fromEntries(Object.keys(variants).map((v) => [v, []]));
    const embedMs: number[] = [];
    for (const q of queries) {
      const lex = rankEntries(catalogue, q.query, all);
      const t = performance.now();
      const [qv] = await embedder.embed([q.query]);
      embedMs.push(performance.now() - t);
      const sem = semanticRanking(snap, unit(qv!), all);
      for (const step of q.steps) {
        const at = ranks.lexical!.length;
        parts.all.push(at);
        parts[isHeldBack(q.id) ? 'held-back' : 'dev'].push(at);
        for (const [name, f] of Object.entries(variants)) {
          const ranked = f(lex, sem).map((s) => s.entry.name);
          const gold = step.gold.map((g) => `x_${g.replace('/', '_')}`);
          const found = ranked.findIndex((n) => gold.includes(n));
          ranks[name]!.push(found < 0 ? null : found + 1);
        }
      }
    }
    const quality = Object.fromEntries(
      Object.entries(parts).map(([part, at]) => [
        part,
        Object.fromEntries(
          Object.entries(ranks).map(([name, all]) => {
            const rs = at.map((i) => all[i]!);
            const mean = (f: (r: number | null) => number) => round(rs.reduce<number>((a, r) => a + f(r), 0) / rs.length, 3);
            const figures: Figures = {
              hitAt1: mean((r) => Number(r !== null && r <= 1)),
              hitAt5: mean((r) => Number(r !== null && r <= 5)),
              hitAt10: mean((r) => Number(r !== null && r <= 10)),
              mrr: mean((r) => (r === null ? 0 : 1 / r)),
            };
            return [name, figures];
          }),
        ),
      ]),
    ) as HybridFigures['quality'];
    const figures: HybridFigures = {
      source: source.kind === 'vectors' ? `word vectors ${source.file}` : embedder.modelId,
      tools: all.length,
      steps: ranks.lexical!.length,
      dimension: snap.dimension,
      quality,
      toolVectorsSeconds,
    };
    if (source.kind === 'openai') return { ...figures, queryEmbedP50Ms: p50(embedMs) };

    // 10,000 tools: the set repeated under other server names.
    const copies = Math.ceil(10_000 / all.length);
    const big = catalogueOf(catalogues, copies);
    const bigEmbedder = embed('bench-10k');
    const bigVectors = new ToolVectors(big, bigEmbedder, new VectorCache(dir, 'bench-10k'), quiet as never);
    const t0 = performance.now();
    await bigVectors.refreshNow();
    const vectorsSeconds = round((performance.now() - t0) / 1000, 1);
    const ranker = new HybridRanker(big, bigEmbedder, bigVectors);
    const bigAll = big.all();
    rankEntries(big, 'warm the index', bigAll);
    const lexMs: number[] = [];
    const firstMs: number[] = [];
    const hybridMs: number[] = [];
    for (const q of queries) {
      let t = performance.now();
      rankEntries(big, q.query, bigAll);
      lexMs.push(performance.now() - t);
      t = performance.now();
      await ranker.rank(q.query, bigAll);
      firstMs.push(performance.now() - t);
      t = performance.now();
      await ranker.rank(q.query, bigAll);
      hybridMs.push(performance.now() - t);
    }
    const s = bigVectors.snapshot!;
    const vectorBytes = s.matrix.byteLength + s.meanDot.byteLength + s.centredNorm.byteLength + s.mean.byteLength;
    return {
      ...figures,
      at10k: { tools: bigAll.length, lexicalP50Ms: p50(lexMs), hybridP50Ms: p50(hybridMs), hybridFirstQueryP50Ms: p50(firstMs), vectorBytes, vectorsSeconds },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function hybridTable(f: HybridFigures): string {
  const rows = Object.entries(f.quality).flatMap(([part, byName]) =>
    Object.entries(byName).map(([name, q]) => `| ${part} | ${name} | ${q.hitAt1} | ${q.hitAt5} | ${q.hitAt10} | ${q.mrr} |`),
  );
  const b = f.at10k;
  return [
    `${f.source}: ${f.tools} tools, ${f.steps} steps, vectors of dimension ${f.dimension}, tool vectors computed in ${f.toolVectorsSeconds} s`,
    '| part | ranking | hit@1 | hit@5 | hit@10 | MRR |',
    '|---|---|---|---|---|---|',
    ...rows,
    b
      ? `\nat ${b.tools} tools: lexical p50 ${b.lexicalP50Ms} ms; hybrid p50 ${b.hybridP50Ms} ms (query vector cached), ${b.hybridFirstQueryP50Ms} ms (query embedded); tool vectors ${round(b.vectorBytes / 1048576, 1)} MiB, computed in ${b.vectorsSeconds} s`
      : `\na query's embedding through the endpoint: p50 ${f.queryEmbedP50Ms} ms (apart from the ranking's cost)`,
  ].join('\n');
}
