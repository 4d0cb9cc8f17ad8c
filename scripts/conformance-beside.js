// The official MCP conformance suite's runs for `npm test`, beside the paired pass instead of
// after the suite.
//
// They were .ci/run's last step: about 85 s of wall after `npm test`, most of it CPU (each
// client scenario starts the suite on Node 22, the OAuth client and a Switchboard), while the
// paired pass before them left the two cores mostly idle (its files wait on a liveness period
// and a proxy's timeout). So the suite starts them with the paired pass, at the lowest CPU
// priority like ESLint (scripts/lint-beside.js): the paired pass's files keep the cores they
// need, these take the rest. Never beside the serial pass, whose files assert latencies.
//
// Runs, each a lane of its own, all at once:
//   - the 2025-11-25 client auth scenarios (test/conformance/client-scenarios.txt), in two lanes;
//   - the 2026-07-28 client auth scenarios (client-scenarios-2026.txt, suite 0.2.0-alpha.12);
//   - the 2026-07-28 server run, judged against its expected failures (one test).
// The suite and Node 22 are installed once into a cache (scripts/conformance-env.sh) before the
// lanes start, one version after the other, so that two lanes never install into one directory.
// When they cannot be installed (no registry, not Linux), the runs are skipped with the reason.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SUITE_2026 = '0.2.0-alpha.12';

/** The scenarios a list file names (one per line; `#` starts a comment line). */
function scenarios(root, file) {
  return readFileSync(join(root, 'test', 'conformance', file), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** The process groups of the runs under way: a suite that is stopped stops them all. */
const running = new Set();

/** Stops every run under way (the suite was interrupted). */
export function stopConformance() {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // Ended meanwhile.
    }
  }
}

/**
 * Runs `command` in a process group of its own (a scenario's suite, OAuth client and
 * Switchboard stop with it); resolves with its exit code and its whole output.
 */
function run(root, command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    running.add(child.pid);
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('error', (err) => resolve({ code: 1, output: `could not start ${command}: ${err.message}` }));
    child.on('close', (code, signal) => {
      running.delete(child.pid);
      resolve({ code: code ?? signal, output: Buffer.concat(out).toString('utf8') });
    });
  });
}

/** One of the conformance scripts, at the lowest priority. */
const script = (root, name, args, env = {}) => run(root, 'nice', ['-n', '19', 'bash', join(root, 'scripts', name), ...args], env);

/** Installs (or finds in its cache) the suite of `version` and Node 22; answers why not, or undefined. */
async function install(root, version) {
  const probe = 'set -e; . scripts/conformance-env.sh; "$node22" "$suite" --version >/dev/null';
  const { code, output } = await run(root, 'bash', ['-c', probe], { root, conformance_version: version });
  if (code === 0) return undefined;
  // npm's first error line says why (`npm error code ECONNREFUSED`); its last points at a log file.
  const lines = output.trim().split('\n');
  const why = lines.find((l) => l.startsWith('npm error')) ?? lines.pop() ?? `exit ${code}`;
  return `the conformance suite ${version} or Node 22 could not be installed from the npm registry (${why || `exit ${code}`})`;
}

/** PASSED/FAILED lines of the client scenario runs. */
const clientLines = (output) => output.split('\n').filter((l) => /^(PASSED|FAILED) /.test(l));

/**
 * Starts every run. Answers a promise of `{ seconds, passed, failed, lines, skipped }`: `lines`
 * are the per-scenario verdicts and the server run's summary, to print after the tests;
 * `skipped` says why a run did not happen (counted neither way).
 */
export async function conformanceBeside(root) {
  const started = Date.now();
  const lines = [];
  const skipped = [];
  let passed = 0;
  let failed = 0;
  if (process.platform !== 'linux') {
    skipped.push('the official MCP conformance suite (Node 22 from the npm registry is a Linux build here)');
    return { seconds: 0, passed, failed, lines, skipped };
  }
  const [old, modern] = [await install(root, '0.1.16'), await install(root, SUITE_2026)];
  const lanes = [];
  if (old) skipped.push(`the 2025-11-25 client auth scenarios: ${old}`);
  else {
    const all = scenarios(root, 'client-scenarios.txt');
    for (const half of [all.filter((_, i) => i % 2 === 0), all.filter((_, i) => i % 2 === 1)])
      lanes.push(script(root, 'conformance-client.sh', half).then(({ output }) => ({ kind: 'client', output })));
  }
  if (modern) skipped.push(`the 2026-07-28 conformance runs: ${modern}`);
  else {
    const env = { conformance_version: SUITE_2026 };
    lanes.push(script(root, 'conformance-client.sh', scenarios(root, 'client-scenarios-2026.txt'), env).then(({ output }) => ({ kind: 'client', output })));
    lanes.push(script(root, 'conformance.sh', ['--spec-version', '2026-07-28']).then(({ code, output }) => ({ kind: 'server', code, output })));
  }
  for (const lane of await Promise.all(lanes)) {
    if (lane.kind === 'client') {
      const verdicts = clientLines(lane.output);
      // A lane that printed no verdict at all (the OAuth client crashed before the first) failed whole.
      if (verdicts.length === 0) verdicts.push(`FAILED  conformance client lane: no scenario ran\n${lane.output.trim().split('\n').slice(-5).join('\n')}`);
      lines.push(...verdicts);
      passed += verdicts.filter((l) => l.startsWith('PASSED ')).length;
      failed += verdicts.filter((l) => l.startsWith('FAILED ')).length;
    } else {
      const out = lane.output.split('\n');
      const summary = out.indexOf('=== SUMMARY ===');
      if (summary >= 0) lines.push(...out.slice(summary).filter((l) => l.trim() !== ''));
      else lines.push(...out.slice(-10));
      const ok = lane.code === 0 && /^Total: \d+ passed/m.test(lane.output);
      lines.push(`${ok ? 'PASSED' : 'FAILED'}  conformance server --spec-version 2026-07-28`);
      if (ok) passed += 1;
      else failed += 1;
    }
  }
  return { seconds: Math.round((Date.now() - started) / 1000), passed, failed, lines, skipped };
}
