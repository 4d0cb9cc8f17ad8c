// ESLint for `npm test`, run beside the suite instead of before it.
//
// ESLint's type-checked rules are the longest check `npm test` makes (about 110 s of one core
// on the two-core machine, twice tsc's build), and the suite leaves CPU idle: its serial pass
// runs one file at a time, and many files wait on the processes they start. So ESLint starts
// with the suite at the lowest CPU priority (nice 19, set before node starts so that every
// thread of it has it): it takes what the tests leave idle, and a test that measures a time
// keeps its cores. The suite waits for it at the end; a lint failure fails `npm test` as it
// did when it ran before the suite, printed whole, after the tests' own summary.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const eslint = join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js');

/**
 * Starts `eslint .` in `root` at the lowest priority. Answers `done`, which resolves with
 * `{ ok, seconds, output }` once it ends, and `stop()` for a suite that was interrupted.
 */
export function lintBeside(root) {
  const started = Date.now();
  const [command, args] = process.platform === 'win32' ? [process.execPath, [eslint, '.']] : ['nice', ['-n', '19', process.execPath, eslint, '.']];
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => out.push(c));
  const done = new Promise((resolve) => {
    const end = (ok, extra = '') =>
      resolve({ ok, seconds: Math.round((Date.now() - started) / 1000), output: (Buffer.concat(out).toString('utf8') + extra).trimEnd() });
    child.on('error', (err) => end(false, `\ncould not start ESLint: ${err.message}`));
    child.on('close', (code, signal) => end(code === 0, code === 0 ? '' : `\nESLint exited with ${code ?? signal}`));
  });
  return { done, stop: () => child.kill('SIGTERM') };
}
