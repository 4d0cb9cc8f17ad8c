import { expect } from 'chai';
import { expectEachFloodWithin, tenthOf } from '../support/floods.js';

/** A reading that looks at every character from each position to the end, as a backtracking pattern does. */
function quadratic(text: string): void {
  let odd = 0;
  for (let i = 0; i < text.length; i++) for (let j = i; j < text.length; j++) odd += text.charCodeAt(j) & 1;
  if (odd < 0) throw new Error('unreachable');
}

/** A reading that looks at every character a fixed number of times. */
function linear(text: string): void {
  let odd = 0;
  for (let pass = 0; pass < 200; pass++) for (let i = 0; i < text.length; i++) odd += text.charCodeAt(i) & 1;
  if (odd < 0) throw new Error('unreachable');
}

describe('the flood check of the pattern tests (test/support/floods.ts)', () => {
  it('cuts a flood to a tenth of its length in whole units, keeping what comes before and after the run', () => {
    expect(tenthOf('a@' + 'b.'.repeat(50_000) + ':')).to.equal('a@' + 'b.'.repeat(4_999) + ':');
    expect(tenthOf('x' + ' '.repeat(100_000) + 'y')).to.equal('x' + ' '.repeat(9_999) + 'y');
    const sentence = 'in the last '.repeat(8_000) + '30 days';
    expect(tenthOf(sentence)).to.match(/^(in the last ){790,810}30 days$/);
    expect(() => tenthOf('a'.repeat(50_000) + 'b'.repeat(50_000))).to.throw(/breaks at/);
  });

  it('fails a reading that takes a hundred times as long for ten times the input, however long the bound', () => {
    expect(() => expectEachFloodWithin(['a'.repeat(10_000) + 'b'], 0.001, quadratic)).to.throw(/over 30x its tenth/);
  });

  it("passes a linear reading over its bound in milliseconds by its tenth's time, as on a busy machine", () => {
    expectEachFloodWithin(['ab'.repeat(50_000) + 'c'], 0.001, linear);
  });
});
