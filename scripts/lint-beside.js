// ESLint for `npm test`, run beside the suite instead of before it.
//
// ESLint's type-checked rules are the longest check `npm test` makes (about 100 s of one core
// on the two-core machine, twice tsc's build), and the suite leaves CPU idle: its serial pass
// runs one file at a time, and many files wait on the processes they start. So ESLint starts
// with the suite at the lowest CPU priority there is: on Linux the idle scheduling class
// (`chrt --idle 0`: it runs only on a core nothing else wants, and any other thread that wakes
// takes the core back at once), under nice 19 elsewhere, both set before node starts so that
// every thread of it has them. It takes what the tests leave idle, and a test that measures a
// time keeps its cores, the serial pass's included: at nice 19, registration's "/health within
// 100 ms during a flood" failed 2 times in 6 beside ESLint (the suite then paused ESLint for
// that pass); in the idle class, 12 of 12 passed beside it, and ESLint took about 50 s of CPU in
// the pass's 58 s. The suite pauses it (SIGSTOP) only while it waits for the machine to quiet
// down before that pass; at the end it gives it the normal priority back (`hurry`: no test is
// left to protect, and any other load would starve it) and waits for it. A lint failure fails
// `npm test` as it did when it ran before the suite, printed whole, after the tests' own summary.
//
// `npm test` does not start one here: the type-check's process goes on as ESLint on the program it
// has just checked (scripts/typecheck-and-lint.js, lintAttached below), which puts itself in the
// idle class. lintBeside starts ESLint for a suite run without --checks.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const eslint = join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js');

/** Whether `chrt` can put a process in the idle scheduling class here (Linux with util-linux). */
function idleClass() {
  return process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true']).status === 0;
}

/**
 * What the suite holds of a lint process: `done`, which resolves with
 * `{ ok, seconds, pausedSeconds, output }` once `result` does; `pause()` and `resume()` around a
 * measurement of how busy the machine is; `hurry()` once the tests are over; `stop()` for a
 * suite that was interrupted.
 */
function lintHandle(child, result) {
  const started = Date.now();
  let ended = false;
  let pausedAt;
  let pausedMs = 0;
  const done = result.then(({ ok, output }) => {
    ended = true;
    return { ok, seconds: Math.round((Date.now() - started) / 1000), pausedSeconds: Math.round(pausedMs / 1000), output: output.trimEnd() };
  });
  // A stopped process stops every thread of it.
  const pause = () => {
    if (ended || pausedAt !== undefined || process.platform === 'win32') return;
    pausedAt = Date.now();
    child.kill('SIGSTOP');
  };
  const resume = () => {
    if (pausedAt === undefined) return;
    pausedMs += Date.now() - pausedAt;
    pausedAt = undefined;
    child.kill('SIGCONT');
  };
  // A stopped process acts on SIGTERM only once continued.
  const stop = () => {
    child.kill('SIGTERM');
    resume();
  };
  // The tests are over and nothing of the suite needs a core: in the idle class any other load
  // on the machine would starve ESLint (two busy loops beside the suite held it 7m43s past the
  // passes), so every thread of it goes back to the normal class and nice 0, where permitted.
  const hurry = () => {
    if (ended || process.platform !== 'linux' || child.pid === undefined) return;
    spawnSync('chrt', ['--all-tasks', '--other', '-p', '0', String(child.pid)], { stdio: 'ignore' });
    let threads = [String(child.pid)];
    try {
      threads = readdirSync(`/proc/${child.pid}/task`);
    } catch {
      // Gone already, or no /proc: the process itself is enough.
    }
    for (const tid of threads) {
      try {
        setPriority(Number(tid), 0);
      } catch {
        // Not permitted (raising a priority needs CAP_SYS_NICE or RLIMIT_NICE): it keeps the one it has.
      }
    }
  };
  return { done, pause, resume, stop, hurry };
}

/** Starts `eslint .` in `root` at the lowest priority (`chrt` and `nice` exec, so the child is ESLint itself). */
export function lintBeside(root) {
  const lowest = ['nice', '-n', '19', process.execPath, eslint, '.'];
  const [command, ...args] = process.platform === 'win32' ? [process.execPath, eslint, '.'] : idleClass() ? ['chrt', '--idle', '0', ...lowest] : lowest;
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => out.push(c));
  const result = new Promise((resolve) => {
    const text = (extra = '') => Buffer.concat(out).toString('utf8') + extra;
    child.on('error', (err) => resolve({ ok: false, output: text(`\ncould not start ESLint: ${err.message}`) }));
    child.on('close', (code, signal) => resolve({ ok: code === 0, output: text(code === 0 ? '' : `\nESLint exited with ${code ?? signal}`) }));
  });
  return lintHandle(child, result);
}

/**
 * ESLint already running in `child`, scripts/typecheck-and-lint.js after its check: it lowered
 * its own priority as lintBeside's ESLint starts with, and reports `{ type: 'linted', ok, output }`.
 */
export function lintAttached(child) {
  const out = [];
  child.stdout?.on('data', (c) => out.push(c));
  child.stderr?.on('data', (c) => out.push(c));
  let linted;
  child.on('message', (m) => {
    if (m.type === 'linted') linted = m;
  });
  const result = new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const printed = Buffer.concat(out).toString('utf8');
      if (linted) resolve({ ok: linted.ok && code === 0, output: `${linted.output}${linted.ok ? '' : printed}` });
      else resolve({ ok: false, output: `${printed}\nESLint ended without a result (exit ${code ?? signal})` });
    });
  });
  return lintHandle(child, result);
}
