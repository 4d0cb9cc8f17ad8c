#!/usr/bin/env node
// `npm test`'s checks: the build (emit, bundles, prebuilt validators), Prettier's check, and
// tsc's type-check. The build writes dist/ from the sources alone (scripts/emit.js: esbuild, one
// file each) and the type-check reads only the sources, so they run side by side: the build
// and Prettier's check end in about 10 s and the suite starts then, while the type-check
// (scripts/typecheck-and-lint.js, 30-40 s of one core) goes on beside it. Any failure fails
// `npm test`: a failed build or format check before a test runs, a failed type-check as soon as
// it is known (scripts/test-suite.js stops the suite and counts it as one failing).
//
// For `npm test` (scripts/test-suite.js --checks) the type-check's process then goes on with
// ESLint on the program it has just checked, at the lowest CPU priority (scripts/lint-beside.js):
// one program for both instead of two, 41 s of CPU fewer.
//
// Not cached: ESLint's cache keys a file's result on that file alone, while the type-checked
// rules read the types of the files it imports (a stale pass would slip through), and a clean
// clone, what CI runs, has no cache to reuse anyway.
//
//   node scripts/checks.js      the checks alone (what `npm test` runs with its suite), no ESLint
import { fork, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintAttached } from './lint-beside.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs one command; answers its exit code, its output appended to `out`. */
const run = (args, out) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('close', (code) => resolve(code));
  });

/**
 * The type-check of typecheck-and-lint.js, started now: `checked` resolves with `{ ok, output }`
 * once tsc's diagnostics are in (or the process ended without them); with `lint`, `linting` is
 * the handle of ESLint that goes on in the same process; `stop` ends it.
 */
function typecheck(lint) {
  const child = fork(join(root, 'scripts/typecheck-and-lint.js'), lint ? ['--lint'] : [], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  // What it prints before it reports (a crash): lintAttached collects what comes after.
  const early = [];
  const keep = (c) => early.push(c);
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const started = Date.now();
  const checked = new Promise((resolve) => {
    const settle = (result) => {
      child.stdout.off('data', keep);
      child.stderr.off('data', keep);
      resolve({ ...result, seconds: Math.round((Date.now() - started) / 1000) });
    };
    child.on('message', (m) => {
      if (m.type === 'checked') settle({ ok: m.ok, output: m.output });
    });
    child.on('close', (code, signal) =>
      settle({ ok: false, output: `${Buffer.concat(early).toString('utf8')}\nthe type-check ended without a result (exit ${code ?? signal})` }),
    );
  });
  return { checked, linting: lint ? lintAttached(child) : undefined, stop: () => child.kill('SIGTERM') };
}

/**
 * Runs the checks. Answers once the build and the format check are over: whether they passed,
 * `checked` (the type-check's result to come: `{ ok, output, seconds }`), and, with `lint`,
 * ESLint's run beside whatever comes next (lint-beside.js's handle: `done`, `pause`,
 * `resume`, `hurry`, `stop`).
 */
export async function runChecks({ lint = false } = {}) {
  const typechecking = typecheck(lint);
  const steps = [
    {
      name: 'build (emit; build-bundles with the test fixtures; build-prebuilt)',
      commands: [
        (out) => run([join(root, 'scripts/emit.js')], out),
        (out) => run([join(root, 'scripts/build-bundles.js'), '--fixtures'], out),
        (out) => run([join(root, 'scripts/build-prebuilt.js')], out),
      ],
    },
    // Files found formatted before, unchanged since, are not checked again (scripts/format-check.js).
    { name: 'format (prettier --check)', commands: [(out) => run([join(root, 'scripts/format-check.js')], out)] },
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
      console.log(`pretest: ${step.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
      if (text) console.log(text);
      return code === 0;
    }),
  );
  console.log(`pretest: ${((Date.now() - started) / 1000).toFixed(0)} s (the type-check goes on beside the suite)`);
  const ok = results.every(Boolean);
  if (!ok) typechecking.stop();
  return { ok, checked: typechecking.checked, linting: ok ? typechecking.linting : undefined };
}

/** How a finished type-check is reported, by `npm test` and by this script alone. */
export function describeTypecheck({ ok, output, seconds }) {
  return `type-check (tsc --noEmit): ${ok ? 'ok' : 'FAILED'} in ${seconds} s${output ? `\n${output}` : ''}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ok, checked } = await runChecks();
  // A failed build stopped the type-check: its result would only say it was stopped.
  if (!ok) process.exit(1);
  const typechecked = await checked;
  console.log(`pretest: ${describeTypecheck(typechecked)}`);
  process.exit(typechecked.ok ? 0 : 1);
}
