import { expect } from 'chai';
import fc from 'fast-check';
import type { CatalogueEntry } from '../../kernel/index.js';
import { compileGlob } from '../../lib/glob.js';
import { matchNames } from '../../plugins/meta-tools/name-index.js';

/** Entries with only a name: all the index reads. */
const entries = (names: string[]): CatalogueEntry[] => names.map((name) => ({ name }) as CatalogueEntry);

const PIECES = ['x', 'X', '_', 'a', 'B', 'b', '*', '?', '[a-b]', '[!a]', 'É', 'é', '\u212a', 'k'];
const pattern = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join(''));
// Upper case, accented letters and the Kelvin sign (whose lower case is ASCII k).
const name = fc.array(fc.constantFrom('x', 'X', '_', 'a', 'A', 'b', 'B', 'É', 'é', '\u212a', 'k', 'K'), { maxLength: 8 }).map((p) => p.join(''));

describe('filter_tools pattern: the name index', () => {
  it('answers exactly what a scan of every name answers, in catalogue order, case-sensitive or not', () => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), pattern, fc.boolean(), (names, p, cs) => {
        const all = entries(names);
        const glob = compileGlob(p, cs);
        expect(
          matchNames(all, glob).map((e) => e.name),
          `${p} (case-sensitive: ${cs}) over ${JSON.stringify(names)}`,
        ).to.deep.equal(all.filter((e) => glob.test(e.name)).map((e) => e.name));
      }),
      { numRuns: 3000 },
    );
  });

  it('narrows by the literal start and the longest literal run, folded to lower case', () => {
    expect(compileGlob('X_GitHub*_list_*')).to.include({ prefix: 'x_github', infix: 'x_github' });
    expect(compileGlob('*delete_thing*', true)).to.include({ prefix: '', infix: 'delete_thing' });
    expect(compileGlob('?ab*')).to.include({ prefix: '', infix: 'ab' });
    expect(compileGlob('x[ab]yz*')).to.include({ prefix: 'x', infix: 'yz' });
    // A literal beyond ASCII ends the run: folding it is not the index's business.
    expect(compileGlob('aÉbc')).to.include({ prefix: 'a', infix: 'bc' });
  });
});
