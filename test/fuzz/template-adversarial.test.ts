/**
 * Adversarial templates, generated (issue 35): values shared so that they double every
 * round, nesting, the functions whose cost grows with their input applied at the largest
 * input a caller can send (1 MiB of text, 100,000 numbers), and consumers that walk what
 * was built (toJson, printf "%v", deepCopy, uniq, has, eq...). Under Switchboard's default
 * limits every one ends within its budget: it completes, stops with the budget error
 * naming a limit, or fails with an execution error (a value nested past 1000 levels, a
 * function given what it cannot take), and never runs much past the time limit.
 *
 * Seeded (FUZZ_SEED=<n> explores further); fast-check prints the seed and the shrunk
 * template of a failure, so any failure replays with `FUZZ_SEED=<seed>`.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Budget, compile, TemplateBudgetError, TemplateExecError, type BudgetLimits } from '../../packages/gotpl/src/index.js';

const SEED = Number(process.env.FUZZ_SEED ?? 35);
const RUNS = 160;
const SETTING = 'aggregator.limits.templates';
const LIMITS: BudgetLimits = { maxIterations: 100_000, maxOutputBytes: 1_048_576, maxMilliseconds: 50 };
/**
 * Ten times the time limit: room for a loaded machine and the last step that crossed the
 * limit, far short of the seconds (and, for sharing, the hours) these templates took before.
 */
const ENDS_WITHIN_MS = 10 * LIMITS.maxMilliseconds;

/**
 * This process's CPU time in ms: a rendering is held to the work it does past its budget,
 * which CPU time measures on a loaded machine too, where wall time also counts the turns
 * other processes had (778 ms of wall for a rendering beside other tests).
 */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** What a caller can put in 1 MiB of arguments: a string, or about 100,000 small integers. */
const DATA = {
  input: {
    big: 'aB-c_d Xy9 é€ '.repeat(1_048_576 / 16),
    list: Array.from({ length: 100_000 }, (_, i) => i % 70_000),
    words: Array.from({ length: 20_000 }, (_, i) => `w${i % 15_000}`),
  },
};

/** Ways to build $d, each starting from `$d := list 1` or `$d := .input.list`; N rounds. */
const BUILDERS = [
  (n: number) => `{{ range until ${n} }}{{ $d = list $d $d }}{{ end }}`,
  (n: number) => `{{ range until ${n} }}{{ $d = dict "a" $d "b" $d }}{{ end }}`,
  (n: number) => `{{ range until ${n} }}{{ $d = concat $d $d }}{{ end }}`,
  (n: number) => `{{ range until ${n} }}{{ $d = append $d $d }}{{ end }}`,
  (n: number) => `{{ range until ${n} }}{{ $d = list $d }}{{ end }}`,
  (n: number) => `{{ range until ${n} }}{{ $_ := set $m (toString .) $d }}{{ end }}{{ $d = list $m $m }}`,
  (n: number) => `{{ range until ${n} }}{{ $d = list (deepCopy $d) $d }}{{ end }}`,
  (n: number) => `{{ range until ${n} }}{{ $d = uniq (concat $d $d) }}{{ end }}`,
];

const ROUNDS = [0, 1, 10, 20, 30, 40, 2000];

const START = ['{{ $d := list 1 }}', '{{ $d := .input.list }}', '{{ $d := .input.words }}', '{{ $d := dict "k" .input.big }}'];

/** What is done with $d afterwards: the walkers and the quadratic functions. */
const CONSUMERS = [
  '{{ toJson $d | len }}',
  '{{ toPrettyJson $d | len }}',
  '{{ printf "%v" $d | len }}',
  '{{ printf "%#v" $d | len }}',
  '{{ deepCopy $d | len }}',
  '{{ uniq $d | len }}',
  '{{ has 1 $d }}',
  '{{ without $d 1 2 | len }}',
  '{{ eq $d 1 }}',
  '{{ $d }}',
  '{{ len $d }}',
  '{{ join "," $d | len }}',
  '{{ sortAlpha $d | len }}',
  '{{ toStrings $d | uniq | len }}',
  '{{ cat $d | len }}',
  '{{ deepEqual $d $d }}',
  '{{ range $d }}{{ if has . $d }}{{ end }}{{ end }}',
  '{{ range $d }}{{ $x := uniq $d }}{{ end }}',
];

/** Functions at the largest input, with no $d at all. */
const ON_BIG_INPUT = [
  '{{ kebabcase .input.big | len }}',
  '{{ snakecase .input.big | len }}',
  '{{ camelcase .input.big | len }}',
  '{{ title .input.big | len }}',
  '{{ swapcase .input.big | len }}',
  '{{ untitle .input.big | len }}',
  '{{ upper .input.big | len }}',
  '{{ nospace .input.big | len }}',
  '{{ wrap 3 .input.big | len }}',
  '{{ regexFindAll "[a-z]" .input.big -1 | len }}',
  '{{ regexReplaceAll "([a-z])" .input.big "${1}${1}" | len }}',
  '{{ regexSplit " " .input.big -1 | len }}',
  '{{ split " " .input.big | uniq | len }}',
  '{{ .input.list | uniq | len }}',
  '{{ .input.list | sortAlpha | len }}',
  '{{ .input.words | uniq | len }}',
  '{{ until 100000 | uniq | len }}',
  '{{ $l := until 60000 }}{{ range $l }}{{ if has . $l }}{{ end }}{{ end }}',
  '{{ printf "%v" .input.list | len }}',
  '{{ toJson .input.list | len }}',
  '{{ repeat 1000000 "x" | len }}',
  '{{ seq 100000 | len }}',
];

const template: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...START),
      fc.array(fc.tuple(fc.constantFrom(...BUILDERS), fc.constantFrom(...ROUNDS)), { minLength: 1, maxLength: 2 }),
      fc.constantFrom(...CONSUMERS),
    )
    .map(([start, builds, consume]) => `{{ $m := dict }}${start}${builds.map(([b, n]) => b(n)).join('')}${consume}`),
  fc.array(fc.constantFrom(...ON_BIG_INPUT), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
);

describe('fuzz: adversarial templates end within their budget', function () {
  this.timeout(300_000);

  it(`${RUNS} generated templates (sharing, nesting, quadratic functions at the largest input) each end within the budget`, () => {
    const outcomes = new Map<string, number>();
    const count = (k: string): void => void outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    fc.assert(
      fc.property(template, (source) => {
        const budget = new Budget(LIMITS, SETTING);
        const t = compile(source, { name: 'adversarial' });
        const started = cpuMs();
        try {
          const out = t.render(DATA, budget);
          expect(Buffer.byteLength(out)).to.be.at.most(LIMITS.maxOutputBytes);
          count('completed');
        } catch (err) {
          if (err instanceof TemplateBudgetError) {
            expect(err.setting).to.equal(`${SETTING}.${err.limit}`);
            count(err.limit);
          } else if (err instanceof TemplateExecError) {
            // A value nested past 1000 levels, or a function given what it cannot take (append to a map): an ending too.
            count(/deeper than 1000 levels/.test(err.reason) ? 'depth' : 'exec');
          } else throw err;
        }
        const ms = cpuMs() - started;
        expect(ms, `took ${ms.toFixed(0)} ms of CPU`).to.be.below(ENDS_WITHIN_MS);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator reaches the limits it is about; otherwise the property proves less than it says.
    expect([...outcomes.keys()], JSON.stringify([...outcomes])).to.include.members(['completed', 'maxOutputBytes', 'maxMilliseconds', 'depth']);
  });
});
