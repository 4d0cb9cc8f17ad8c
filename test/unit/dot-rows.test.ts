/**
 * The hybrid query's dot products in WebAssembly SIMD (plugins/meta-tools/dot-rows.ts): the
 * bytes it carries are what dot-rows.wat assembles to, and every product matches plain
 * arithmetic, whatever the dimension's padding.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import wabt from 'wabt';
import { DOT_ROWS_WASM, DotRows } from '../../plugins/meta-tools/dot-rows.js';
import { ROOT } from '../support/harness.js';

/** A fixed pseudo-random sequence in [-0.5, 0.5): the same numbers every run. */
function numbers(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32 - 0.5;
  };
}

describe('dot products of a query with every row (WebAssembly SIMD)', () => {
  it('carries exactly the module dot-rows.wat assembles to', async () => {
    const text = readFileSync(join(ROOT, 'plugins/meta-tools/dot-rows.wat'), 'utf8');
    const module = (await wabt()).parseWat('dot-rows.wat', text, { simd: true });
    try {
      expect(Buffer.from(module.toBinary({}).buffer).equals(Buffer.from(DOT_ROWS_WASM))).to.equal(true);
    } finally {
      module.destroy();
    }
  });

  for (const dimension of [1, 7, 8, 48, 300]) {
    it(`matches plain arithmetic at dimension ${dimension} (rows padded to ${Math.ceil(dimension / 8) * 8})`, () => {
      const next = numbers(dimension * 7919 + 1);
      const count = 37;
      const matrix = new DotRows(count, dimension);
      const rows = Array.from({ length: count }, () => Float32Array.from({ length: dimension }, next));
      rows.forEach((r, i) => matrix.set(i, r));
      const query = Float32Array.from({ length: dimension }, next);
      const dots = matrix.scan(query);
      expect(dots.length).to.equal(count);
      rows.forEach((r, i) => {
        let expected = 0;
        for (let d = 0; d < dimension; d++) expected += query[d]! * r[d]!;
        expect(dots[i]).to.be.closeTo(expected, 1e-5);
        expect([...matrix.row(i)]).to.deep.equal([...r]);
      });
      // A second query overwrites the first one's products.
      const other = Float32Array.from({ length: dimension }, next);
      const again = matrix.scan(other);
      let first = 0;
      for (let d = 0; d < dimension; d++) first += other[d]! * rows[0]![d]!;
      expect(again[0]).to.be.closeTo(first, 1e-5);
    });
  }

  it('an empty matrix answers no products', () => {
    expect(new DotRows(0, 48).scan(new Float32Array(48)).length).to.equal(0);
  });
});
