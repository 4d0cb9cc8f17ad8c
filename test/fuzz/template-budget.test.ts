/**
 * Template budgets (gotpl/budget.ts), generated: random nestings of ranges over huge
 * counts, strings doubled in loops, wide printf padding, replace that triples a string,
 * recursive {{template}} calls, under random limits. Every rendering either completes
 * within all three limits, its output counted to the byte, or stops with the typed budget
 * error naming the limit it passed; it never passes a count limit by more than the step
 * that crossed it, and never hangs.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Budget, compile, TemplateBudgetError, type BudgetLimits } from '../../packages/gotpl/src/index.js';

/** Fixed by default so CI is repeatable; FUZZ_SEED=<n> explores further. */
const SEED = Number(process.env.FUZZ_SEED ?? 23);
const SETTING = 'aggregator.limits.templates';

/**
 * Binary recursion 2^30 deep in calls and no loop at all: only the clock stops it. Every
 * generated template starts with it and declares $s, so that every piece is well typed.
 */
const PRELUDE =
  '{{ define "t" }}{{ if lt (len .) 30 }}{{ template "t" (printf "%sx" .) }}{{ template "t" (printf "%sy" .) }}{{ end }}{{ end }}{{ $s := "ab" }}';

const COUNTS = [0, 1, 2, 10, 1000, 100_000, 100_000_000];
const WIDTHS = [1, 10, 1000, 100_000, 999_999];

const body: fc.Arbitrary<string> = fc.letrec<{ body: string }>((tie) => ({
  body: fc
    .array(
      fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(
          'x',
          'abc',
          'é€😀',
          '{{ $s }}',
          '{{ len $s }}',
          '{{ $.input.text }}',
          '{{ $s = printf "%s%s" $s $s }}',
          '{{ $s = replace "" "ab" $s }}',
          '{{ template "t" "" }}',
        ),
        fc.constantFrom(...WIDTHS).map((w) => `{{ printf "%0${w}d" 7 }}`),
        fc.constantFrom(...WIDTHS).map((w) => `{{ $w := printf "%0${w}d" 7 }}`),
        fc.tuple(fc.constantFrom(...COUNTS), tie('body')).map(([n, inner]) => `{{ range ${n} }}${inner}{{ end }}`),
        tie('body').map((inner) => `{{ range $i, $v := $.input.list }}${inner}{{ end }}`),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((parts) => parts.join('')),
})).body;

const limits: fc.Arbitrary<BudgetLimits> = fc.record({
  maxIterations: fc.constantFrom(1, 10, 1000, 5000),
  maxOutputBytes: fc.constantFrom(1, 100, 10_000, 200_000),
  maxMilliseconds: fc.constantFrom(5, 20, 50),
});

const data = fc.record({
  input: fc.record({ text: fc.string({ maxLength: 20, unit: 'grapheme' }), list: fc.array(fc.nat(), { maxLength: 50 }) }),
});

/** Far past any limit generated here, yet short of "hangs": a fuzz run fails, not a mocha timeout. */
const NEVER_LONGER_MS = 3000;

describe('fuzz: template budgets', function () {
  this.timeout(120_000);

  it('every rendering completes within its limits or stops with the budget error naming the limit it passed', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 2 }), limits, data, (sources, lim, input) => {
        // Two templates under one budget, as a step's arguments are one rendering.
        const templates = sources.map((s, i) => compile(PRELUDE + s, { name: `fuzz${i}` }));
        const budget = new Budget(lim, SETTING);
        const started = performance.now();
        let written = 0;
        try {
          for (const t of templates) written += Buffer.byteLength(t.render(input, budget));
          seen.add('completed');
          expect(budget.iterations, 'iterations').to.be.at.most(lim.maxIterations);
          expect(budget.outputBytes, 'output counted to the byte').to.equal(written);
          expect(written, 'output').to.be.at.most(lim.maxOutputBytes);
        } catch (err) {
          if (!(err instanceof TemplateBudgetError)) throw err;
          seen.add(err.limit);
          expect(err.code).to.equal('TEMPLATE_BUDGET');
          expect(err.value).to.equal(lim[err.limit]);
          expect(err.setting).to.equal(`${SETTING}.${err.limit}`);
          expect(err.message).to.include(`(${SETTING}.${err.limit})`).and.include(String(lim[err.limit]));
          // Stopped at the crossing, not later: one iteration past the limit, never more.
          if (err.limit === 'maxIterations') expect(budget.iterations).to.equal(lim.maxIterations + 1);
          else expect(budget.iterations).to.be.at.most(lim.maxIterations);
          // The clock never stops a rendering early.
          if (err.limit === 'maxMilliseconds') expect(performance.now() - started).to.be.at.least(lim.maxMilliseconds);
        }
        expect(performance.now() - started, 'rendering time').to.be.below(NEVER_LONGER_MS);
      }),
      { numRuns: 300, seed: SEED },
    );
    // The generators reach every outcome; otherwise the property proves less than it says.
    expect([...seen].sort()).to.deep.equal(['completed', 'maxIterations', 'maxMilliseconds', 'maxOutputBytes']);
  });

  it('a value a function builds is bounded like the output, before it is printed or built upon', () => {
    const budget = new Budget({ maxIterations: 100, maxOutputBytes: 1000, maxMilliseconds: 1000 }, SETTING);
    const err = (() => {
      try {
        compile('{{ $s := "ab" }}{{ range 20 }}{{ $s = printf "%s%s" $s $s }}{{ end }}', { name: 'doubling' }).render({}, budget);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).to.be.instanceOf(TemplateBudgetError);
    // 2 x 2^9 = 1024 bytes is the first value over 1000: the ninth doubling.
    expect((err as TemplateBudgetError).message).to.match(
      /^template: doubling:1:\d+: executing "doubling" at <printf "%s%s" \$s \$s>: template stopped: printf built a value of 1024 bytes, more than 1000 \(aggregator\.limits\.templates\.maxOutputBytes\)$/,
    );
    expect(budget.iterations).to.equal(9);
  });

  it('counts output in UTF-8 bytes: text, printed values and multi-byte characters', () => {
    const budget = new Budget({ maxIterations: 10, maxOutputBytes: 1000, maxMilliseconds: 1000 }, SETTING);
    const out = compile('é{{ range 3 }}€{{ $.x }}{{ end }}😀').render({ x: 'ü1' }, budget);
    expect(budget.outputBytes)
      .to.equal(Buffer.byteLength(out))
      .and.equal(2 + 3 * (3 + 3) + 4);
  });
});
