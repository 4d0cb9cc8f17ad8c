// ESLint for `npm test`, run beside the suite instead of before it.
//
// ESLint's type-checked rules are the longest check `npm test` makes (about 110 s of one core
// on the two-core machine, twice tsc's build), and the suite leaves CPU idle: its serial pass
// runs one file at a time, and many files wait on the processes they start. So ESLint starts
// with the suite at the lowest CPU priority (nice 19, set before node starts so that every
// thread of it has it): it takes what the tests leave idle, and a test that measures a time
// keeps its cores. Not the serial pass's, though: those files assert latencies (/health within
// 100 ms during a flood): registration's failed 2 times in 6 with ESLint beside it even at
// nice 19, none in 4 without. So the suite pauses ESLint (SIGSTOP) for that pass and lets it go
// on after (SIGCONT), beside the paired pass. The suite waits for it at the end; a lint failure fails
// `npm test` as it did when it ran before the suite, printed whole, after the tests' own summary.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const eslint = join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js');

/**
 * Starts `eslint .` in `root` at the lowest priority. Answers `done`, which resolves with
 * `{ ok, seconds, pausedSeconds, output }` once it ends; `pause()` and `resume()` around a pass
 * that must have the machine alone; `stop()` for a suite that was interrupted.
 */
export function lintBeside(root) {
  const started = Date.now();
  const [command, args] = process.platform === 'win32' ? [process.execPath, [eslint, '.']] : ['nice', ['-n', '19', process.execPath, eslint, '.']];
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => out.push(c));
  let ended = false;
  let pausedAt;
  let pausedMs = 0;
  const done = new Promise((resolve) => {
    const end = (ok, extra = '') => {
      ended = true;
      resolve({
        ok,
        seconds: Math.round((Date.now() - started) / 1000),
        pausedSeconds: Math.round(pausedMs / 1000),
        output: (Buffer.concat(out).toString('utf8') + extra).trimEnd(),
      });
    };
    child.on('error', (err) => end(false, `\ncould not start ESLint: ${err.message}`));
    child.on('close', (code, signal) => end(code === 0, code === 0 ? '' : `\nESLint exited with ${code ?? signal}`));
  });
  // `nice` execs node, so the child is ESLint itself; a stopped process stops every thread of it.
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
  return { done, pause, resume, stop };
}
