#!/usr/bin/env node
// CPU time per test file, sorted, most costly first: what to cut to keep `npm test` within its
// budget (CONTRIBUTING.md). On two cores the suite is CPU-bound, so wall times, which other work
// on the machine inflates, mislead; CPU seconds compare across runs.
//
//   node scripts/file-cpu.js                      the whole suite, as `npm test` runs it (after a build)
//   node scripts/file-cpu.js dist/test/e2e/x.test.js ...   those files, one after the other
//   node scripts/file-cpu.js --table FILE         print the table of an earlier run's lines
//
// scripts/file-cpu-hook.js measures each file inside the process that runs it; the lines go to
// $SWITCHBOARD_FILE_CPU (default: a new file in the temp directory, named at the end).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const hook = join(root, 'scripts', 'file-cpu-hook.js');
const args = process.argv.slice(2);

/** The table: one row per file (a file run twice keeps its last figure), and the sums. */
function table(path) {
  const rows = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [cpu, wall, leftCpu, leftCount, file] = line.split('\t');
    if (file) rows.set(file, { cpu: Number(cpu), wall: Number(wall), leftCpu: Number(leftCpu), leftCount: Number(leftCount) });
  }
  const sorted = [...rows].sort((a, b) => b[1].cpu - a[1].cpu);
  const total = sorted.reduce((s, [, r]) => s + r.cpu, 0);
  const lines = ['| CPU s | wall s | share | left running | file |', '|---:|---:|---:|---|---|'];
  for (const [file, r] of sorted) {
    const left = r.leftCount > 0 ? `${r.leftCount} (${r.leftCpu.toFixed(1)} s)` : '';
    lines.push(`| ${r.cpu.toFixed(1)} | ${r.wall.toFixed(1)} | ${((100 * r.cpu) / total).toFixed(1)} % | ${left} | ${file} |`);
  }
  lines.push('', `${sorted.length} files, ${(total / 60).toFixed(1)} CPU-minutes in the files (tests, their hooks and the processes they reaped)`);
  return lines.join('\n');
}

if (args[0] === '--table') {
  console.log(table(args[1]));
  process.exit(0);
}

const out = process.env.SWITCHBOARD_FILE_CPU ?? join(mkdtempSync(join(tmpdir(), 'file-cpu-')), 'lines.tsv');
const command =
  args.length === 0
    ? [join(root, 'scripts', 'test-suite.js'), '--require', hook]
    : [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-config', '--timeout', '60000', '--exit', '--require', hook, ...args];
const child = spawn(process.execPath, command, { cwd: root, stdio: 'inherit', env: { ...process.env, SWITCHBOARD_FILE_CPU: out } });
child.on('close', (code) => {
  try {
    console.log(`\n${table(out)}\nlines: ${out}`);
  } catch (err) {
    console.error(`file-cpu: no figures in ${out}: ${err.message}`);
  }
  // The whole run's CPU, every process it started included: this process's reaped children
  // (cutime and cstime, fields 16-17 of /proc/self/stat, in USER_HZ ticks of 1/100 s).
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  console.log(`whole run: ${((Number(f[13]) + Number(f[14])) / 100 / 60).toFixed(1)} CPU-minutes`);
  process.exit(code ?? 1);
});
