/**
 * Memory given back after a burst, once the process is idle again.
 *
 * A burst of requests (a registration flood, rounds of sessions, a catalogue of thousands of
 * tools loading) leaves V8's old generation tens of MiB larger than what is live: its next
 * limit was raised while the garbage came in, and nothing collects it until the next burst,
 * so the resident set stays where the burst left it (+40 to +86 MiB after 10,000
 * registrations, live objects +4 MiB). Browsers solve the same problem with idle-time
 * collection; this is that, at the scale of a server: every few seconds the event loop's
 * utilisation and the resident set are sampled, and when compaction-policy.ts says so (quiet
 * long enough, grown by a burst's worth since the last compaction) one full collection runs.
 * It never runs under load (a busy loop is the moment a pause costs most); a full collection
 * of a heap this size takes a few milliseconds (measured in docs/decisions.md, "Idle
 * compaction"). What it costs the JIT, and why the policy learns from that, is in
 * compaction-policy.ts.
 *
 * `SWITCHBOARD_IDLE_COMPACTION=off` switches it off.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CompactionPolicy, type CompactionPolicyOptions } from './compaction-policy.js';

export interface IdleCompactionOptions extends CompactionPolicyOptions {
  /** How often the loop's idleness is sampled. */
  intervalMs: number;
}

/**
 * 4 MiB: the first discovery at 10,000 tools (ranking and name indexes built) leaves 10 to 14
 * MiB of garbage, under the 16 MiB this was, so RSS after discovery stayed 10 MiB above what
 * is live (bench/README.md, "footprint"). A collection of a heap this size is a few ms.
 */
export const IDLE_COMPACTION: IdleCompactionOptions = {
  intervalMs: 2000,
  idleUtilisation: 0.05,
  growthBytes: 4 * 1024 * 1024,
  // Calls within 30 s of a compaction are the same traffic coming back; the longest wait a
  // process that keeps being called back reaches is about a minute of quiet.
  regretMs: 30_000,
  maxQuietIntervals: 32,
};

/** The options V8's `gc` extension takes for a memory-reducing full collection. */
interface GcOptions {
  type: 'major';
  execution: 'sync';
  flavor: 'last-resort';
}

/**
 * V8 11 (Node 20) runs a young-generation collection for `gc` given any options object (traced:
 * "Scavenge ... testing" for `{ type: 'major' }`), so only a newer V8 is given them.
 */
const TAKES_GC_OPTIONS = Number(process.versions.v8.split('.')[0]) >= 12;

/**
 * V8's full collection, reached without `--expose-gc` on the command line, compacting every
 * page. A plain full collection frees objects but moves none: pages where a few live objects
 * remain among the garbage stay resident (at 10,000 tools: heap 54 MiB for 36 live, RSS 108).
 * Compaction is switched on for this one collection only, so V8's own collections under load
 * keep their cost (measured in bench/README.md, "footprint").
 *
 * On V8 12 and later it is the "last-resort" flavour, the memory-reducing collection V8 runs
 * under memory pressure: besides collecting, it gives back the pages V8 pools for reuse. Node
 * 22's V8 keeps the pages a compaction empties in that pool: with a regular collection RSS at
 * 10,000 tools stayed at 148-160 MiB after discovery (heap 38), 98-102 with this one (bench/
 * README.md, "Node 22's pooled pages"). Node 20's V8 gives them back after a regular one.
 */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options?: GcOptions) => void;
  const options: GcOptions | undefined = TAKES_GC_OPTIONS ? { type: 'major', execution: 'sync', flavor: 'last-resort' } : undefined;
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc(options);
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

/**
 * Starts watching, each compaction told to `debug`; the answer stops it. The timer never keeps
 * the process alive.
 */
export function startIdleCompaction(
  debug: (line: string) => void = () => undefined,
  options: IdleCompactionOptions = IDLE_COMPACTION,
  env: NodeJS.ProcessEnv = process.env,
): () => void {
  if (env.SWITCHBOARD_IDLE_COMPACTION === 'off') return () => undefined;
  // V8's memory reducer runs full collections of its own once allocation stops, and those cost
  // the JIT what an idle compaction costs (compaction-policy.ts): traced, rounds of calls after
  // a quiet went cold through its "(reduce)" collections once the policy had backed off. Quiet-
  // time collection is this watcher's alone; switched off with it, V8's reducer runs as usual.
  setFlagsFromString('--no-memory-reducer');
  const gc = fullCollection();
  const policy = new CompactionPolicy(options, process.memoryUsage.rss());
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const utilisation = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const rss = process.memoryUsage.rss();
    if (!policy.next({ utilisation, rss, now: performance.now() })) return;
    gc();
    const after = process.memoryUsage.rss();
    policy.compacted(after, performance.now());
    debug(`idle compaction: RSS ${mib(rss)} -> ${mib(after)} MiB; the next waits for ${policy.quietIntervalsNeeded} quiet interval(s)`);
    last = performance.eventLoopUtilization();
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(1);
}
