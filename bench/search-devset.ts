/**
 * `npm run bench -- search-devset`: the search development set (bench/devset: real catalogues
 * of public MCP servers, plain-language queries with their gold tools) run through the real
 * product. A Switchboard aggregates one replay server per captured catalogue over stdio, and
 * every query goes through `filter_tools { query }` with the SDK client. Figures are per step
 * (a task needing two tools has two steps, each judged against the same ranked answer) and per
 * task (every step has a gold tool in the top ten). Gold ids `<server>/<tool>` are mapped to
 * Switchboard's `x_<server>_<tool>` and checked against list_tools before any query runs.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectHttp, meta, startSwitchboard, stdioServer, type Files } from '../test/support/harness.js';
import { isHeldBack, loadDevset, loadUnseen, type Catalogue, type DevsetQuery } from './devset/catalog.js';
import { misspell } from './devset/misspell.js';
import { round } from './stats.js';

const REPLAY = join(dirname(fileURLToPath(import.meta.url)), 'devset/replay-server.js');
/** How deep each answer is read: the reciprocal rank of a gold tool ranked below ten counts. */
const DEPTH = 50;

export interface StepFigures {
  hitAt1: number;
  hitAt5: number;
  hitAt10: number;
  mrr: number;
  recallAt5: number;
  recallAt10: number;
}

export interface DevsetMiss {
  id: string;
  query: string;
  step: number;
  gold: string[];
  /** Rank (1-based) of the first gold tool within DEPTH, or null. */
  rank: number | null;
  top: string[];
}

/** The figures of one part of the set (dev or held-back). */
export interface DevsetPart {
  queries: number;
  tasks: number;
  steps: number;
  overall: StepFigures & { taskRecallAt10: number; answersWithCore: number };
  byCategory: Record<string, StepFigures & { queries: number; steps: number; taskRecallAt10: number }>;
  /** Dev only: the held-back part's individual misses are never shown, so nobody tunes to them. */
  worst: DevsetMiss[];
}

export interface DevsetFigures {
  servers: number;
  tools: number;
  /** Four fifths of the queries: the part ranking changes are tuned on. */
  dev: DevsetPart;
  /** The fifth chosen by a hash of the query id (bench/devset/catalog.ts isHeldBack): reported, never tuned on. */
  heldBack: DevsetPart;
  /** The same queries with one misspelt word each (bench/devset/misspell.ts): spelling correction's measure. */
  misspelt: { dev: DevsetPart; heldBack: DevsetPart };
  /**
   * Requests for servers outside the main catalogue (bench/devset/unseen), ranked over both
   * catalogues together: how the ranking does on servers it was not written for.
   */
  unseen: { servers: number; tools: number; typed: DevsetPart; misspelt: DevsetPart };
  seconds: number;
}

interface Found {
  tools: { name: string }[];
}

interface StepOutcome {
  category: string;
  kind: string;
  firstRank: number | null;
  hits: (k: number) => boolean;
  recall: (k: number) => number;
}

const gid = (gold: string): string => {
  const [server, ...tool] = gold.split('/');
  return `x_${server!}_${tool.join('/')}`;
};

function judge(q: DevsetQuery, ranked: readonly string[]): { steps: StepOutcome[]; misses: DevsetMiss[]; taskHit: boolean } {
  const steps: StepOutcome[] = [];
  const misses: DevsetMiss[] = [];
  q.steps.forEach((s, i) => {
    const gold = s.gold.map(gid);
    const at = ranked.findIndex((n) => gold.includes(n));
    const firstRank = at < 0 ? null : at + 1;
    const recall = (k: number) => gold.filter((g) => ranked.slice(0, k).includes(g)).length / Math.min(gold.length, k);
    steps.push({ category: q.category, kind: q.kind, firstRank, hits: (k) => firstRank !== null && firstRank <= k, recall });
    if (firstRank === null || firstRank > 10) misses.push({ id: q.id, query: q.query, step: i + 1, gold, rank: firstRank, top: ranked.slice(0, 5) });
  });
  return { steps, misses, taskHit: steps.every((s) => s.hits(10)) };
}

function summarize(steps: StepOutcome[]): StepFigures {
  const mean = (f: (s: StepOutcome) => number) => round(steps.reduce((a, s) => a + f(s), 0) / Math.max(1, steps.length), 3);
  return {
    hitAt1: mean((s) => Number(s.hits(1))),
    hitAt5: mean((s) => Number(s.hits(5))),
    hitAt10: mean((s) => Number(s.hits(10))),
    mrr: mean((s) => (s.firstRank === null ? 0 : 1 / s.firstRank)),
    recallAt5: mean((s) => s.recall(5)),
    recallAt10: mean((s) => s.recall(10)),
  };
}

interface QueryOutcome {
  q: DevsetQuery;
  ranked: string[];
  steps: StepOutcome[];
  misses: DevsetMiss[];
  taskHit: boolean;
}

function summarizePart(outcomes: QueryOutcome[], showMisses: boolean): DevsetPart {
  const steps = outcomes.flatMap((o) => o.steps);
  const tasks = outcomes.map((o) => ({ category: o.q.category, kind: o.q.kind, hit: o.taskHit }));
  const answersWithCore = outcomes.filter((o) => o.ranked.slice(0, 10).some((n) => n.startsWith('core_'))).length;
  const share = (xs: { hit: boolean }[]) => round(xs.filter((t) => t.hit).length / Math.max(1, xs.length), 3);
  const byCategory: DevsetPart['byCategory'] = {};
  // One row per kind (single, task, distractor), then one per domain.
  const groups: [string, (x: { category: string; kind: string }) => boolean][] = [
    ...[...new Set(tasks.map((t) => t.kind))].sort().map((k): [string, (x: { kind: string }) => boolean] => [`kind: ${k}`, (x) => x.kind === k]),
    ...[...new Set(tasks.map((t) => t.category))].sort().map((c): [string, (x: { category: string }) => boolean] => [c, (x) => x.category === c]),
  ];
  for (const [name, member] of groups) {
    const mine = steps.filter(member);
    const myTasks = tasks.filter(member);
    byCategory[name] = { queries: myTasks.length, steps: mine.length, ...summarize(mine), taskRecallAt10: share(myTasks) };
  }
  const misses = showMisses ? outcomes.flatMap((o) => o.misses) : [];
  misses.sort((a, b) => (b.rank ?? DEPTH + 1) - (a.rank ?? DEPTH + 1) || a.id.localeCompare(b.id));
  return {
    queries: outcomes.length,
    tasks: tasks.filter((t) => t.kind === 'task').length,
    steps: steps.length,
    overall: { ...summarize(steps), taskRecallAt10: share(tasks), answersWithCore },
    byCategory,
    worst: misses.slice(0, 25),
  };
}

/** Each query's outcome as typed and with one word misspelt, through a Switchboard over `catalogues`. */
async function outcomesOver(root: string, catalogues: readonly Catalogue[], queries: readonly DevsetQuery[], folderOf: (server: string) => string) {
  const files: Files = {};
  for (const c of catalogues)
    files[`mcpservers/${c.server}.yaml`] = stdioServer(c.server, REPLAY, [join(root, 'bench/devset', folderOf(c.server), `${c.server}.json`)]);
  const sb = await startSwitchboard(files, { args: ['--host', '127.0.0.1'], startTimeoutMs: 120_000 });
  try {
    const client = await connectHttp(sb.url);
    try {
      const all = await meta<Found>(client, 'list_tools', { limit: 5000, offset: 0 });
      const names = new Set(all.tools.map((t) => t.name));
      const expected = catalogues.flatMap((c) => c.tools.map((t) => gid(`${c.server}/${t.name}`)));
      const absent = expected.filter((n) => !names.has(n));
      if (absent.length > 0) throw new Error(`search-devset: Switchboard does not list ${absent.length} captured tools, e.g. ${absent.slice(0, 5).join(', ')}`);
      const run = async (text: (q: DevsetQuery) => string): Promise<QueryOutcome[]> => {
        const outcomes: QueryOutcome[] = [];
        for (const q of queries) {
          const found = await meta<Found>(client, 'filter_tools', { query: text(q), limit: DEPTH, offset: 0 });
          const ranked = found.tools.map((t) => t.name);
          outcomes.push({ q, ranked, ...judge(q, ranked) });
        }
        return outcomes;
      };
      return { tools: expected.length, typed: await run((q) => q.query), misspelt: await run((q) => misspell(q.id, q.query)) };
    } finally {
      await client.close();
    }
  } finally {
    await sb.stop();
  }
}

export async function benchSearchDevset(root: string): Promise<DevsetFigures> {
  const started = performance.now();
  const main = await loadDevset(root);
  const { typed, misspelt, tools } = await outcomesOver(root, main.catalogues, main.queries, () => 'catalog');
  const parts = (all: QueryOutcome[], showMisses: boolean) => ({
    dev: summarizePart(
      all.filter((o) => !isHeldBack(o.q.id)),
      showMisses,
    ),
    heldBack: summarizePart(
      all.filter((o) => isHeldBack(o.q.id)),
      false,
    ),
  });
  const unseen = await loadUnseen(root);
  const mainServers = new Set(main.catalogues.map((c) => c.server));
  const beyond = await outcomesOver(root, unseen.catalogues, unseen.queries, (server) => (mainServers.has(server) ? 'catalog' : 'unseen'));
  return {
    servers: main.catalogues.length,
    tools,
    ...parts(typed, true),
    misspelt: parts(misspelt, false),
    unseen: {
      servers: unseen.catalogues.length,
      tools: beyond.tools,
      typed: summarizePart(beyond.typed, true),
      misspelt: summarizePart(beyond.misspelt, false),
    },
    seconds: round((performance.now() - started) / 1000, 1),
  };
}

function partTable(d: DevsetPart, name: string, withRows: boolean): string {
  const row = (label: string, f: StepFigures, queries: number, steps: number, task: number) =>
    `| ${label} | ${queries} | ${steps} | ${f.hitAt1} | ${f.hitAt5} | ${f.hitAt10} | ${f.mrr} | ${f.recallAt5} | ${f.recallAt10} | ${task} |`;
  const lines = [
    '| part / category | queries | steps | hit@1 | hit@5 | hit@10 | MRR | recall@5 | recall@10 | task recall@10 |',
    '|---|---|---|---|---|---|---|---|---|---|',
    row(`${name}: all`, d.overall, d.queries, d.steps, d.overall.taskRecallAt10),
    ...(withRows ? Object.entries(d.byCategory).map(([c, f]) => row(c, f, f.queries, f.steps, f.taskRecallAt10)) : []),
  ];
  return `${lines.join('\n')}\n\n${name}: answers with a core_* tool in their top ten: ${d.overall.answersWithCore} of ${d.queries}; ${d.tasks} multi-tool tasks`;
}

export function devsetTable(d: DevsetFigures): string {
  const kinds = (p: DevsetPart) => Object.fromEntries(Object.entries(p.byCategory).filter(([c]) => c.startsWith('kind: ')));
  const missRow = (m: DevsetMiss) => `| ${m.id}#${m.step} | ${m.query} | ${m.gold.join(', ')} | ${m.rank ?? `> ${DEPTH}`} | ${m.top.join(', ')} |`;
  const worst = d.dev.worst.map(missRow);
  const unseenMisses = d.unseen.typed.worst.map(missRow);
  return [
    partTable(d.dev, 'dev', true),
    // The held-back part: its totals and kinds only, no domains and no misses (nothing to tune to).
    `\n${partTable({ ...d.heldBack, byCategory: kinds(d.heldBack) }, 'held-back', true)}`,
    // One misspelt word a query: totals only.
    `\n${partTable(d.misspelt.dev, 'dev, misspelt', false)}`,
    `\n${partTable(d.misspelt.heldBack, 'held-back, misspelt', false)}`,
    `\n${d.servers} servers, ${d.tools} tools; ${d.seconds} s`,
    `\n| worst misses of the dev part (step) | query | gold | first gold rank | top 5 |\n|---|---|---|---|---|\n${worst.join('\n')}`,
    `\n${partTable(d.unseen.typed, 'unseen', true)}`,
    `\n${partTable(d.unseen.misspelt, 'unseen, misspelt', false)}`,
    `\nunseen: ${d.unseen.servers} servers, ${d.unseen.tools} tools`,
    `\n| misses of the unseen part (step) | query | gold | first gold rank | top 5 |\n|---|---|---|---|---|\n${unseenMisses.join('\n')}`,
  ].join('\n');
}
