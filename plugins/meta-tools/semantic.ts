/**
 * Semantic ranking's wiring: when an `embedder` is provided, the tool vectors follow the
 * catalogue (computed after each change, off the request path) and are cached under
 * `<config>/state/embeddings/`. The ranker filter_tools uses is lexical without one.
 */
import { join } from 'node:path';
import type { KernelApi, Logger } from '../../kernel/index.js';
import { HybridRanker } from './hybrid.js';
import { ToolVectors } from './tool-vectors.js';
import { VectorCache } from './vector-cache.js';

export function searchRanker(kernel: KernelApi, log: Logger): { ranker: HybridRanker; stop: () => void } {
  const embedder = kernel.services.find('embedder');
  if (!embedder) return { ranker: new HybridRanker(kernel.catalogue, undefined, undefined), stop: () => undefined };
  const cache = new VectorCache(join(kernel.config.configPath, 'state', 'embeddings'), embedder.modelId);
  const vectors = new ToolVectors(kernel.catalogue, embedder, cache, log);
  kernel.hooks.onCatalogueChange.tap('meta-tools', () => vectors.schedule());
  vectors.schedule();
  return { ranker: new HybridRanker(kernel.catalogue, embedder, vectors), stop: () => vectors.stop() };
}
