/**
 * gotpl render cost: compile once, then render typical workflow step arguments many times.
 * Several rounds; each figure is the median round's microseconds per render. Each render
 * gets a fresh budget with the default limits, as the workflow engine's do, so the figures
 * include the budget's checks.
 */
import { Budget, compile } from '../src/index.js';

/** aggregator.limits.templates defaults (schemas/config.schema.json). */
const LIMITS = { maxIterations: 100_000, maxOutputBytes: 1_048_576, maxMilliseconds: 50 };

export interface GotplFigure {
  name: string;
  perRenderMicros: number;
}

const data = {
  input: { name: 'alice', count: 3, tags: ['a', 'b', 'c'], price: 12.5 },
  results: {
    fetch: {
      id: 'abc123',
      status: 200,
      body: {
        items: [
          { id: 1, title: 'one' },
          { id: 2, title: 'two' },
        ],
        next: null,
      },
    },
    search: { hits: 42 },
  },
};

const CASES: ReadonlyArray<{ name: string; source: string; evaluate?: boolean }> = [
  { name: 'step argument: {{ .input.name }}-{{ .results.fetch.id }}', source: '{{ .input.name }}-{{ .results.fetch.id }}' },
  { name: 'evaluate: {{ .input.count }}', source: '{{ .input.count }}', evaluate: true },
  { name: 'evaluate: {{ .results.fetch.body | toJson }}', source: '{{ .results.fetch.body | toJson }}', evaluate: true },
  { name: 'printf: {{ printf "%s x%d @ %.2f" ... }}', source: '{{ printf "%s x%d @ %.2f" .input.name .input.count .input.price }}' },
  {
    name: 'range + if + default',
    source:
      '{{ range $i, $it := .results.fetch.body.items }}{{ if $i }}, {{ end }}{{ $it.title | upper }}{{ end }} ({{ .results.fetch.body.next | default "end" }})',
  },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function benchGotpl(options: { rounds?: number; iterations?: number } = {}): Promise<GotplFigure[]> {
  const rounds = options.rounds ?? 7;
  const iterations = options.iterations ?? 50_000;
  const figures: GotplFigure[] = [];
  let sink = 0;
  for (const c of CASES) {
    const t = compile(c.source);
    const run = c.evaluate
      ? () => t.evaluate(data, new Budget(LIMITS, 'aggregator.limits.templates'))
      : () => t.render(data, new Budget(LIMITS, 'aggregator.limits.templates'));
    for (let i = 0; i < Math.min(iterations, 5_000); i++) run(); // warm up the JIT
    const perRound: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) if (run() !== undefined) sink++;
      perRound.push(Number(process.hrtime.bigint() - start) / 1e3 / iterations);
    }
    figures.push({ name: c.name, perRenderMicros: Math.round(median(perRound) * 1000) / 1000 });
  }
  // Compile cost, for comparison: what caching a compiled template saves per use.
  const source = CASES[4]!.source;
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const n = Math.max(1, Math.floor(iterations / 20));
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) if (compile(source).name) sink++;
    perRound.push(Number(process.hrtime.bigint() - start) / 1e3 / n);
  }
  figures.push({ name: 'compile (range + if + default), per compile', perRenderMicros: Math.round(median(perRound) * 1000) / 1000 });
  if (sink < 0) throw new Error('unreachable'); // keeps the loops from being optimised away
  return figures;
}
