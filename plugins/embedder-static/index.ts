/**
 * embedder-static: the `embedder` service from word vectors in a file the operator names
 * (`embedder.staticVectors.file`: fastText `.vec` or GloVe text), fully offline. Without that
 * setting it does nothing and loads nothing. With it, setup checks the file (present, within
 * maxFileBytes: a bad path stops startup and `switchboard check`, naming it), and the vectors
 * are read in the background within the limits; until then, or if the file turns out
 * malformed, filter_tools ranks lexically and says why.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { definePlugin } from '../../kernel/index.js';

export default definePlugin({
  name: 'embedder-static',
  description: 'Semantic tool search from a fastText/GloVe word-vector file (embedder.staticVectors), SIF-weighted, offline.',
  provides: ['embedder'],
  async setup({ kernel, log }) {
    const s = kernel.settings().embedder?.staticVectors;
    if (!s) return;
    const { checkVectorsFile, readVectorsFile } = await import('./vectors-file.js');
    const { StaticEmbedder, staticModelId } = await import('./static-embedder.js');
    const path = isAbsolute(s.file) ? s.file : resolve(kernel.config.configPath, s.file);
    const limits = { maxFileBytes: s.maxFileBytes, maxDimension: s.maxDimension, maxWords: s.maxWords };
    const size = await checkVectorsFile(path, 'embedder.staticVectors.file', limits);
    const { mtimeMs } = await stat(path);
    const started = performance.now();
    const embedder = new StaticEmbedder(
      staticModelId(path, size, mtimeMs, s.maxWords, s.sifWeight),
      () => readVectorsFile(path, 'embedder.staticVectors.file', limits),
      s.sifWeight,
      (v) =>
        log.info(
          `word vectors loaded from ${s.file}: ${v.rows.size} words of dimension ${v.dimension} (${Math.round(v.data.byteLength / 1048576)} MiB) in ${Math.round(performance.now() - started)} ms${v.skipped ? `; ${v.skipped} lines skipped (not a word and ${v.dimension} numbers)` : ''}`,
        ),
      (err) => log.error(`embedder.staticVectors: ${err.message}; filter_tools ranks lexically`),
    );
    kernel.services.provide('embedder', embedder);
  },
});
