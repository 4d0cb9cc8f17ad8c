/**
 * The search index is built once per catalogue version; built lazily, the first filter_tools
 * query after a change would pay for it (about 170 ms at 10k tools since descriptions are
 * indexed and names split). Built shortly after the change instead, off any request. A query
 * that comes first still builds it itself, as before.
 *
 * Nothing is built while the plugins are being set up (the built-in tools register one by one,
 * between modules loading): the first build is for the catalogue the plugins start with. After
 * that, a burst of changes (servers connecting one after another, a hot reload of several) is
 * built once, when it is over: QUIET_MS after its last change, and never later than AT_MOST_MS
 * after its first, so a catalogue that keeps changing still gets its index. Building 250 ms
 * after the first change of a burst instead (measured over six e2e files: two to six builds a
 * start, the first of a catalogue of one tool) spent 30-100 ms of CPU on versions nobody searched.
 */
import type { KernelApi } from '../../kernel/index.js';
import { indexFor } from './ranking.js';

const QUIET_MS = 250;
const AT_MOST_MS = 2_000;

/** The clock a burst is timed by: the process's own, or a test's. */
export interface BurstClock {
  now(): number;
  after(ms: number, run: () => void): { cancel(): void };
}

const processClock: BurstClock = {
  now: () => performance.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref(); // a pending build never keeps a stopping process alive
    return { cancel: () => clearTimeout(timer) };
  },
};

/** `work` run once per burst of calls to the function answered: `quietMs` after the last, at most `atMostMs` after the first. */
export function onceAfterBurst(work: () => void, quietMs: number, atMostMs: number, clock: BurstClock = processClock): () => void {
  let pending: { cancel(): void } | undefined;
  let firstAt = 0;
  const run = () => {
    pending = undefined;
    work();
  };
  return () => {
    const now = clock.now();
    if (pending) pending.cancel();
    else firstAt = now;
    pending = clock.after(Math.max(0, Math.min(quietMs, firstAt + atMostMs - now)), run);
  };
}

/** Taps catalogue changes now; builds only once `start` is called (the plugin's start). */
export function warmSearchIndex(kernel: KernelApi): { start(): void } {
  const changed = onceAfterBurst(() => indexFor(kernel.catalogue), QUIET_MS, AT_MOST_MS);
  let started = false;
  kernel.hooks.onCatalogueChange.tap('meta-tools', () => {
    if (started) changed();
  });
  return {
    start() {
      started = true;
      changed();
    },
  };
}
