/**
 * The deliberate differences from Go listed in docs/gotpl.md, one specification each.
 */
import { expect } from 'chai';
import { TemplateParseError } from '../src/index.js';
import { failure, render } from './support/render.js';

describe('gotpl: numbers (deliberate differences from Go)', () => {
  it('an integer-valued number is an int: %d prints it, %T says int, even if written 3.0 or 1e3', () => {
    expect(render('{{ printf "%d %d %T" 3.0 1e3 3.0 }}')).to.equal('3 1000 int');
    expect(render('{{ printf "%d" .n }}', { n: 3 })).to.equal('3');
  });

  it('a number with a fraction is a float64, and %d rejects it as Go would', () => {
    expect(render('{{ printf "%d|%T" 3.5 3.5 }}')).to.equal('%!d(float64=3.5)|float64');
  });

  it('integer-valued data prints as an integer, where Go (JSON float64) would use exponent form', () => {
    expect(render('{{ .n }}', { n: 100000000 })).to.equal('100000000');
    expect(render('{{ .n }}', { n: 1e21 })).to.equal('1e+21'); // beyond int64: a float64
  });

  it('the float verbs accept integer-valued numbers', () => {
    expect(render('{{ printf "%.2f|%e|%g" .price 3 10 }}', { price: 10 })).to.equal('10.00|3.000000e+00|10');
  });

  it('numbers compare numerically whether int or float', () => {
    expect(render('{{ eq 3 3.0 }} {{ lt 1 1.5 }} {{ ge .n 2 }} {{ eq .n 2.5 }}', { n: 2.5 })).to.equal('true true true true');
  });

  it('integer-valued data numbers index, slice and range like ints', () => {
    const data = { l: ['a', 'b', 'c'], i: 1, n: 2 };
    expect(render('{{ index .l .i }} {{ slice .l .i }} {{ range .n }}{{ . }}{{ end }}', data)).to.equal('b [b c] 01');
  });

  it('integers beyond 2^53 are IEEE doubles and lose precision', () => {
    expect(render('{{ 9007199254740993 }}')).to.equal('9007199254740992');
  });

  it('negative zero is the int 0', () => {
    expect(render('{{ .z }} {{ printf "%v" -0.0 }}', { z: -0 })).to.equal('0 0');
  });

  it('complex literals are rejected at compile time', () => {
    const e = failure('{{ 1+2i }}');
    expect(e).to.be.instanceOf(TemplateParseError);
    expect(e.reason).to.equal('complex numbers are not supported: "1+2i"');
  });

  it('index of a string yields an int (Go: uint8)', () => {
    expect(render('{{ printf "%T %v" (index "abc" 0) (index "abc" 0) }}')).to.equal('int 97');
  });
});

describe('gotpl: strings, slices and functions (deliberate differences from Go)', () => {
  it('slicing through a multi-byte UTF-8 character yields U+FFFD, not raw bytes', () => {
    expect(render('{{ slice "héllo" 0 2 }}')).to.equal('h\uFFFD');
  });

  it('slice cannot go past the length of an array (no spare capacity)', () => {
    expect(failure('{{ slice .l 0 3 }}', { l: [1, 2] }).reason).to.equal('error calling slice: index out of range: 3');
  });

  it('a function value prints as <func Value> rather than an address', () => {
    expect(render('{{ printf "%v" .f }}', { f: () => 1 })).to.equal('<func Value>');
    expect(failure('{{ .f }}', { f: () => 1 }).reason).to.equal("can't print {{.f}} of type func(...interface {}) interface {}");
  });

  it('JavaScript objects are maps of their own properties; undefined properties are absent', () => {
    expect(failure('{{ .a }}', { a: undefined }).reason).to.equal('map has no entry for key "a"');
    expect(render('{{ . }}', { b: 1, a: undefined })).to.equal('map[b:1]');
  });
});
