#!/usr/bin/env node
// dist/ as `tsc -p tsconfig.json` lays it out (one .js and its .js.map per .ts of the config's
// `include`), written by esbuild without the type-check, for `npm test`: the suite starts once
// its code exists, and the type-check runs beside it (scripts/typecheck-and-lint.js --no-emit,
// then ESLint on the same program) like ESLint always has. tsc's emit was the longest step
// before the first test (30-35 s of one core on the two-core machine); this is 1-2 s.
//
// The two outputs run the same: tsconfig.json has `isolatedModules`, so the type-check refuses
// what a file-by-file compiler cannot translate alone (a re-exported type without `type`, a
// const enum across files), and esbuild reads the same tsconfig.json (ES2022 class fields,
// imports used only as types dropped). `npm run build`, `npm pack` and the Dockerfile still
// build with tsc.
//
//   node scripts/transpile.js      writes dist/ (then build-bundles.js and build-prebuilt.js)
import { buildSync } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function* sources(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // an `include` folder that does not exist holds nothing to build
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Writes every source's .js and .js.map under the config's outDir; answers how many files it compiled. */
export function transpile() {
  const tsconfig = join(root, 'tsconfig.json');
  const config = JSON.parse(readFileSync(tsconfig, 'utf8'));
  const entryPoints = config.include.flatMap((dir) => [...sources(join(root, dir))]);
  buildSync({
    entryPoints,
    outdir: join(root, config.compilerOptions.outDir),
    outbase: root,
    tsconfig,
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  });
  return entryPoints.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const count = transpile();
  process.stderr.write(`build: ${count} files transpiled in ${Math.round(performance.now() - started)} ms\n`);
}
