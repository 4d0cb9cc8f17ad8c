#!/usr/bin/env node
// The build's type-check and ESLint's type-checked rules on ONE TypeScript program.
//
// `tsc --noEmit -p tsconfig.json` builds a program of every source and checks it; ESLint's
// type-checked rules would build the same program again (typescript-eslint's project service)
// and ask its checker for the types tsc had just computed. Here the program is made once:
// checked as tsc checks it (the same options), then handed to ESLint
// (`parserOptions.programs`), whose rules find their types already computed. Measured on the
// two-core machine (when this process still emitted too): tsc 44 s of CPU and ESLint alone 102,
// here 36 for the build and 61 for the lint. dist/ is now written by scripts/emit.js, beside
// this check, not by it.
//
//   node scripts/typecheck-and-lint.js          the type-check only (what tsc --noEmit does)
//   node scripts/typecheck-and-lint.js --lint   then ESLint, at the lowest CPU priority
//
// Started with an IPC channel (scripts/checks.js), it reports `{ type: 'checked', ok, output }`
// once the program is checked, then `{ type: 'linted', ok, output }`, and ends when its parent
// does. Without one, it prints and exits as tsc and ESLint would (status 1 on an error).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** @type {typeof import('typescript')} */
const ts = require('typescript');

/** @param {{ type: 'checked' | 'linted', ok: boolean, output: string }} message */
function report(message) {
  if (process.send) process.send(message);
  else if (message.output) console.log(message.output);
}

// A parent gone (an interrupted `npm test`) leaves nobody to read the result.
const orphaned = () => process.exit(1);
process.on('disconnect', orphaned);

const host = {
  getCanonicalFileName: (/** @type {string} */ f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};

function check() {
  const configErrors = [];
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d),
    },
  );
  if (!config) return { ok: false, output: ts.formatDiagnostics(configErrors, host) };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  const output = diagnostics.length ? `${ts.formatDiagnostics(diagnostics, host)}\nFound ${errors} error(s).` : '';
  return { ok: errors === 0, output, program };
}

/**
 * The lowest CPU priority for every thread of this process, as lint-beside.js gives a fresh
 * ESLint: Linux's idle scheduling class (`chrt --all-tasks`: threads started later inherit
 * it), and nice 19 where there is none.
 */
function lowestPriority() {
  if (process.platform === 'linux' && spawnSync('chrt', ['--all-tasks', '--idle', '-p', '0', String(process.pid)]).status === 0) return;
  try {
    setPriority(19);
  } catch {
    // Not permitted: lint at the priority it has.
  }
}

async function lint(program) {
  const { ESLint } = require('eslint');
  const eslint = new ESLint({ cwd: root, overrideConfig: [{ languageOptions: { parserOptions: { projectService: false, programs: [program] } } }] });
  const results = await eslint.lintFiles(['.']);
  const problems = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
  const text = (await (await eslint.loadFormatter('stylish')).format(results)).trim();
  return { ok: problems === 0, output: text };
}

const checked = check();
report({ type: 'checked', ok: checked.ok, output: checked.output });
if (!checked.ok || !process.argv.includes('--lint')) {
  process.exitCode = checked.ok ? 0 : 1;
} else {
  lowestPriority();
  const linted = await lint(checked.program).catch((/** @type {Error} */ err) => ({ ok: false, output: `ESLint failed: ${err.stack ?? err.message}` }));
  report({ type: 'linted', ...linted });
  process.exitCode = linted.ok ? 0 : 1;
}
if (process.send) {
  process.off('disconnect', orphaned);
  process.disconnect();
}
