/**
 * A catalogue of plain tools for ranking tests: each tool a tuple of its name, description,
 * server and (optionally) input schema, as the catalogue would hold an upstream's tool.
 */
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { createLogger } from '../../kernel/log.js';
import type { JsonSchemaObject } from '../../kernel/tools.js';

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
