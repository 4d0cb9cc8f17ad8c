import { expect } from 'chai';
import { createAjv } from '../../kernel/config/validate.js';
import { re2PatternEngine, re2Syntax } from '../../kernel/schema-patterns.js';

describe('tool schema patterns on RE2', () => {
  it('rewrites \\uXXXX and \\u{X} as RE2 writes them, and leaves an escaped backslash before a u alone', () => {
    expect(re2Syntax('^[\\u0041-\\u005A]+$')).to.equal('^[\\x{0041}-\\x{005A}]+$');
    expect(re2Syntax('\\u{1F600}')).to.equal('\\x{1F600}');
    expect(re2Syntax('\\\\u0041')).to.equal('\\\\u0041');
    expect(re2Syntax('\\d+\\.\\w')).to.equal('\\d+\\.\\w');
  });

  it('keeps each pattern of one ajv instance apart (ajv keys its cache on the compiled pattern as text)', () => {
    const ajv = createAjv({ code: { regExp: re2PatternEngine(() => undefined) } });
    const digits = ajv.compile({ type: 'string', pattern: '^[0-9]+$' });
    const letters = ajv.compile({ type: 'string', pattern: '^[a-z]+$' });
    expect([digits('123'), digits('abc'), letters('abc'), letters('123')]).to.deep.equal([true, false, true, false]);
  });

  it('matches in time linear in the text where a backtracking RegExp takes exponential or quadratic time', () => {
    const ajv = createAjv({ code: { regExp: re2PatternEngine(() => undefined) } });
    const validate = ajv.compile({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^(a|aa)+$' }, d: { type: 'string', pattern: '\\d+x' } },
      patternProperties: { '^(x+x+)+y$': { type: 'string' } },
      additionalProperties: false,
    });
    const started = process.cpuUsage();
    // Against JavaScript's RegExp: 32 letters took 143 ms, each one more about 1.6 times that;
    // 20,000 digits 3.7 s.
    expect(validate({ a: `${'a'.repeat(100_000)}b` })).to.equal(false);
    expect(validate({ d: '1'.repeat(100_000) })).to.equal(false);
    expect(validate({ ['x'.repeat(100_000)]: 'v' })).to.equal(false);
    expect(validate({ a: 'a'.repeat(100_000), d: `${'1'.repeat(100_000)}x`, [`${'x'.repeat(100_000)}y`]: 'v' })).to.equal(true);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).to.be.below(2_000);
  });

  it('says which pattern RE2 cannot run, once, and matches anything with it', () => {
    const told: string[] = [];
    const ajv = createAjv({ code: { regExp: re2PatternEngine((pattern) => told.push(pattern)) } });
    const first = ajv.compile({ type: 'string', pattern: '^(?=.*\\d).{4,}$' });
    const second = ajv.compile({ type: 'object', properties: { pin: { type: 'string', pattern: '^(?=.*\\d).{4,}$' } } });
    expect([first('abcd'), second({ pin: 'ab' }), second({ pin: 1 })]).to.deep.equal([true, true, false]);
    expect(told).to.deep.equal(['^(?=.*\\d).{4,}$']);
  });
});
