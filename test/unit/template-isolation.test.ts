/**
 * The template worker (plugins/workflows/template-isolation.ts), the backstop for a
 * rendering that gotpl's own budget cannot stop in time: such a rendering fails with the
 * budget error naming the template's place and the limit, its worker is terminated, and
 * the next rendering gets a new one. Which templates go there is gotpl's `mayLoop`.
 */
import { expect } from 'chai';
import { Budget, compile, TemplateBudgetError, TemplateExecError, type BudgetLimits } from '../../packages/gotpl/src/index.js';
import { ListTooLong, TemplateIsolation } from '../../plugins/workflows/template-isolation.js';
import { compileValue, mayLoop, RenderError, renderValue } from '../../plugins/workflows/templates.js';

const LIMITS: BudgetLimits = { maxIterations: 100_000, maxOutputBytes: 1_048_576, maxMilliseconds: 50 };
const where = (path: string) => `step 'a', argument '${path}'`;

async function failure(p: Promise<unknown>): Promise<RenderError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(RenderError);
    return e as RenderError;
  }
  throw new Error('expected the rendering to fail');
}

describe('workflows: templates that can loop or build render in a worker', function () {
  this.timeout(60_000);

  it('the line: field references and bounded-cost functions stay in-process; loops, template calls and other functions do not', () => {
    const flat = ['{{ .input.x }}', '{{ .input.x | default "y" }}', '{{ .results.a.body | toJson }}', '{{ printf "%s-%d" .a .b }}', '{{ if .a }}x{{ end }}'];
    const loops = [
      '{{ range .input.items }}x{{ end }}',
      '{{ until 3 }}',
      '{{ kebabcase .a }}',
      '{{ regexMatch "a" .b }}',
      '{{ define "t" }}x{{ end }}{{ template "t" }}',
      '{{ .a | uniq }}',
    ];
    for (const s of flat) expect(compile(s).mayLoop, s).to.equal(false);
    for (const s of loops) expect(compile(s).mayLoop, s).to.equal(true);
    expect(mayLoop(compileValue({ a: '{{ .x }}', b: ['lit', '{{ range 2 }}y{{ end }}'] }, where))).to.equal(true);
    expect(mayLoop(compileValue({ a: '{{ .x }}', b: ['lit'] }, where))).to.equal(false);
  });

  it('renders a value tree there with one budget, typed values and gotpl errors as in-process', async () => {
    const iso = new TemplateIsolation();
    const cv = compileValue({ n: '{{ until 4 | len }}', s: '{{ range .input.items }}{{ . }},{{ end }}', lit: 7 }, where);
    expect(await iso.render(cv, { input: { items: ['a', 'b'] } }, LIMITS)).to.deep.equal({ n: 4, s: 'a,b,', lit: 7 });

    const failing = compileValue({ q: '{{ range 2 }}{{ $.input.missing }}{{ end }}' }, where);
    const exec = await failure(iso.render(failing, { input: {} }, LIMITS));
    expect(exec.path).to.equal('q');
    expect(exec.templateError).to.be.instanceOf(TemplateExecError);
    expect(exec.message).to.equal(
      `template: step 'a', argument 'q':1:17: executing "step 'a', argument 'q'" at <$.input.missing>: map has no entry for key "missing"`,
    );
    // Word for word what the same rendering throws in-process.
    expect(() => renderValue(failing, { input: {} }, new Budget(LIMITS, 'aggregator.limits.templates'))).to.throw(exec.message);

    // Time enough that a loaded machine reaches the iteration limit first.
    const budget = await failure(iso.render(compileValue({ q: '{{ range 1000000 }}x{{ end }}' }, where), {}, { ...LIMITS, maxMilliseconds: 10_000 }));
    const over = budget.templateError;
    if (!(over instanceof TemplateBudgetError)) throw new Error(`expected a budget error, got ${over.message}`);
    expect(over.setting).to.equal('aggregator.limits.templates.maxIterations');
  });

  it('a rendering its budget cannot stop in time is stopped from outside: budget error, worker replaced, the next rendering served', async () => {
    // No grace at all and a 1 ms limit: one regular-expression match over most of a
    // megabyte is one step gotpl cannot divide, so only the terminated worker ends it.
    const iso = new TemplateIsolation(0);
    const slow = compileValue({ text: '{{ range 1 }}{{ regexMatch "(a|b)*c$" (repeat 60000 $.t) }}{{ end }}' }, where);
    const err = await failure(iso.render(slow, { t: 'aB-c_d Xy9 é€ ' }, { ...LIMITS, maxMilliseconds: 1 }));
    expect(err.path).to.equal('text');
    const e = err.templateError;
    if (!(e instanceof TemplateBudgetError)) throw new Error(`expected a budget error, got ${e.message}`);
    expect(e.limit).to.equal('maxMilliseconds');
    expect(e.message).to.equal(
      `template: step 'a', argument 'text': template stopped: rendering took more than 1 ms; its worker was stopped (aggregator.limits.templates.maxMilliseconds)`,
    );
    expect(await iso.render(compileValue({ n: '{{ until 2 | len }}' }, where), {}, LIMITS)).to.deep.equal({ n: 2 });
  });

  it("a list over the caller's maxItems comes back as its length only, not the list (a forEach refuses it anyway)", async () => {
    // 100,000 items took the main thread 10-50 ms to receive on a loaded two-core machine,
    // stalling /health during test/security/health-under-load's forEach attack.
    const iso = new TemplateIsolation();
    const items = compileValue('{{ split "" (printf "%0*d" .n 0) }}', where);
    const roomy = { ...LIMITS, maxMilliseconds: 10_000 };
    const long = await iso.render(items, { n: 100_000 }, roomy, 1000);
    expect(long).to.be.instanceOf(ListTooLong);
    expect((long as ListTooLong).length).to.equal(100_000);
    // At the limit, or without one, the list itself.
    expect(await iso.render(items, { n: 1000 }, roomy, 1000)).to.have.length(1000);
    expect(await iso.render(items, { n: 3 }, LIMITS)).to.deep.equal(['0', '0', '0']);
    // Not a list: the value, for the caller to refuse with its own words.
    expect(await iso.render(compileValue('{{ until 2 | len }}', where), {}, LIMITS, 1)).to.equal(2);
  });
});
