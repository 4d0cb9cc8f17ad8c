/**
 * What the differential suite cannot state: random functions (checked by alphabet, length
 * and range), the injectable clock, and the guards around sprig's functions (linear-time
 * regular expressions, budgets for what functions build, maps that cannot reach
 * Object.prototype or contain themselves).
 */
import { expect } from 'chai';
import { Budget, compile, TemplateBudgetError } from '../src/index.js';
import { failure, render } from './support/render.js';

const LIMITS = { maxIterations: 100_000, maxOutputBytes: 1_048_576, maxMilliseconds: 50 };

function budgetFailure(source: string, data: unknown = {}, limits = LIMITS): TemplateBudgetError {
  try {
    compile(source).render(data, new Budget(limits, 'aggregator.limits.templates'));
  } catch (e) {
    if (e instanceof TemplateBudgetError) return e;
    throw e;
  }
  throw new Error(`expected ${source} to exceed its budget`);
}

describe('gotpl: sprig random functions', () => {
  it('randAlphaNum, randAlpha, randAscii and randNumeric draw the given number of characters from their alphabets', () => {
    const out = ['randAlphaNum 40', 'randAlpha 40', 'randAscii 40', 'randNumeric 40', 'randAlpha 0', 'randAlpha -3'].map((call) => render(`{{ ${call} }}`));
    expect(out[0]).to.match(/^[A-Za-z0-9]{40}$/);
    expect(out[1]).to.match(/^[A-Za-z]{40}$/);
    expect(out[2]).to.match(/^[\x20-\x7e]{40}$/);
    expect(out[3]).to.match(/^[0-9]{40}$/);
    expect(out.slice(4)).to.deep.equal(['', '']);
    expect(render('{{ randAlphaNum 16 }}')).not.to.equal(render('{{ randAlphaNum 16 }}'));
  });

  it('shuffle permutes the runes of a string', () => {
    const s = 'héllo wörld 😀';
    const out = render('{{ shuffle . }}', s);
    expect(Array.from(out).sort()).to.deep.equal(Array.from(s).sort());
  });

  it('randInt MIN MAX stays in [MIN, MAX) and refuses an empty range as Go does', () => {
    for (let i = 0; i < 200; i++) {
      const n = Number(render('{{ randInt -3 4 }}'));
      expect(n).to.be.within(-3, 3);
    }
    expect(failure('{{ randInt 5 5 }}').reason).to.equal('error calling randInt: invalid argument to Intn');
  });

  it('uuidv4 gives a version 4 UUID', () => {
    expect(render('{{ uuidv4 }}')).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('a random string larger than the output budget is refused before it is built', () => {
    expect(budgetFailure('{{ randAlpha 100000000 }}').limit).to.equal('maxOutputBytes');
  });
});

describe('gotpl: the clock of the date functions', () => {
  it('now and the dates derived from it read the clock given to render', () => {
    const t = compile('{{ now }}|{{ now | date "2006-01-02T15:04:05.000Z07:00" }}|{{ now | unixEpoch }}|{{ ago (toDate "2006-01-02" "2024-03-01") }}');
    const at = Date.UTC(2024, 2, 5, 14, 7, 9, 123);
    expect(t.render({}, undefined, { now: () => at })).to.equal('2024-03-05 14:07:09.123 +0000 UTC|2024-03-05T14:07:09.123Z|1709647629|110h7m9s');
    expect(compile('{{ now | date "2006" }}').evaluate({}, undefined, { now: () => Date.UTC(1999, 0, 1) })).to.equal('1999');
  });

  it('evaluate gives a time or a version as the text the template prints, not a Go value', () => {
    const at = Date.UTC(2024, 2, 5, 14, 7, 9);
    expect(compile('{{ now }}').evaluate({}, undefined, { now: () => at })).to.equal('2024-03-05 14:07:09 +0000 UTC');
    expect(compile('{{ semver "v1.2.3" }}').evaluate({})).to.equal('1.2.3');
    expect(compile('{{ (now).Year }}').evaluate({}, undefined, { now: () => at })).to.equal(2024);
  });

  it('without a clock, now is the current time', () => {
    const before = Math.floor(Date.now() / 1000);
    const epoch = Number(render('{{ now | unixEpoch }}'));
    expect(epoch).to.be.within(before, Math.ceil(Date.now() / 1000));
  });

  it('functions that take a time refuse anything else with Go message', () => {
    expect(failure('{{ dateModify "1h" .s }}', { s: '2024-01-01' }).reason).to.equal('wrong type for value; expected time.Time; got string');
    expect(failure('{{ dateModify "1h" "2024-01-01" }}').reason).to.equal('can\'t handle "2024-01-01" for arg of type time.Time');
    expect(failure('{{ unixEpoch nil }}').reason).to.equal('cannot assign nil to time.Time');
  });
});

describe('gotpl: guards around sprig functions', () => {
  it('a regular expression written to backtrack catastrophically runs in linear time', () => {
    const input = 'a'.repeat(50_000) + '!';
    const started = performance.now();
    const out = compile('{{ regexMatch "^(a+)+$" .s }} {{ regexMatch "(a|aa)*(a|aa)*(a|aa)*c" .s }} {{ len (regexFindAll "(a*)*b" .s -1) }}').render(
      { s: input },
      new Budget(LIMITS),
    );
    expect(out).to.equal('false false 0');
    // A backtracking engine needs longer than the age of the universe for the first of these.
    expect(performance.now() - started).to.be.lessThan(2_000);
  });

  it('what RE2 cannot do (backreferences, lookaround) is refused with Go message', () => {
    expect(failure('{{ mustRegexMatch "(a)\\\\1" "aa" }}').reason).to.equal(
      'error calling mustRegexMatch: error parsing regexp: invalid escape sequence: `\\1`',
    );
    expect(failure('{{ mustRegexMatch "(?=a)" "a" }}').reason).to.equal(
      'error calling mustRegexMatch: error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    );
    expect(failure('{{ regexFind "(?<=a)b" "ab" }}').reason).to.equal(
      'error calling regexFind: regexp: Compile(`(?<=a)b`): error parsing regexp: invalid named capture: `(?<=a)b`',
    );
    expect(render('{{ regexMatch "(?!x)" "a" }}')).to.equal('false');
  });

  it('an overlong pattern is refused rather than compiled', () => {
    expect(failure('{{ mustRegexMatch .p "a" }}', { p: 'a'.repeat(5000) }).reason).to.equal(
      'error calling mustRegexMatch: error parsing regexp: expression too large',
    );
  });

  it('matching many times over a long input counts against the iteration budget', () => {
    // Time enough that a loaded machine reaches the iteration limit first (the loop also reads the clock).
    const e = budgetFailure('{{ regexFindAll "" .s -1 | len }}', { s: 'x'.repeat(200_000) }, { ...LIMITS, maxMilliseconds: 10_000 });
    expect(e.limit).to.equal('maxIterations');
  });

  it('lists and strings larger than the budget are refused before they are built', () => {
    expect(budgetFailure('{{ until 1000000000 }}').message).to.match(
      /until would build 1000000000 elements, more than 100000 loop iterations allow \(aggregator\.limits\.templates\.maxIterations\)$/,
    );
    expect(budgetFailure('{{ seq 1 1000000000 }}').limit).to.equal('maxIterations');
    expect(budgetFailure('{{ untilStep 0 1000000000 1 }}').limit).to.equal('maxIterations');
    expect(budgetFailure('{{ repeat 1000000000 "xy" }}').message).to.match(
      /repeat would build a value of 2000000000 bytes, more than 1048576 \(aggregator\.limits\.templates\.maxOutputBytes\)$/,
    );
    expect(budgetFailure('{{ indent 100000000 "x" }}').limit).to.equal('maxOutputBytes');
    expect(budgetFailure('{{ splitList "" .s }}', { s: 'x'.repeat(200_000) }).limit).to.equal('maxIterations');
  });

  it('functions that combine their inputs check the combined size before building it', () => {
    const big = { s: 'x'.repeat(100_000), sep: '-'.repeat(100_000) };
    expect(budgetFailure('{{ wrapWith 1 .sep .s }}', big).message).to.match(/wrapWith would build a value of \d+ bytes, more than 1048576/);
    expect(budgetFailure('{{ join .sep (list .s .s .s .s .s .s) }}', big).message).to.match(/join would build a value of \d+ bytes/);
    expect(budgetFailure('{{ cat .s .s .s .s .s .s .s .s .s .s .s }}', big).limit).to.equal('maxOutputBytes');
    expect(budgetFailure('{{ regexReplaceAll "x" .s .sep }}', big).message).to.match(/regexReplaceAll would build a value of \d+ bytes/);
    expect(budgetFailure('{{ replace "x" .sep .s }}', big).message).to.match(/replace would build a value of \d+ bytes/);
    // Counted exactly: a long string with few matches is not refused for what it might have become.
    const few = compile('{{ replace "y" "0123456789" .s | len }}').render({ s: 'x'.repeat(900_000) + 'yy' }, new Budget(LIMITS));
    expect(few).to.equal('900020');
  });

  it('dict, set and merge write __proto__ as an ordinary key, never to Object.prototype', () => {
    const out = render(
      '{{ $d := dict "__proto__" (dict "polluted" 1) }}{{ $_ := set $d "constructor" 2 }}{{ $m := merge (dict) (fromJson "{\\"__proto__\\":{\\"polluted\\":3}}") }}{{ keys $d | sortAlpha }} {{ keys $m }} {{ $d.__proto__.polluted }}',
    );
    expect(out).to.equal('[__proto__ constructor] [__proto__] 1');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.prototype).not.to.have.property('polluted');
  });

  it('a map cannot be made to contain itself (Go would overflow its stack printing it)', () => {
    expect(failure('{{ $d := dict }}{{ $_ := set $d "self" (list $d) }}{{ $d }}').reason).to.equal('error calling set: set would make a map contain itself');
    expect(failure('{{ $d := dict "a" (dict) }}{{ $_ := merge $d (dict "b" $d) }}').reason).to.equal(
      'error calling merge: merge would make a map contain itself',
    );
  });
});
