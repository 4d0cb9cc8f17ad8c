#!/usr/bin/env node
// `npm test`'s checks before the suite: the build (tsc, which type-checks every file as it
// emits: a separate `tsc --noEmit` first checked the same program twice) and Prettier's check.
// They read the sources and nothing of each other, and each uses one core: they run side by
// side, their output printed whole, one after the other, once each ends. Any failure fails
// `npm test` before a test runs. ESLint, the longest check, runs beside the suite at the lowest
// CPU priority instead (scripts/lint-beside.js, started by scripts/test-suite.js).
//
// Not cached: ESLint's cache keys a file's result on that file alone, while the type-checked
// rules read the types of the files it imports (a stale pass would slip through), and a clean
// clone, what CI runs, has no cache to reuse anyway. tsc stays a full build (docs/decisions.md).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const bin = (pkg, path) => join(dirname(require.resolve(`${pkg}/package.json`)), path);

// A step is one or more commands run one after the other (scripts/build-bundles.js bundles the
// MCP SDK and the most-started test fixtures; scripts/build-prebuilt.js computes from tsc's
// output what a start would otherwise compute).
const steps = [
  {
    name: 'build (tsc: type-check and emit; build-bundles with the test fixtures; build-prebuilt)',
    commands: [
      [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json'],
      [join(root, 'scripts/build-bundles.js'), '--fixtures'],
      [join(root, 'scripts/build-prebuilt.js')],
    ],
  },
  { name: 'format (prettier --check)', commands: [[bin('prettier', 'bin/prettier.cjs'), '--check', '**/*.{ts,js}']] },
];

/** Runs one command; answers its exit code, its output appended to `out`. */
const run = (args, out) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('close', (code) => resolve(code));
  });

const started = Date.now();
const results = await Promise.all(
  steps.map(async (step) => {
    const t0 = Date.now();
    const out = [];
    let code = 0;
    for (const args of step.commands) if ((code = await run(args, out)) !== 0) break;
    const text = Buffer.concat(out).toString('utf8').trimEnd();
    const seconds = ((Date.now() - t0) / 1000).toFixed(0);
    console.log(`pretest: ${step.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
    if (text) console.log(text);
    return code === 0;
  }),
);
console.log(`pretest: ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(results.every(Boolean) ? 0 : 1);
