import { expect } from 'chai';
import fc from 'fast-check';
import { compileGlob, GlobSyntaxError, MAX_GLOB_LENGTH } from '../../lib/glob.js';

/** What globs meant when they were compiled to regular expressions: the reference semantics. */
function viaRegExp(pattern: string, caseSensitive: boolean): RegExp {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      re += `[${body}]`;
      i = end;
    } else re += c.replace(/[.+^${}()|[\\\]]/g, '\\$&');
  }
  return new RegExp(`${re}$`, caseSensitive ? '' : 'i');
}

const PIECES = ['a', 'b', 'B', '_', '.', '*', '?', '[a-b]', '[!a]', '[xB_]', '**'];
const pattern = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join(''));
// ASCII names take the character-code path, the others the general one: both against the reference.
const name = fc.array(fc.constantFrom('a', 'b', 'A', 'B', '_', '.', 'x', 'é', 'É'), { maxLength: 10 }).map((p) => p.join(''));

describe('glob: tool-name patterns matched in linear steps', () => {
  it('matches exactly as the regular-expression form did, case-sensitive or not', () => {
    fc.assert(
      fc.property(pattern, name, fc.boolean(), (p, n, cs) => {
        expect(compileGlob(p, cs).test(n), `${p} ~ ${n} (case-sensitive: ${cs})`).to.equal(viaRegExp(p, cs).test(n));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers the backtracking attack at once: `*?` forty times and a character that is never there', () => {
    const attack = `${'*?'.repeat(40)}#`;
    const started = process.hrtime.bigint();
    expect(compileGlob(attack).test('x_'.repeat(60))).to.equal(false);
    // Microseconds here; the RegExp form took seconds at nine pairs and x3.4 per pair more.
    expect(Number(process.hrtime.bigint() - started) / 1e6).to.be.below(1000);
  });

  it('refuses patterns over the length limit and unclosed classes, naming why', () => {
    expect(() => compileGlob('a'.repeat(MAX_GLOB_LENGTH + 1))).to.throw(GlobSyntaxError, /at most 256/);
    expect(() => compileGlob('x_[ab')).to.throw(GlobSyntaxError, /unclosed '\['/);
    expect(() => compileGlob('[z-a]')).to.throw(GlobSyntaxError, /out of order/);
    expect(compileGlob('a[b', true, false).test('a[b')).to.equal(true);
  });
});
