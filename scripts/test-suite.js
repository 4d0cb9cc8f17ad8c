#!/usr/bin/env node
// `npm test`'s suite in three mocha passes, so that it keeps its ten-minute budget as it grows.
//
// Most test files spend their time waiting on child processes (Switchboard, MCP servers,
// redis-server, HAProxy) and the network, not on the CPU: they run in parallel mocha workers
// (`--parallel`, one file at a time per worker). The files listed in SERIAL assert timings
// (a /health answer within 100 ms during a flood, a rate within ±10 %, a duration); they run
// afterwards in one serial pass, alone, as the whole suite used to. The files in PAIRED assert
// a duration too but mostly wait on a clock: they run last, two at a time. CONTRIBUTING.md
// says why each file is where it is; a file is moved out of the parallel pass on a measurement
// (it fails under parallel load and its assertion is about time), never to hide a race that
// waiting on a condition would fix.
//
// With --checks (`npm test`), the build and Prettier's check run first (scripts/checks.js) and
// a failure ends the run before a test; tsc's type-check starts with them and goes on beside
// the first pass: when it fails, the suite stops there and counts it as one failing. Every pass
// otherwise always runs; the exit status fails when any failed. ESLint runs beside the passes
// at the lowest CPU priority (scripts/lint-beside.js: the idle scheduling class on Linux, which
// leaves the serial pass's latencies alone), with --checks in the type-check's own process, on
// the program it checked; a lint failure counts as one failing. The official MCP conformance
// suite's runs (scripts/conformance-beside.js) start with the paired pass, at nice 19; each
// scenario counts as one test.
// The last line is the sum: `suite: N passing, N failing, N pending`, which .ci/run reads.
//
// SWITCHBOARD_TEST_JOBS sets the parallel pass's worker count (default below). Extra arguments
// go to every pass (`npm test -- --grep cluster`) and leave out the conformance runs, as does
// SWITCHBOARD_SKIP_CONFORMANCE=1.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTypecheck, runChecks } from './checks.js';
import { conformanceBeside, stopConformance } from './conformance-beside.js';
import { lintBeside } from './lint-beside.js';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const MOCHA = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');

// Files run alone after the parallel pass (paths of their sources, without .test.ts).
const SERIAL = [
  // A /health answer within 100 ms while the server is flooded: a latency bound.
  'test/security/health-under-load',
  'test/security/batches',
  'test/security/template-explosion',
  'test/security/registration',
  // A rate limit held within ±10 % across three replicas: a rate measured in wall time.
  'test/e2e/cluster-oauth',
  // Measured failing beside four workers, on a time: a cached session's Redis keys still live
  // after 1,000 calls (expired: 66 round trips where 3 are allowed). (value-budget,
  // template-adversarial and reference-records left this list: they now hold a rendering to its
  // CPU time, and accept whichever template limit trips first, so load cannot fail them; passed
  // 4 times at load 23-31.)
  'test/e2e/cluster-sessions',
  // A workflow file's edit must show in describe_tool within 1 s (failed beside four workers).
  'test/workflows/engine',
  // /health within 100 ms while a code-mode script busy-loops to its CPU budget.
  'test/e2e/code-mode',
];

// Files that assert a time but spend most of theirs waiting on a clock (a liveness period, a
// proxy's timeout): too sensitive for four workers, idle enough to share the two cores with each
// other. They run last, two at a time: 35 s together against 64 s one after the other.
const PAIRED = [
  // Calls in flight to a replica paused with SIGSTOP must end within the server timeout + 5 s
  // (9 s of CPU in 32 s: the rest waits out the 15 s liveness period and HAProxy's timeout).
  'test/e2e/cluster-paused-replica',
  // A status Lease taken over within 29-45 s (failed at 62.8 s beside four workers).
  'test/e2e/kubernetes',
];

// The slowest files of the parallel pass (each starts several processes: replicas, redis-server,
// HAProxy, a kube-apiserver), started early so that none of them starts last and leaves the
// other workers idle, but one in two files only: all of them at once made a start-up storm
// that timed out on a loaded machine. Kinds alternate for the same reason.
const SLOW_FIRST = [
  'test/e2e/kubernetes-replicas',
  'test/e2e/cluster-shared-keys',
  'test/e2e/cli-client',
  'test/e2e/newcomer',
  'test/e2e/kubernetes-writes-as-caller',
  'test/e2e/cluster-subscriptions',
  'test/e2e/third-party-package',
  'test/e2e/kubernetes-deploy',
  'test/e2e/cluster-tasks-dead-replica',
  'test/e2e/cluster-redis-restart',
  // One Switchboard, but 20,000 registrations (30 s of CPU): started late it would end last.
  'test/security/registration-flood',
];

// Waiting dominates, so more workers than cores pay: on the quiet two-core machine six ran the
// pass in 7m22s and 7m34s against 7m45s-8m21s with four, every test passing. On two cores that
// other work already loaded (load 20), six timed start-ups out by the dozen: set fewer there
// (CONTRIBUTING.md has the figures).
const DEFAULT_JOBS = 6;

// `npm test` passes --checks: the build and Prettier's check first (scripts/checks.js), with
// the type-check beside them and then beside the suite, and ESLint then goes on in the
// type-check's process, on the program it has just checked. Without it (a run after a build of
// one's own), ESLint starts here.
const withChecks = process.argv.includes('--checks');
let checkedLint;
let typecheck;
if (withChecks) {
  const checked = await runChecks({ lint: true });
  if (!checked.ok) process.exit(1);
  checkedLint = checked.linting;
  // A program that does not type-check is not worth the rest of the suite's ten minutes.
  typecheck = checked.checked.then((result) => {
    if (!result.ok) {
      console.log(`\nsuite: ${describeTypecheck(result)}`);
      if (stopSuite()) console.log('suite: stopping the suite');
    }
    return result;
  });
}

const config = JSON.parse(readFileSync(join(root, '.mocharc.json'), 'utf8'));
const jobs = Number(process.env.SWITCHBOARD_TEST_JOBS ?? DEFAULT_JOBS);
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`SWITCHBOARD_TEST_JOBS must be a whole number of at least 1, got '${process.env.SWITCHBOARD_TEST_JOBS}'`);
  process.exit(2);
}

/** The compiled test files, as the spec globs of .mocharc.json name them (dist/.../*.test.js). */
function testFiles() {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.test.js')) found.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(join(root, 'dist', 'test'));
  for (const pkg of readdirSync(join(root, 'dist', 'packages'), { withFileTypes: true })) {
    if (pkg.isDirectory()) walk(join(root, 'dist', 'packages', pkg.name, 'test'));
  }
  return found.sort();
}

const compiled = (source) => `dist/${source}.test.js`;
const all = testFiles();
const missing = [...SERIAL, ...PAIRED, ...SLOW_FIRST].map(compiled).filter((f) => !all.includes(f));
if (missing.length > 0) {
  // A renamed or deleted file must not silently move to (or vanish from) a pass.
  console.error(`scripts/test-suite.js names test files that do not exist: ${missing.join(', ')}`);
  process.exit(2);
}
const serial = SERIAL.map(compiled);
const paired = PAIRED.map(compiled);
const slow = SLOW_FIRST.map(compiled);
const rest = all.filter((f) => !serial.includes(f) && !paired.includes(f) && !slow.includes(f));
const parallel = [...slow.flatMap((f, i) => (rest[i] ? [f, rest[i]] : [f])), ...rest.slice(slow.length)];
const extra = process.argv.slice(2).filter((a) => a !== '--checks');
const common = ['--no-config', '--timeout', String(config.timeout), '--reporter', config.reporter, '--exit', ...extra];

/** The pass running now, for stopSuite. */
let running;

/** Runs one pass, its output passed through; resolves with its counts and what it skipped. */
function pass(name, args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MOCHA, ...common, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    running = child;
    // Stopped (Ctrl-C, a CI timeout): mocha stops its workers, which stop what they started.
    const forward = (signal) => {
      stopped = true;
      child.kill(signal);
    };
    process.on('SIGINT', forward).on('SIGTERM', forward);
    child.on('close', () => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      running = undefined;
    });
    const counts = { passing: undefined, failing: 0, pending: 0 };
    const skipped = new Set();
    const scan = (text) => {
      for (const line of text.split('\n')) {
        const m = /^\s+(\d+) (passing|failing|pending)\b/.exec(line);
        if (m) counts[m[2]] = Number(m[1]);
        // startRedisOrSkip, the HAProxy and browser checks print why they skip a suite.
        const s = /^skipped: (.+)$/.exec(line.trim());
        if (s) skipped.add(s[1]);
      }
    };
    // Lines are scanned whole: a chunk may end mid-line.
    const relay = (stream, out) => {
      let rest = '';
      stream.on('data', (chunk) => {
        out.write(chunk);
        const text = rest + chunk.toString('utf8');
        const cut = text.lastIndexOf('\n');
        scan(text.slice(0, cut + 1));
        rest = text.slice(cut + 1);
      });
      stream.on('end', () => scan(rest));
    };
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      // No summary at all (mocha crashed, a worker died): the pass failed without saying how much.
      const failed = code !== 0 || counts.passing === undefined;
      if (failed && counts.failing === 0) counts.failing = 1;
      resolve({ name, seconds, code: code ?? signal, passing: counts.passing ?? 0, failing: counts.failing, pending: counts.pending, skipped, failed });
    });
  });
}

/** The share of the machine's CPU time not idle over `ms`, from /proc/stat; undefined off Linux. */
async function busyShare(ms) {
  const sample = () => {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
  };
  let a;
  try {
    a = sample();
  } catch {
    return undefined;
  }
  await new Promise((r) => setTimeout(r, ms));
  const b = sample();
  return b.total > a.total ? 1 - (b.idle - a.idle) / (b.total - a.total) : 0;
}

/**
 * The serial pass asserts latencies and must have the machine alone: what the parallel pass
 * started and has not finished ending (servers in their shutdown grace, processes a test left
 * behind) would be measured as the gateway's delay. Waits, at most QUIET_WAIT_S, until the
 * machine is less than a quarter busy twice in a row, and says how long that took.
 */
const QUIET_WAIT_S = 30;
async function untilQuiet() {
  const started = Date.now();
  let quiet = 0;
  let share = 0;
  while (quiet < 2 && Date.now() - started < QUIET_WAIT_S * 1000) {
    share = await busyShare(500);
    if (share === undefined) return;
    quiet = share < 0.25 ? quiet + 1 : 0;
  }
  const waited = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`suite: before the serial pass, waited ${waited} s for the machine to quiet down (${Math.round(share * 100)} % busy at the end)`);
}

let stopped = false;
/**
 * Ends the pass running (mocha stops its workers, which stop what they started) and starts no
 * other; answers whether a pass was running.
 */
function stopSuite() {
  stopped = true;
  return running?.kill('SIGTERM') ?? false;
}
const lint = checkedLint ?? lintBeside(root);
process.on('SIGINT', lint.stop).on('SIGTERM', lint.stop);
process.on('SIGINT', stopConformance).on('SIGTERM', stopConformance);
const minutes = (s) => `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
const started = Date.now();
const results = [];
if (parallel.length > 0)
  results.push(await pass(`parallel pass (${jobs} jobs, ${parallel.length} files)`, ['--parallel', '--jobs', String(jobs), ...parallel]));
if (serial.length > 0 && !stopped) {
  // ESLint, idle class, stays beside the pass (lint-beside.js), but it would count as busy.
  lint.pause();
  await untilQuiet();
  lint.resume();
  results.push(await pass(`serial pass (${serial.length} files)`, serial));
}
// The conformance runs begin beside the paired pass (not before: the serial pass must be alone).
const skipConformance = process.env.SWITCHBOARD_SKIP_CONFORMANCE === '1';
const conformance = !stopped && extra.length === 0 && !skipConformance ? conformanceBeside(root) : undefined;
if (paired.length > 0 && !stopped) results.push(await pass(`paired pass (2 jobs, ${paired.length} files)`, ['--parallel', '--jobs', '2', ...paired]));
const conformed = await conformance;

const passesEnded = Date.now();
lint.hurry();
const linted = await lint.done;
// Without --checks there is none; a failed one was printed whole when it failed, and ran no lint.
const typechecked = await typecheck;
const typeFailed = typechecked !== undefined && !typechecked.ok;
const lintFailed = !typeFailed && !linted.ok;
console.log('');
if (typechecked) console.log(`suite: ${describeTypecheck({ ...typechecked, output: '' })}`);
if (typeFailed) console.log('suite: lint (eslint): not run, the type-check failed');
else {
  console.log(
    `suite: lint (eslint, beside the passes): ${linted.ok ? 'ok' : 'FAILED'} in ${minutes(linted.seconds)} (paused ${minutes(linted.pausedSeconds)} while the suite waited for a quiet machine), waited ${minutes(Math.round((Date.now() - passesEnded) / 1000))} after the passes`,
  );
  if (!linted.ok || linted.output) console.log(linted.output);
}
if (conformed) {
  for (const line of conformed.lines) console.log(line);
  results.push({
    name: 'conformance (the official MCP suite, beside the paired pass)',
    seconds: conformed.seconds,
    passing: conformed.passed,
    failing: conformed.failed,
    pending: 0,
    skipped: new Set(conformed.skipped),
    failed: conformed.failed > 0,
  });
}
for (const r of results) console.log(`suite: ${r.name}: ${r.passing} passing, ${r.failing} failing, ${r.pending} pending in ${minutes(r.seconds)}`);
const skipped = new Set(results.flatMap((r) => [...r.skipped]));
if (skipConformance) skipped.add('the official MCP conformance suite (SWITCHBOARD_SKIP_CONFORMANCE=1)');
for (const s of skipped) console.log(`suite: skipped: ${s}`);
const sum = (k) => results.reduce((n, r) => n + r[k], 0);
console.log(
  `suite: ${sum('passing')} passing, ${sum('failing') + (typeFailed ? 1 : 0) + (lintFailed ? 1 : 0)} failing, ${sum('pending')} pending in ${minutes(Math.round((Date.now() - started) / 1000))}`,
);
process.exit(results.some((r) => r.failed) || typeFailed || lintFailed ? 1 : 0);
