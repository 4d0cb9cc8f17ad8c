#!/usr/bin/env node
// What each test file costs in CPU, itself and every process it started (Switchboards, fixture
// servers, redis-server, an API server...): each file run alone by mocha, JOBS at a time, its
// CPU read from the shell's `times` (user and system time of the children it waited for).
// The suite is CPU-bound on two cores, so this, not wall time, says where its minutes go.
// A measurement for people, not part of `npm test`; run it after a build (`npm run build` and
// `node scripts/build-bundles.js --fixtures`) on a machine doing nothing else.
//
//   node scripts/cpu-per-file.js [--jobs N] [SUBSTRING...]   only files whose path holds one
//
// Prints one line per file, most CPU first: CPU seconds, the running sum, wall seconds, the
// path, and FAILED for a file that did not pass (its CPU still counts). A whole suite takes
// about as long as the CPU it measures divided by JOBS (two: about ten minutes here).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const MOCHA = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');

const args = process.argv.slice(2);
let jobs = 2;
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--jobs') jobs = Number(args[++i]);
  else filters.push(args[i]);
}
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error('--jobs takes a whole number of at least 1');
  process.exit(2);
}

/** The compiled test files under `dir` (the spec globs of .mocharc.json: dist/test, dist/packages/NAME/test). */
function* testFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* testFiles(path);
    else if (e.name.endsWith('.test.js')) yield path;
  }
}

const packages = readdirSync(join(root, 'dist', 'packages'), { withFileTypes: true }).filter((e) => e.isDirectory());
const files = [...testFiles(join(root, 'dist', 'test')), ...packages.flatMap((p) => [...testFiles(join(root, 'dist', 'packages', p.name, 'test'))])]
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no compiled test file matches: build first (npm run build), or check the substrings');
  process.exit(2);
}

/** `12m3.456s` (bash's `times`) in seconds. */
const seconds = (t) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
};

/** One file alone: its CPU with its children's, its wall time, whether it passed. */
function measure(file) {
  const started = performance.now();
  // `times` prints the shell's own times, then its children's: mocha and all it waited for.
  const script = `node "$0" --no-config --exit --timeout 120000 --reporter dot "$1" >/dev/null 2>&1; echo "status $?"; times`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script, MOCHA, file], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('close', () => {
      const lines = out.trim().split('\n');
      const [user, sys] = (lines.at(-1) ?? '').split(' ').map(seconds);
      resolve({ file, cpu: user + sys, wall: (performance.now() - started) / 1000, passed: lines.includes('status 0') });
    });
  });
}

const results = [];
let next = 0;
const worker = async () => {
  while (next < files.length) {
    const r = await measure(files[next++]);
    results.push(r);
    process.stderr.write(`\r${results.length}/${files.length} files measured`);
  }
};
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
process.stderr.write('\n');

results.sort((a, b) => b.cpu - a.cpu);
let sum = 0;
for (const r of results) {
  sum += r.cpu;
  console.log(`${r.cpu.toFixed(2).padStart(8)} ${sum.toFixed(1).padStart(8)} ${r.wall.toFixed(1).padStart(7)}  ${r.file}${r.passed ? '' : '  FAILED'}`);
}
console.log(`${results.length} files, ${sum.toFixed(1)} s of CPU (each file alone: a worker of the parallel pass loads mocha and the SDK once for many)`);
