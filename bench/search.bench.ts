/**
 * Search quality of filter_tools `query`: natural queries (bench/search-queries.json), each
 * with the tools a person typing it wants, run through the real protocol against a real
 * Switchboard aggregating real servers (test/support/search-servers.ts) and its own core_*
 * tools. Reports recall@5 (the share of a query's expected tools in its top five, capped at
 * five expected) and MRR (1 / rank of the first expected tool; 0 when none is ranked).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHttp, meta, startSwitchboard } from '../test/support/harness.js';
import { searchServers } from '../test/support/search-servers.js';
import { round } from './stats.js';

export interface SearchQuery {
  query: string;
  /** Catalogue names as Switchboard shows them. */
  expected: string[];
}

export interface QueryOutcome extends SearchQuery {
  top: string[];
  recall: number;
  reciprocalRank: number;
}

export interface SearchFigures {
  queries: number;
  tools: number;
  recallAt5: number;
  mrr: number;
  misses: QueryOutcome[];
  outcomes: QueryOutcome[];
}

interface Found {
  tools: { name: string }[];
  total_tools: number;
}

export async function loadQueries(root: string): Promise<SearchQuery[]> {
  const parsed: unknown = JSON.parse(await readFile(join(root, 'bench/search-queries.json'), 'utf8'));
  if (!Array.isArray(parsed)) throw new Error('bench/search-queries.json: expected an array of {query, expected}');
  return parsed.map((q: unknown, i) => {
    const item = q as Partial<SearchQuery>;
    if (typeof item.query !== 'string' || !Array.isArray(item.expected) || item.expected.length === 0) {
      throw new Error(`bench/search-queries.json[${i}]: needs a string "query" and a non-empty "expected" list`);
    }
    return { query: item.query, expected: item.expected.map(String) };
  });
}

export function score(query: SearchQuery, ranked: readonly string[]): QueryOutcome {
  const top = ranked.slice(0, 5);
  const hits = query.expected.filter((e) => top.includes(e)).length;
  const first = ranked.findIndex((name) => query.expected.includes(name));
  return { ...query, top, recall: hits / Math.min(query.expected.length, 5), reciprocalRank: first < 0 ? 0 : 1 / (first + 1) };
}

export async function benchSearch(root: string, options: { list?: boolean } = {}): Promise<SearchFigures> {
  const queries = await loadQueries(root);
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-search-'));
  const sb = await startSwitchboard(searchServers(dir), { args: ['--host', '127.0.0.1'] });
  try {
    const client = await connectHttp(sb.url);
    try {
      const all = await meta<Found>(client, 'list_tools', { limit: 1000, offset: 0 });
      const names = new Set(all.tools.map((t) => t.name));
      if (options.list) process.stdout.write(`${JSON.stringify(all.tools, null, 1)}\n`);
      // A query naming a tool the servers no longer have would silently count as a miss.
      for (const q of queries) {
        const unknown = q.expected.filter((e) => !names.has(e));
        if (unknown.length > 0) throw new Error(`bench/search-queries.json: "${q.query}" expects ${unknown.join(', ')}, not in the catalogue`);
      }
      const outcomes: QueryOutcome[] = [];
      for (const q of queries) {
        // limit 50: deep enough for the reciprocal rank of a tool that misses the top five.
        const found = await meta<Found>(client, 'filter_tools', { query: q.query, limit: 50, offset: 0 });
        outcomes.push(
          score(
            q,
            found.tools.map((t) => t.name),
          ),
        );
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      return {
        queries: outcomes.length,
        tools: all.total_tools,
        recallAt5: round(mean(outcomes.map((o) => o.recall)), 3),
        mrr: round(mean(outcomes.map((o) => o.reciprocalRank)), 3),
        misses: outcomes.filter((o) => o.recall < 1),
        outcomes,
      };
    } finally {
      await client.close();
    }
  } finally {
    await sb.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
