#!/usr/bin/env node
// The checks `npm test` makes besides its tests, and the build they need.
//
// `npm test` (scripts/test-suite.js --checks) runs runSuiteChecks: dist/ written by esbuild
// without the type-check (scripts/transpile.js, 1-2 s), then the bundles and the prebuilt
// validators, and the suite starts; the type-check (scripts/typecheck-and-lint.js --no-emit,
// which then runs ESLint on the program it has just checked: one program for both instead of
// two, 41 s of CPU fewer) and Prettier's check run beside the suite at the lowest CPU priority
// (scripts/lint-beside.js) and are reported after it, each failure counted as one failing. tsc's
// emit before the first test was 35-40 s of wall, one core, while Prettier's check took the
// other (docs/decisions.md, "The type-check beside the suite").
//
// runChecks is the same checks one after the other, as a build does them: tsc's type-check and
// emit, the bundles, the prebuilt files, and Prettier's check beside them (each uses about one
// core); any failure fails it.
//
// Not cached: ESLint's cache keys a file's result on that file alone, while the type-checked
// rules read the types of the files it imports (a stale pass would slip through), and a clean
// clone, what CI runs, has no cache to reuse anyway.
//
//   node scripts/checks.js      runChecks (`npm run checks`): the build and Prettier's check, no ESLint
import { fork, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atLowestPriority, lintAttached } from './lint-beside.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const bin = (pkg, path) => join(dirname(require.resolve(`${pkg}/package.json`)), path);

/** Runs one command; answers its exit code, its output appended to `out`. */
const run = (args, out) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('close', (code) => resolve(code));
  });

/** tsc's type-check and emit (typecheck-and-lint.js, no ESLint); answers its exit code. */
const typecheck = (out) => run([join(root, 'scripts/typecheck-and-lint.js')], out);

/** Runs the checks as a build does (the header says which); answers whether they passed. */
export async function runChecks() {
  const steps = [
    {
      name: 'build (type-check and emit; build-bundles with the test fixtures; build-prebuilt)',
      commands: [
        typecheck,
        (out) => run([join(root, 'scripts/build-bundles.js'), '--fixtures'], out),
        (out) => run([join(root, 'scripts/build-prebuilt.js')], out),
      ],
    },
    { name: 'format (prettier --check)', commands: [(out) => run([bin('prettier', 'bin/prettier.cjs'), '--check', '**/*.{ts,js}'], out)] },
  ];
  const started = Date.now();
  const results = await Promise.all(
    steps.map(async (step) => {
      const t0 = Date.now();
      const out = [];
      let code = 0;
      for (const command of step.commands) if ((code = await command(out)) !== 0) break;
      const text = Buffer.concat(out).toString('utf8').trimEnd();
      const seconds = ((Date.now() - t0) / 1000).toFixed(0);
      console.log(`checks: ${step.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
      if (text) console.log(text);
      return code === 0;
    }),
  );
  console.log(`checks: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return results.every(Boolean);
}

/** The steps that make dist/ without tsc, for the suite (transpile.js's header says why). */
const fastBuild = [
  (out) => run([join(root, 'scripts/transpile.js')], out),
  (out) => run([join(root, 'scripts/build-bundles.js'), '--fixtures'], out),
  (out) => run([join(root, 'scripts/build-prebuilt.js')], out),
];

/**
 * `npm test`'s checks: starts the type-check (with ESLint after it) and Prettier's check beside
 * the suite, makes dist/, and answers whether it was made, with the two checks under way
 * (lint-beside.js's handles: `done`, `pause`, `resume`, `stop`), each with its name.
 */
export async function runSuiteChecks() {
  const checker = fork(join(root, 'scripts/typecheck-and-lint.js'), ['--no-emit', '--lint'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const beside = [
    { name: 'type-check and lint (tsc, eslint)', handle: lintAttached(checker) },
    { name: 'format (prettier --check)', handle: atLowestPriority(root, [bin('prettier', 'bin/prettier.cjs'), '--check', '**/*.{ts,js}'], 'Prettier') },
  ];
  const started = Date.now();
  const out = [];
  let code = 0;
  for (const step of fastBuild) if ((code = await step(out)) !== 0) break;
  const text = Buffer.concat(out).toString('utf8').trimEnd();
  console.log(
    `pretest: build (transpile; build-bundles with the test fixtures; build-prebuilt): ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (text) console.log(text);
  if (code !== 0) for (const { handle } of beside) handle.stop();
  return { ok: code === 0, beside: code === 0 ? beside : [] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit((await runChecks()) ? 0 : 1);
}
