/**
 * Values that are small in memory and huge written out (issue 35, finding 1), and
 * functions whose own loops outlast the clock (finding 2). Each template here froze a
 * process, or blocked it for seconds, before sizes were charged when values are built and
 * functions read the clock inside their loops; each now ends within its budget.
 */
import { expect } from 'chai';
import { Budget, compile, TemplateBudgetError, TemplateExecError, type BudgetLimits } from '../src/index.js';

const SETTING = 'aggregator.limits.templates';
/** Switchboard's defaults (aggregator.limits.templates). */
const DEFAULTS: BudgetLimits = { maxIterations: 100_000, maxOutputBytes: 1_048_576, maxMilliseconds: 50 };
/**
 * The defaults with time enough, for the tests about sizes and depth: on a loaded machine the
 * 50 ms clock could stop a rendering before the limit a test is about (measured: the depth
 * refusal became a time refusal beside other tests). How long each rendering ran is still
 * held to ENDS_WITHIN_MS of CPU.
 */
const ROOMY: BudgetLimits = { ...DEFAULTS, maxMilliseconds: 5000 };
/** Far past the 50 ms limit, far short of the seconds these templates used to take. */
const ENDS_WITHIN_MS = 500;

/**
 * This process's CPU time in ms. What a rendering is held to is the work it does past its
 * budget, which CPU time measures on a loaded machine too; wall time there counts the turns
 * other processes had (778 ms of wall measured for 50 ms of work beside other tests).
 */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

interface Outcome {
  output?: string;
  error?: unknown;
  /** CPU time of the rendering (cpuMs). */
  ms: number;
  budget: Budget;
}

function run(source: string, data: unknown = {}, limits: BudgetLimits = ROOMY): Outcome {
  const budget = new Budget(limits, SETTING);
  const t = compile(source, { name: 'attack' });
  const started = cpuMs();
  try {
    const output = t.render(data, budget);
    return { output, ms: cpuMs() - started, budget };
  } catch (error) {
    return { error, ms: cpuMs() - started, budget };
  }
}

function budgetError(o: Outcome): TemplateBudgetError {
  expect(o.error, `expected a budget error, got ${String(o.output ?? o.error)}`).to.be.instanceOf(TemplateBudgetError);
  return o.error as TemplateBudgetError;
}

const SHARED_LIST = '{{ $d := list 1 }}{{ range until 40 }}{{ $d = list $d $d }}{{ end }}{{ toJson $d | len }}';
const SHARED_DICT = '{{ $d := list 1 }}{{ range until 30 }}{{ $d = dict "a" $d "b" $d }}{{ end }}{{ toJson $d | len }}';

describe('gotpl: written-out size is charged when a value is built', () => {
  it("refuses the finding's shared list as soon as a round passes the output limit", () => {
    const o = run(SHARED_LIST);
    const err = budgetError(o);
    expect(err.limit).to.equal('maxOutputBytes');
    expect(err.setting).to.equal(`${SETTING}.maxOutputBytes`);
    // [1] is 3 characters, each round doubles it and adds 3 (6 x 2^k - 3): the 18th round passes 1 MiB.
    expect(err.reason).to.match(
      /^template stopped: list would build a value of at least \d+ bytes written out, more than 1048576 \(aggregator\.limits\.templates\.maxOutputBytes\)$/,
    );
    // until's 40 elements, then 18 rounds.
    expect(o.budget.iterations).to.equal(40 + 18);
    expect(o.ms).to.be.below(ENDS_WITHIN_MS);
  });

  it('refuses the dict form (dict "a" $d "b" $d, 30 rounds) the same way', () => {
    const o = run(SHARED_DICT);
    const err = budgetError(o);
    expect(err.limit).to.equal('maxOutputBytes');
    expect(err.reason).to.include('dict would build a value of at least');
    expect(o.ms).to.be.below(ENDS_WITHIN_MS);
  });

  it('charges sharing as often as it is written: a value just under the limit is built, twice it is not', () => {
    // 15 rounds write 6 x 2^15 - 3 = 196,605 characters, 16 rounds 393,213; the limit is 200,000.
    const limits = { ...DEFAULTS, maxOutputBytes: 200_000, maxMilliseconds: 5000 };
    const built = run('{{ $d := list 1 }}{{ range until 15 }}{{ $d = list $d $d }}{{ end }}{{ toJson $d | len }}', {}, limits);
    expect(built.error).to.equal(undefined);
    expect(Number(built.output)).to.equal(196_605);
    expect(budgetError(run('{{ $d := list 1 }}{{ range until 16 }}{{ $d = list $d $d }}{{ end }}', {}, limits)).limit).to.equal('maxOutputBytes');
  });

  it('refuses to walk a value from the data larger written out than the output may be, before walking it', () => {
    const data = { big: Array.from({ length: 1000 }, (_, i) => 'x'.repeat(i % 50)) };
    const limits = { ...ROOMY, maxOutputBytes: 10_000 };
    for (const source of [
      '{{ toJson .big }}',
      '{{ printf "%v" .big }}',
      '{{ deepCopy .big }}',
      '{{ has "x" .big }}',
      '{{ uniq .big }}',
      '{{ .big }}',
      '{{ eq .big 1 }}',
    ]) {
      const err = budgetError(run(source, data, limits));
      expect(err.limit, source).to.equal('maxOutputBytes');
      expect(err.reason, source).to.match(/would walk a value of at least \d+ bytes written out, more than 10000/);
    }
    // Picking a part of it is not walking it.
    expect(run('{{ index .big 3 }}-{{ len .big }}-{{ first .big }}', data, limits).output).to.equal('xxx-1000-');
  });

  it('every walking function is refused on a shared value, before walking it', () => {
    const prefix = '{{ $d := list 1 }}{{ range until 20 }}{{ $d = list $d $d }}{{ end }}';
    const limits = { ...ROOMY, maxOutputBytes: 10_000_000 };
    for (const call of [
      'toJson $d',
      'toPrettyJson $d',
      'printf "%v" $d',
      'print $d',
      'deepCopy $d',
      'uniq $d',
      'has 1 $d',
      'eq $d 1',
      'without $d 1',
      'join "," $d',
      'sortAlpha $d',
      'cat $d',
    ]) {
      const o = run(`${prefix}{{ $x := list $d $d $d $d $d $d $d $d $d $d }}{{ ${call} }}`, {}, { ...limits, maxOutputBytes: 3_000_000 });
      const err = budgetError(o);
      expect(err.limit, call).to.equal('maxOutputBytes');
      expect(o.ms, call).to.be.below(ENDS_WITHIN_MS);
    }
  });

  it('a value built by set in a loop is charged entry by entry, in constant time per set', () => {
    const o = run('{{ $m := dict }}{{ range until 20000 }}{{ $_ := set $m (toString .) . }}{{ end }}{{ len $m }}', {}, { ...DEFAULTS, maxMilliseconds: 5000 });
    expect(o.output).to.equal('20000');
    const grown = run('{{ $m := dict }}{{ range until 100 }}{{ $_ := set $m (toString .) (repeat 20000 "x") }}{{ end }}{{ len $m }}');
    expect(budgetError(grown).reason).to.include('set would build a value of at least');
  });

  it('a set that grows a map some list holds is charged to the list too', () => {
    const source = '{{ $m := dict }}{{ $l := list $m $m $m $m $m $m $m $m $m $m }}{{ $_ := set $m "k" (repeat 200000 "x") }}{{ toJson $l | len }}';
    expect(budgetError(run(source)).limit).to.equal('maxOutputBytes');
  });

  it('refuses a value nested deeper than 1000 levels when it is built', () => {
    const o = run('{{ $d := list 1 }}{{ range until 5000 }}{{ $d = list $d }}{{ end }}{{ toJson $d | len }}');
    expect(o.error).to.be.instanceOf(TemplateExecError);
    expect((o.error as TemplateExecError).reason).to.equal('error calling list: value nested deeper than 1000 levels');
    // until's 5000 elements, then the rounds up to the refused one.
    expect(o.budget.iterations).to.equal(5000 + 1000);
  });
});

describe('gotpl: functions read the clock inside their own loops', () => {
  it('uniq is linear: 20,000 and 60,000 items take milliseconds, not the 5.5 s and 35.6 s of pairwise comparison', () => {
    // A generous limit, so that a loaded machine does not stop them: the point is that they finish.
    const roomy = { ...DEFAULTS, maxMilliseconds: 2000 };
    for (const [source, n] of [
      ['{{ until 20000 | uniq | len }}', '20000'],
      ['{{ until 60000 | uniq | len }}', '60000'],
      ['{{ until 60000 | toStrings | uniq | len }}', '60000'],
    ] as const) {
      const o = run(source, {}, roomy);
      expect(o.output, source).to.equal(n);
      expect(o.ms, source).to.be.below(roomy.maxMilliseconds);
    }
    expect(run('{{ list 1 1.5 "1" 1 (list 1) (list 1) (dict "a" 1) (dict "a" 1) nil nil true | uniq | toJson }}').output).to.equal(
      '[1,1.5,"1",[1],{"a":1},null,true]',
    );
    expect(run('{{ has (list 1) (list 2 (list 1)) }} {{ has 2 (list "2") }} {{ without (list 1 2 3 2) 2 | toJson }}').output).to.equal('true false [1,3]');
  });

  it('has inside a loop over 60,000 items stops at the time limit with a budget error', () => {
    const o = run('{{ $l := until 60000 }}{{ range $l }}{{ if has . $l }}{{ end }}{{ end }}', {}, DEFAULTS);
    const err = budgetError(o);
    expect(err.limit).to.equal('maxMilliseconds');
    expect(o.ms).to.be.below(ENDS_WITHIN_MS);
  });

  const megabyte = { big: 'aB-c_d Xy9 '.repeat(100_000) };
  for (const fn of ['kebabcase', 'snakecase', 'camelcase', 'title', 'swapcase', 'untitle', 'nospace', 'initials']) {
    it(`${fn} over a megabyte stops at the time limit, or ends within it`, () => {
      const o = run(`{{ ${fn} .big | len }}`, megabyte, { ...DEFAULTS, maxMilliseconds: 20, maxOutputBytes: 4_000_000 });
      if (o.error !== undefined) expect(budgetError(o).limit).to.equal('maxMilliseconds');
      expect(o.ms).to.be.below(ENDS_WITHIN_MS);
    });
  }

  it('regular expression loops, sortAlpha, join and toJson read the clock as they go', () => {
    const limits = { ...DEFAULTS, maxMilliseconds: 5, maxIterations: 10_000_000, maxOutputBytes: 50_000_000 };
    for (const source of [
      '{{ regexReplaceAll "([a-z])" .big "${1}x" | len }}',
      '{{ regexFindAll "[a-zA-Z]" .big -1 | len }}',
      '{{ $l := until 1000000 }}{{ sortAlpha $l | len }}',
      '{{ $l := until 1000000 }}{{ join "," $l | len }}',
      '{{ $l := until 1000000 }}{{ toPrettyJson $l | len }}',
    ]) {
      const o = run(source, megabyte, limits);
      if (o.error !== undefined) expect(budgetError(o).limit, source).to.equal('maxMilliseconds');
      expect(o.ms, source).to.be.below(ENDS_WITHIN_MS);
    }
  });
});
