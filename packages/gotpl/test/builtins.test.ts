import { expect } from 'chai';
import { failure, render } from './support/render.js';

describe('gotpl: logic builtins', () => {
  it('and returns the first false argument or the last one', () => {
    expect(render('{{ and 1 0 2 }}|{{ and 1 "x" }}|{{ and "" 1 }}')).to.equal('0|x|');
  });

  it('or returns the first true argument or the last one', () => {
    expect(render('{{ or 0 "" 3 }}|{{ or 0 "" }}|{{ or .a "fallback" }}', { a: '' })).to.equal('3||fallback');
  });

  it('and/or short-circuit: later arguments are not evaluated', () => {
    expect(render('{{ or 1 .missing }}')).to.equal('1');
    expect(render('{{ and 0 (index nil 1) }}')).to.equal('0');
  });

  it('not negates truthiness', () => {
    expect(render('{{ not 0 }} {{ not "x" }} {{ not .l }}', { l: [] })).to.equal('true false true');
  });

  it('check their argument counts', () => {
    expect(failure('{{ and }}').reason).to.equal('wrong number of args for and: want at least 1 got 0');
    expect(failure('{{ not 1 2 }}').reason).to.equal('wrong number of args for not: want 1 got 2');
  });
});

describe('gotpl: comparisons', () => {
  it('eq with several arguments is true if the first equals any other', () => {
    expect(render('{{ eq 1 2 3 1 }} {{ eq "a" "b" "c" }}')).to.equal('true false');
  });

  it('ne, lt, le, gt, ge compare numbers and strings', () => {
    expect(render('{{ ne 1 2 }} {{ lt 1 2 }} {{ le 2 2 }} {{ gt "b" "a" }} {{ ge "a" "b" }}')).to.equal('true true true true false');
  });

  it('compare nil with anything without error', () => {
    expect(render('{{ eq .n nil }} {{ eq 1 nil }} {{ eq .l nil }}', { n: null, l: [1] })).to.equal('true false false');
  });

  it('refuse incompatible and non-basic types, as Go does', () => {
    expect(failure('{{ eq "1" 1 }}').reason).to.equal('error calling eq: incompatible types for comparison: string and int');
    expect(failure('{{ lt true false }}').reason).to.equal('error calling lt: invalid type for comparison');
    expect(failure('{{ eq .l .l }}', { l: [1] }).reason).to.equal('error calling eq: non-comparable type [%!s(int=1)]: []interface {}');
    expect(failure('{{ eq 1 }}').reason).to.equal('error calling eq: missing argument for comparison');
  });
});

describe('gotpl: len, index and slice', () => {
  const data = {
    l: ['a', 'b', 'c'],
    m: { k: 'v', n: null },
    grid: [
      [1, 2],
      [3, 4],
    ],
    s: 'héllo',
  };

  it('len counts elements, keys, and UTF-8 bytes of strings', () => {
    expect(render('{{ len .l }} {{ len .m }} {{ len .s }}', data)).to.equal('3 2 6');
    expect(failure('{{ len 3 }}').reason).to.equal('error calling len: len of type int');
  });

  it('index looks up arrays, maps and strings (bytes), in several dimensions', () => {
    expect(render('{{ index .l 1 }} {{ index .m "k" }} {{ index .grid 1 0 }} {{ index "abc" 1 }}', data)).to.equal('b v 3 98');
  });

  it('index yields nil for a missing map key instead of an error', () => {
    expect(render('{{ index .m "zz" }}', data)).to.equal('<no value>');
  });

  it('index reports out-of-range and bad indexes', () => {
    expect(failure('{{ index .l 3 }}', data).reason).to.equal('error calling index: reflect: slice index out of range');
    expect(failure('{{ index .l -1 }}', data).reason).to.equal('error calling index: index out of range: -1');
    expect(failure('{{ index .l "x" }}', data).reason).to.equal('error calling index: cannot index slice/array with type string');
    expect(failure('{{ index .m 1 }}', data).reason).to.equal('error calling index: value has type int; should be string');
    expect(failure('{{ index nil 1 }}').reason).to.equal('error calling index: index of untyped nil');
  });

  it('slice takes sub-arrays and substrings like Go slice expressions', () => {
    expect(render('{{ slice .l 1 }} {{ slice .l 0 2 }} {{ slice .l }} {{ slice "abcdef" 2 4 }}', data)).to.equal('[b c] [a b] [a b c] cd');
    expect(failure('{{ slice .l 2 1 }}', data).reason).to.equal('error calling slice: invalid slice index: 2 > 1');
    expect(failure('{{ slice "abc" 1 2 3 }}').reason).to.equal('error calling slice: cannot 3-index slice a string');
  });
});

describe('gotpl: printing and escaping builtins', () => {
  it('print adds spaces only between operands that are both non-strings', () => {
    expect(render('{{ print 1 2 "a" 3 nil 4 "b" "c" }}')).to.equal('1 2a3 <nil> 4bc');
  });

  it('println separates all operands and ends the line', () => {
    expect(render('{{ println 1 "a" true }}')).to.equal('1 a true\n');
  });

  it('printf formats like Go fmt.Sprintf', () => {
    expect(render('{{ printf "%s has %d items (%.1f%%)" .n 3 42.25 }}', { n: 'cart' })).to.equal('cart has 3 items (42.2%)');
  });

  it('printf requires a string format', () => {
    expect(failure('{{ printf 1 }}').reason).to.equal('expected string; found 1');
  });

  it('html escapes HTML special characters', () => {
    expect(render(`{{ html "<a href='x'>&\\"</a>" }}`)).to.equal('&lt;a href=&#39;x&#39;&gt;&amp;&#34;&lt;/a&gt;');
  });

  it('js escapes for JavaScript string literals', () => {
    expect(render(`{{ js "<a href='x'>=\\u2028é" }}`)).to.equal("\\u003Ca href\\u003D\\'x\\'\\u003E\\u003D\\u2028é");
  });

  it('urlquery escapes for URL query components', () => {
    expect(render('{{ urlquery "a b&c=d/é~*!" }}')).to.equal('a+b%26c%3Dd%2F%C3%A9~%2A%21');
  });

  it('the escapers print several arguments with Sprint rules and nil as <no value>', () => {
    expect(render('{{ html 1 2 }} {{ urlquery .n }}', { n: null })).to.equal('1 2 %3Cno+value%3E');
  });

  it('call invokes a function value with arguments', () => {
    const data = { add: (a: unknown, b: unknown) => (a as number) + (b as number) };
    expect(render('{{ call .add 2 3 }}', data)).to.equal('5');
    expect(failure('{{ call .s }}', { s: 'x' }).reason).to.equal('error calling call: non-function .s of type string');
    expect(failure('{{ call nil }}').reason).to.equal('error calling call: call of nil');
  });
});

describe('gotpl: pipelines', () => {
  it('pass the previous value as the last argument', () => {
    expect(render('{{ "x" | printf "%s-%s" "a" }}')).to.equal('a-x');
    expect(render('{{ .l | len | printf "%03d" }}', { l: [1, 2] })).to.equal('002');
  });

  it('evaluate parenthesised arguments first', () => {
    expect(render('{{ printf "%d" (len (slice .l 1)) }}', { l: [1, 2, 3] })).to.equal('2');
  });

  it('reject arguments to a parenthesised pipeline or a constant', () => {
    expect(failure('{{ "x" | (print) }}').reason).to.equal("can't give argument to non-function print");
    expect(failure('{{ nil }}').reason).to.equal('nil is not a command');
  });
});
