/**
 * `npm run bench -- search-hybrid --vectors <file.vec>`: semantic ranking measured in process
 * on the search development set (bench/devset), with the word vectors of `<file.vec>` through
 * the embedder-static plugin's own code and meta-tools' own tool vectors and fusion:
 *
 * - quality per step (hit@1/5/10, MRR) of lexical alone, semantic alone, reciprocal rank
 *   fusion at several K, and a score blend at several weights (what docs/decisions.md's
 *   choice of fusion rests on). In process, so the catalogue has no core_* tools.
 * - query latency p50 over 10,000 tools (the set's tools repeated under other server names):
 *   lexical, and hybrid with the query's vector computed (static vectors are local) and cached;
 * - the tool vectors' memory at 10,000 tools.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalogue } from '../kernel/catalogue.js';
import type { ToolDefinition } from '../kernel/tools.js';
import { readVectorsFile } from '../plugins/embedder-static/vectors-file.js';
import { StaticEmbedder } from '../plugins/embedder-static/static-embedder.js';
import { blend, fuse, HybridRanker, RRF_K, semanticRanking, type Semantic } from '../plugins/meta-tools/hybrid.js';
import { rankEntries, type Scored } from '../plugins/meta-tools/ranking.js';
import { ToolVectors, unit } from '../plugins/meta-tools/tool-vectors.js';
import { VectorCache } from '../plugins/meta-tools/vector-cache.js';
import { loadDevset, type Catalogue as DevCatalogue } from './devset/catalog.js';
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

export interface HybridFigures {
  tools: number;
  steps: number;
  dimension: number;
  quality: Record<string, Figures>;
  at10k: { tools: number; lexicalP50Ms: number; hybridP50Ms: number; hybridFirstQueryP50Ms: number; vectorBytes: number; vectorsSeconds: number };
}

const p50 = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0, 3);

export async function benchSearchHybrid(root: string, vectorsFile: string): Promise<HybridFigures> {
  const { catalogues, queries } = await loadDevset(root);
  const words = await readVectorsFile(vectorsFile, '--vectors', { maxFileBytes: 4 * 1024 ** 3, maxDimension: 4096, maxWords: 200_000 });
  const dir = await mkdtemp(join(tmpdir(), 'sb-hybrid-'));
  try {
    const embed = (id: string) =>
      new StaticEmbedder(
        id,
        () => Promise.resolve(words),
        0.001,
        () => undefined,
        () => undefined,
      );
    const catalogue = catalogueOf(catalogues, 1);
    const embedder = embed('bench');
    const tv = new ToolVectors(catalogue, embedder, new VectorCache(dir, 'bench'), quiet as never);
    await tv.refreshNow();
    const snap = tv.snapshot!;
    const all = catalogue.all();
    const variants: Record<string, (lex: Scored[], sem: Semantic) => Scored[]> = {
      lexical: (lex) => lex,
      semantic: (_, sem) => [...sem.rows].map((r) => ({ entry: snap.entries[r]!, score: 0 })),
      ...Object.fromEntries([5, 10, 20, 30, RRF_K].map((k) => [`rrf k=${k}`, (lex: Scored[], sem: Semantic) => fuse(lex, sem, snap, k)])),
      ...Object.fromEntries([0.5, 0.6, 0.7, 0.8, 0.9].map((a) => [`blend a=${a}`, (lex: Scored[], sem: Semantic) => blend(lex, sem, snap, a)])),
    };
    const ranks: Record<string, (number | null)[]> = Object.fromEntries(Object.keys(variants).map((v) => [v, []]));
    for (const q of queries) {
      const lex = rankEntries(catalogue, q.query, all);
      const [qv] = await embedder.embed([q.query]);
      const sem = semanticRanking(snap, unit(qv!), all);
      for (const [name, f] of Object.entries(variants)) {
        const ranked = f(lex, sem).map((s) => s.entry.name);
        for (const step of q.steps) {
          const gold = step.gold.map((g) => `x_${g.replace('/', '_')}`);
          const at = ranked.findIndex((n) => gold.includes(n));
          ranks[name]!.push(at < 0 ? null : at + 1);
        }
      }
    }
    const quality: Record<string, Figures> = {};
    for (const [name, rs] of Object.entries(ranks)) {
      const mean = (f: (r: number | null) => number) => round(rs.reduce<number>((a, r) => a + f(r), 0) / rs.length, 3);
      quality[name] = {
        hitAt1: mean((r) => Number(r !== null && r <= 1)),
        hitAt5: mean((r) => Number(r !== null && r <= 5)),
        hitAt10: mean((r) => Number(r !== null && r <= 10)),
        mrr: mean((r) => (r === null ? 0 : 1 / r)),
      };
    }

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
      tools: all.length,
      steps: ranks.lexical!.length,
      dimension: snap.dimension,
      quality,
      at10k: { tools: bigAll.length, lexicalP50Ms: p50(lexMs), hybridP50Ms: p50(hybridMs), hybridFirstQueryP50Ms: p50(firstMs), vectorBytes, vectorsSeconds },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function hybridTable(f: HybridFigures): string {
  const rows = Object.entries(f.quality).map(([name, q]) => `| ${name} | ${q.hitAt1} | ${q.hitAt5} | ${q.hitAt10} | ${q.mrr} |`);
  const b = f.at10k;
  return [
    `${f.tools} tools, ${f.steps} steps, vectors of dimension ${f.dimension}`,
    '| ranking | hit@1 | hit@5 | hit@10 | MRR |',
    '|---|---|---|---|---|',
    ...rows,
    `\nat ${b.tools} tools: lexical p50 ${b.lexicalP50Ms} ms; hybrid p50 ${b.hybridP50Ms} ms (query vector cached), ${b.hybridFirstQueryP50Ms} ms (query embedded); tool vectors ${round(b.vectorBytes / 1048576, 1)} MiB, computed in ${b.vectorsSeconds} s`,
  ].join('\n');
}
