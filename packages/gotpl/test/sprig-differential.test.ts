/**
 * The sprig library against Go's own: every case runs through Go's text/template with
 * Masterminds/sprig/v3 (support/sprig-oracle.ts builds and caches a small Go program) and
 * through gotpl, with the same fixed clock, and must give the same output or the same
 * error. The documented differences (docs/gotpl.md) are recognised and counted; anything
 * else fails. Skipped, saying why, only where Go is not installed.
 */
import { expect } from 'chai';
import type { Outcome } from './support/oracle.js';
import { GENERATED_FUNCTIONS, generateSprigCases, SPRIG_DATA } from './support/sprig-cases.js';
import { buildOracle, runGoBatch, runOurs } from './support/sprig-oracle.js';
import type { SprigCase } from './support/sprig-oracle.js';
import { SPRIG_CURATED } from './support/sprig-curated.js';
import { SPRIG } from '../src/sprig/index.js';

/** Random by nature: their specification (sprig.test.ts) checks alphabets, lengths and ranges. */
const RANDOM = ['randAlphaNum', 'randAlpha', 'randAscii', 'randNumeric', 'shuffle', 'randInt', 'uuidv4'];

const SEED = 0x5971_6e03;
const GENERATED = 6000;

type Verdict = 'identical' | Difference | 'mismatch';

/** The differences docs/gotpl.md documents, each recognised by what it does to an outcome. */
type Difference = 'integral float' | 'int width' | 'beyond 2^53' | 'negative zero' | 'html escape' | 'json wording' | 'invalid utf-8';

const DIFFERENCES: readonly Difference[] = ['integral float', 'int width', 'beyond 2^53', 'negative zero', 'html escape', 'json wording', 'invalid utf-8'];

/** Integers past 2^53 are doubles in gotpl: equal when both sides round to the same double. */
function sameDoubles(go: string, ours: string): boolean {
  const g = go.split(/(-?\d{16,})/);
  const o = ours.split(/(-?\d{16,})/);
  return g.length === o.length && g.every((part, i) => (i % 2 === 1 ? Number(part) === Number(o[i]) : part === o[i]));
}

/** An integer literal, or a conversion that yields an integer, in a template. */
const INTEGERS = /(^|[\s(|])-?\d+(?=[\s)}|])|\b(int|int64|atoi|len|add|sub|mul|div|mod)\b/;

/** Go prints an integer-valued float64 with an exponent from 1e21 (and %v from 1e+06 on the way); gotpl's is an int. */
function expandFloats(s: string): string {
  return s.replace(/(-?\d(?:\.\d+)?)e\+(\d\d)/g, (m, mantissa: string, exp: string) => {
    const n = Number(`${mantissa}e${exp}`);
    return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : m;
  });
}

function classify(c: SprigCase, go: Outcome, ours: Outcome): Verdict {
  const g = JSON.stringify(go);
  const o = JSON.stringify(ours);
  if (g === o) return 'identical';
  if (go.kind === 'ok' && ours.kind === 'ok') {
    if (expandFloats(go.output) === ours.output) return 'integral float';
    if (
      go.output
        .replace(/\\u003c/g, '<')
        .replace(/\\u003e/g, '>')
        .replace(/\\u0026/g, '&') === ours.output
    )
      return 'html escape';
    if (go.output.replace(/\uFFFD+/g, '\uFFFD') === ours.output.replace(/\uFFFD+/g, '\uFFFD')) return 'invalid utf-8';
    if (sameDoubles(go.output, ours.output)) return 'beyond 2^53';
    if (go.output.replace(/(^|[\s[])-0(?=$|[\s\]])/g, '$10') === ours.output) return 'negative zero';
  }
  if (go.kind === ours.kind && g.replace(/(type|got) int64/g, '$1 int') === o) return 'int width';
  // Go has int, int64 and float64 where gotpl has numbers: an int64 result given to an int
  // parameter, an int given where sprig's type switch wants int64, an integral float literal.
  if (go.kind === 'exec' && /wrong type for value; expected (int|float64); got (int64|int|float64)/.test(go.message) && ours.kind === 'ok') return 'int width';
  // sprig's date functions take an int64 (duration) or an int (date) by type switch, not a number of any width.
  if (
    /\b(duration|durationRound|date|dateInZone|date_in_zone|htmlDate|htmlDateInZone|ago)\b/.test(c.template) &&
    go.kind === 'ok' &&
    ours.kind === 'ok' &&
    INTEGERS.test(c.template)
  ) {
    return 'int width';
  }
  if (/\b(fromJson|mustFromJson)\b/.test(c.template) && (go.kind === 'exec' || ours.kind === 'exec')) return 'json wording';
  return 'mismatch';
}

function describe1(c: SprigCase, go: Outcome, ours: Outcome): string {
  return [`template: ${c.template}`, `go:   ${JSON.stringify(go)}`, `ours: ${JSON.stringify(ours)}`].join('\n');
}

describe('gotpl: sprig functions against Go text/template + Masterminds/sprig/v3', function () {
  // Building the oracle the first time fetches sprig through the Go module proxy.
  this.timeout(300_000);
  let binary: string | null = null;
  const tally = new Map<string, number>();
  const bump = (k: string): void => {
    tally.set(k, (tally.get(k) ?? 0) + 1);
  };

  before(function () {
    binary = buildOracle();
    if (binary === null) {
      console.log('      sprig differential skipped: `go` is not installed (https://go.dev/dl/)');
      this.skip();
    }
  });

  after(() => {
    if (binary === null) return;
    const line = [...tally].map(([k, v]) => `${k}: ${v}`).join(', ');
    console.log(`      sprig differential summary (${SPRIG_CURATED.length} curated + ${GENERATED} generated cases): ${line}`);
  });

  function check(cases: readonly SprigCase[]): string[] {
    const gos = runGoBatch(binary!, cases);
    const problems: string[] = [];
    cases.forEach((c, i) => {
      const go = gos[i]!;
      const ours = runOurs(c);
      const verdict = classify(c, go, ours);
      bump(go.kind);
      bump(verdict);
      if (verdict === 'mismatch') problems.push(describe1(c, go, ours));
    });
    return problems;
  }

  it('generates calls of every function Switchboard offers but the random ones', () => {
    const generated = new Set(GENERATED_FUNCTIONS);
    expect(Object.keys(SPRIG).filter((name) => !generated.has(name) && !RANDOM.includes(name))).to.deep.equal([]);
  });

  it(`agrees on ${SPRIG_CURATED.length} hand-picked cases`, () => {
    const problems = check(SPRIG_CURATED.map(([template, data]) => ({ template, data: data ?? SPRIG_DATA })));
    expect(problems, problems.slice(0, 30).join('\n\n')).to.have.length(0);
  });

  it(`agrees on ${GENERATED} generated calls over ${GENERATED_FUNCTIONS.length} functions (seed ${SEED})`, () => {
    const problems = check(generateSprigCases(SEED, GENERATED));
    expect(problems, `${problems.length} mismatches, the first:\n\n` + problems.slice(0, 30).join('\n\n')).to.have.length(0);
  });

  it('the generated calls produce output as well as errors, and few documented differences', () => {
    expect(tally.get('ok') ?? 0).to.be.greaterThan(GENERATED * 0.5);
    expect(tally.get('exec') ?? 0).to.be.greaterThan(GENERATED * 0.05);
    const documented = DIFFERENCES.reduce((n, k) => n + (tally.get(k) ?? 0), 0);
    expect(documented).to.be.lessThan(GENERATED * 0.05);
  });
});
