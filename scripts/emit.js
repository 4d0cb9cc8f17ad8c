#!/usr/bin/env node
// The build's emit: every TypeScript source tsconfig.json includes, written to its outDir as
// JavaScript, one file and its source map each, by esbuild. The type-check is tsc's
// (`tsc --noEmit`, scripts/typecheck-and-lint.js), on its own.
//
// Why not tsc's emit: tsc emits only after it has checked the whole program (its emitter asks
// the checker about every file first; `--noCheck` makes the emitter check lazily, as long
// again), so dist/ was written 35-50 s into a build on the two-core machine, and `npm test`
// started no test before then. esbuild writes the same files in about 1.5 s, so the suite
// starts while tsc checks beside it. What makes a per-file emit the same program as tsc's:
// `isolatedModules` in tsconfig.json, which has tsc refuse what only a whole-program emit
// gets right (a re-exported type without `export type`, an ambient const enum). The one
// difference left is speed, not meaning: a const enum used in another file is read from its
// object instead of inlined (docs/decisions.md, "The build's emit by esbuild, tsc's check
// beside it").
//
//   node scripts/emit.js     writes dist/ (or tsconfig's outDir) from the sources
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * tsconfig.json's settings the emit follows, and the sources tsc would compile: every `.ts`
 * (not `.d.ts`) under an `include` folder, node_modules left out, as tsc finds them.
 */
export function typescriptProject(root) {
  const path = join(root, 'tsconfig.json');
  const config = JSON.parse(readFileSync(path, 'utf8'));
  const options = config.compilerOptions ?? {};
  const files = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an `include` folder that does not exist holds nothing to build
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules') continue;
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(file);
    }
  };
  for (const dir of config.include ?? []) walk(join(root, dir));
  return {
    tsconfig: path,
    rootDir: join(root, options.rootDir ?? '.'),
    outDir: join(root, options.outDir ?? '.'),
    target: options.target ?? 'ES2022',
    sourceMap: options.sourceMap === true,
    files,
  };
}

/** Writes every source's JavaScript; answers how many files, or throws esbuild's errors (file, line, what). */
export async function emit(root) {
  const project = typescriptProject(root);
  await build({
    entryPoints: project.files,
    outdir: project.outDir,
    outbase: project.rootDir,
    // The package is "type": "module": every source is an ES module, as tsc's NodeNext emits it.
    format: 'esm',
    platform: 'node',
    target: project.target.toLowerCase(),
    sourcemap: project.sourceMap,
    // useDefineForClassFields and the like, as tsc reads them.
    tsconfig: project.tsconfig,
    logLevel: 'silent',
  });
  return project.files.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const started = performance.now();
  try {
    const count = await emit(root);
    console.log(`build: emitted ${count} files in ${Math.round(performance.now() - started)} ms`);
  } catch (err) {
    // esbuild's failure lists each error with its file, line and column.
    const errors = err.errors ?? [];
    for (const e of errors) console.error(`${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}error: ${e.text}`);
    if (errors.length === 0) console.error(err.stack ?? String(err));
    process.exit(1);
  }
}
