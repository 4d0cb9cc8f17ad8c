#!/usr/bin/env node
// `npm test`'s checks before the suite: the build (type-check and emit; the bundles; the
// prebuilt validators) and Prettier's check. They read the sources and nothing of each other,
// and each uses about one core: they run side by side, their output printed whole, one after
// the other, once each ends. Any failure fails `npm test` before a test runs.
//
// The build's type-check is scripts/typecheck-and-lint.js, which checks and emits as
// `tsc -p tsconfig.json` does. For `npm test` (scripts/test-suite.js --checks) the same process
// then goes on, once dist/ is written, with ESLint on the program it has just checked, beside
// the suite at the lowest CPU priority (scripts/lint-beside.js): one program for both instead of
// two, 41 s of CPU fewer.
//
// Not cached: ESLint's cache keys a file's result on that file alone, while the type-checked
// rules read the types of the files it imports (a stale pass would slip through), and a clean
// clone, what CI runs, has no cache to reuse anyway.
//
//   node scripts/checks.js      the checks alone (what `npm test` runs before its suite), no ESLint
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
 * The type-check and emit of typecheck-and-lint.js; answers its exit code once dist/ is
 * written (or it failed), and, with `lint`, the process that goes on linting.
 */
const typecheck = (lint, out) =>
  new Promise((resolve) => {
    const child = fork(join(root, 'scripts/typecheck-and-lint.js'), lint ? ['--lint'] : [], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    // What it prints before it reports (a crash): lintAttached collects what comes after.
    const early = [];
    const keep = (c) => early.push(c);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let built = false;
    child.on('message', (m) => {
      if (m.type !== 'built' || built) return;
      built = true;
      child.stdout.off('data', keep);
      child.stderr.off('data', keep);
      if (m.output) out.push(Buffer.from(`${m.output}\n`));
      resolve({ code: m.ok ? 0 : 2, linting: m.ok && lint ? lintAttached(child) : undefined });
    });
    child.on('close', (code) => {
      if (built) return;
      out.push(...early);
      resolve({ code: code || 1, linting: undefined });
    });
  });

/**
 * Runs the checks; answers whether they passed and, with `lint`, ESLint's run beside whatever
 * comes next (lint-beside.js's handle: `done`, `pause`, `resume`, `stop`).
 */
export async function runChecks({ lint = false } = {}) {
  let linting;
  const steps = [
    {
      name: 'build (type-check and emit; build-bundles with the test fixtures; build-prebuilt)',
      commands: [
        async (out) => {
          const r = await typecheck(lint, out);
          linting = r.linting;
          return r.code;
        },
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
  console.log(`pretest: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const ok = results.every(Boolean);
  if (!ok) linting?.stop();
  return { ok, linting: ok ? linting : undefined };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ok } = await runChecks();
  process.exit(ok ? 0 : 1);
}
