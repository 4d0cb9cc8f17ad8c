// How many Node processes of each kind a run starts, and the CPU of those that exit on their
// own: a `--import` module given through NODE_OPTIONS, which every Node process of the run
// inherits (mocha, its workers, each Switchboard, the CLI, the fixture MCP servers):
//
//   SWITCHBOARD_COUNT_STARTS=/tmp/starts.tsv NODE_OPTIONS="--import=$PWD/scripts/count-starts.js" \
//     npx mocha --no-config --timeout 60000 --exit dist/test/e2e/x.test.js
//   node scripts/count-starts.js /tmp/starts.tsv      the table: starts and CPU per kind
//
// One line per start (`start <tab> kind`) and one per exit (`exit <tab> kind <tab> cpu ms`),
// each one append: processes do not interleave. A process killed by a signal it does not
// handle writes no exit line (fixture servers stopped with their parent), so the CPU column
// is a floor. The kind is what the process runs: `switchboard <command>`, a test fixture or
// script by its path, a package by its name. Switchboard starts its stdio MCP servers with
// their own environment, without NODE_OPTIONS: those are not counted here (grep the test
// files for the fixtures a file names).
import { appendFileSync, readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const root = fileURLToPath(new URL('..', import.meta.url));

function kind(argv, execArgv) {
  const script = argv[1];
  if (!script || execArgv.some((a) => a === '-e' || a === '--eval' || a.startsWith('--eval=') || a === '-p')) return 'node -e';
  if (script.endsWith('bin/switchboard.js')) return `switchboard ${argv.slice(2).find((a) => !a.startsWith('-')) ?? ''}`.trim();
  if (script.includes('node_modules/.bin/')) return basename(script);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(script);
  if (pkg) return pkg[1];
  const path = relative(root, script);
  return path.startsWith('..') ? basename(script) : path;
}

const out = process.env.SWITCHBOARD_COUNT_STARTS;
if (import.meta.url === `file://${process.argv[1]}`) {
  // Run as a program: print the table of a run's lines.
  const rows = new Map();
  for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
    const [what, k, ms] = line.split('\t');
    if (!k) continue;
    const r = rows.get(k) ?? { starts: 0, exits: 0, cpu: 0 };
    if (what === 'start') r.starts++;
    else ((r.exits += 1), (r.cpu += Number(ms)));
    rows.set(k, r);
  }
  console.log('| starts | exited | CPU s of those | mean s | kind |\n|---:|---:|---:|---:|---|');
  for (const [k, r] of [...rows].sort((a, b) => b[1].starts - a[1].starts))
    console.log(`| ${r.starts} | ${r.exits} | ${(r.cpu / 1000).toFixed(1)} | ${r.exits ? (r.cpu / r.exits / 1000).toFixed(2) : ''} | ${k} |`);
} else if (out && isMainThread) {
  const k = kind(process.argv, process.execArgv);
  appendFileSync(out, `start\t${k}\n`);
  process.on('exit', () => {
    const u = process.cpuUsage();
    appendFileSync(out, `exit\t${k}\t${Math.round((u.user + u.system) / 1000)}\n`);
  });
}
