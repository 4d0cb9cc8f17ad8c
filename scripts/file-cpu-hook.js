// A mocha `--require` plugin that records the CPU time each test file costs, for
// scripts/file-cpu.js. The suite is CPU-bound on two cores (more workers cannot help), so the
// figure to cut is CPU per file, not wall time, which other work on the machine inflates.
//
// Each file's cost is read from /proc in the process that runs it (a parallel worker, or the
// serial pass's mocha), at its first suite's start and its last suite's end: user and system
// time of the process, of its children that ended and were reaped (cutime, cstime:
// Switchboard, the MCP servers it spawned, redis-server, HAProxy, npm), and of its
// descendants still running. A process still running when the file ends is charged to the
// file up to then and to the next for what it uses after; such processes are listed apart
// (`left running`, with the CPU they had used), since what a file leaves behind is a leak.
//
// A process started in the background by a script that then exits (etcd and kube-apiserver,
// started by scripts/kube-test-env.sh) is no longer a descendant and is never reaped by this
// process: it is found by the variable SWITCHBOARD_FILE_CPU_OWNER=<this pid> it inherited,
// sampled every second while it runs, and its CPU added to the file's (the last second before it
// ends are missed).
//
// One line per file is appended to $SWITCHBOARD_FILE_CPU (one write, O_APPEND: workers do not
// interleave): `cpu_s <tab> wall_s <tab> left_running_cpu_s <tab> left_running_count <tab> file`.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';

const out = process.env.SWITCHBOARD_FILE_CPU;
const require = createRequire(import.meta.url);
// mocha's package is ESM at its entry; the CommonJS build its workers load is this one.
const { Runner } = require('mocha/lib/mocha.cjs');
// Linux's USER_HZ: 100 on every architecture Node runs on.
const HZ = 100;

/** utime, stime, cutime, cstime (fields 14-17) and ppid (4) of /proc/<pid>/stat, in ticks. */
function stat(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i) => Number(f[i - 3]);
  return { ppid: n(4), own: n(14) + n(15), children: n(16) + n(17), started: n(22) };
}

/**
 * Processes descended from this one that are still running, and the CPU they have used: each
 * one's own and that of its children it reaped (a process reaped by a descendant is in that
 * descendant's figure, one reaped by this process in its cutime: each counted once).
 */
function liveDescendants() {
  const parent = new Map();
  const cpu = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = stat(name);
      parent.set(Number(name), s.ppid);
      cpu.set(Number(name), s.own + s.children);
    } catch {
      // Ended between the listing and the read.
    }
  }
  let count = 0;
  let ticks = 0;
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        count++;
        ticks += cpu.get(pid);
        break;
      }
    }
  }
  return { count, ticks };
}

/** CPU last seen of each orphan of ours, by pid and start time (a pid may be reused). */
const orphans = new Map();

/** Records the CPU of every running process that carries our mark but is no longer our descendant. */
function sampleOrphans() {
  const parent = new Map();
  const stats = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = stat(name);
      parent.set(Number(name), s.ppid);
      stats.set(Number(name), s);
    } catch {
      // Ended between the listing and the read.
    }
  }
  const mark = `\0SWITCHBOARD_FILE_CPU_OWNER=${process.pid}\0`;
  for (const [pid, s] of stats) {
    let ours = false;
    for (let p = s.ppid; p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) ours = true;
    if (ours || pid === process.pid) continue;
    try {
      if (!`\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(mark)) continue;
    } catch {
      continue; // another user's process, or ended
    }
    orphans.set(`${pid}/${s.started}`, s.own + s.children);
  }
}

function orphanTicks() {
  sampleOrphans();
  return [...orphans.values()].reduce((a, b) => a + b, 0);
}

/**
 * This process's CPU, its reaped children's, its live descendants' and its orphans': a
 * process a file leaves running is charged to that file up to its end and to the next one
 * for what it uses after, whenever it is reaped.
 */
function now() {
  const s = stat('self');
  const live = liveDescendants();
  return { ticks: s.own + s.children + live.ticks + orphanTicks(), ms: Date.now(), live };
}

if (out) {
  process.env.SWITCHBOARD_FILE_CPU_OWNER = String(process.pid);
  setInterval(sampleOrphans, 1000).unref();
  const run = Runner.prototype.run;
  Runner.prototype.run = function (...args) {
    // The parallel pass's main process only relays its workers' events: the workers measure.
    if (this.constructor.name !== 'ParallelBufferedRunner') watch(this);
    return run.apply(this, args);
  };
}

/** Measures each file this runner runs: from its first suite's start to its last suite's end. */
function watch(runner) {
  const files = new Map();
  let current;
  const finish = () => {
    if (current === undefined) return;
    const { file, start, end } = current;
    current = undefined;
    const left = end.live;
    const line = [
      ((end.ticks - start.ticks) / HZ).toFixed(2),
      ((end.ms - start.ms) / 1000).toFixed(1),
      (left.ticks / HZ).toFixed(2),
      left.count,
      relative(process.cwd(), file),
    ].join('\t');
    appendFileSync(out, line + '\n');
  };
  runner.on('suite', (suite) => {
    if (!suite.file) return;
    if (current?.file !== suite.file) {
      finish();
      current = { file: suite.file, start: files.get(suite.file) ?? now(), end: now() };
      files.set(suite.file, current.start);
    }
  });
  runner.on('suite end', (suite) => {
    if (suite.file && current?.file === suite.file) current.end = now();
  });
  runner.once('end', finish);
}
