/**
 * A catalogue of plain tools for ranking tests: each tool a tuple of its name, description,
 * server and (optionally) input schema, as the catalogue would hold an upstream's tool.
 */
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { createLogger } from '../../kernel/log.js';
import type { JsonSchemaObject } from '../../kernel/tools.js';
import { indexFor, rank } from '../../plugins/meta-tools/ranking.js';

export type CorpusTool = [name: string, description: string, server: string, schema?: JsonSchemaObject];

export function toolCorpus(tools: readonly CorpusTool[]): Catalogue {
  const c = new Catalogue(createHooks(), createLogger({ level: 'error' }));
  c.replaceSource(
    'corpus',
    tools.map(([name, description, server, schema]) => ({
      name,
      kind: 'tool' as const,
      server,
      description,
      inputSchema: schema ?? { type: 'object' },
      invoke: async () => ({ content: [] }),
    })),
  );
  return c;
}

/** The name of the tool `catalogue` ranks first for a query (undefined when none matches). */
export function firstRanked(catalogue: Catalogue): (query: string) => string | undefined {
  return (query) => rank(indexFor(catalogue), query, catalogue.all())[0]?.entry.name;
}

/** The names of the tools `catalogue` ranks for a query, best first. */
export function rankedNames(catalogue: Catalogue): (query: string) => string[] {
  return (query) => rank(indexFor(catalogue), query, catalogue.all()).map((s) => s.entry.name);
}
