import { expect } from 'chai';
import { failure, render } from './support/render.js';

describe('gotpl: the functions Switchboard documented before sprig', () => {
  it('toJson serialises any value, and "no value" as null', () => {
    expect(render('{{ toJson .v }}', { v: { a: [1, 'x', null], b: true } })).to.equal('{"a":[1,"x",null],"b":true}');
    expect(render('{{ .n | toJson }}', { n: null })).to.equal('null');
  });

  it('toJson leaves <, > and & unescaped (unlike Go json.Marshal)', () => {
    expect(render('{{ toJson .s }}', { s: '<a&b>' })).to.equal('"<a&b>"');
  });

  it('fromJson parses JSON into values templates can walk', () => {
    expect(render('{{ (fromJson .s).a }}', { s: '{"a":[1,2]}' })).to.equal('[1 2]');
    expect(failure('{{ fromJson "{nope" }}').reason).to.match(/^error calling fromJson: invalid JSON: /);
  });

  it('default returns the value unless it is empty (sprig semantics)', () => {
    const t = '{{ .v | default "none" }}';
    expect(['x', '', 0, 5, false, null, [], {}, [1]].map((v) => render(t, { v }))).to.deep.equal([
      'x',
      'none',
      'none',
      '5',
      'none',
      'none',
      'none',
      'none',
      '[1]',
    ]);
    expect(render('{{ default "d" (index .m "absent") }}', { m: {} })).to.equal('d');
  });

  it('upper, lower and trim work on strings', () => {
    expect(render('{{ upper "abc é" }}|{{ lower "ABC" }}|{{ trim "  x y \\n" }}')).to.equal('ABC É|abc|x y');
    // sprig's upper takes a Go string: text/template refuses a number before the call, in Go's words.
    expect(failure('{{ upper 1 }}').reason).to.equal('expected string; found 1');
    expect(failure('{{ upper .n }}', { n: 1.5 }).reason).to.equal('wrong type for value; expected string; got float64');
  });

  it('join SEP LIST joins elements printed with %v, skipping nil', () => {
    expect(render('{{ join ", " .l }}', { l: ['a', 1, null, true] })).to.equal('a, 1, true');
    expect(render('{{ .l | join "-" }}', { l: [] })).to.equal('');
  });

  it('split SEP STRING returns a list', () => {
    expect(render('{{ split "," "a,b,,c" }}')).to.equal('[a b  c]');
    expect(render('{{ len (split "," "") }}')).to.equal('1');
    expect(render('{{ range split "" "hé" }}<{{ . }}>{{ end }}')).to.equal('<h><é>');
  });

  it('contains, hasPrefix and hasSuffix take the needle first', () => {
    expect(render('{{ contains "ell" "hello" }} {{ hasPrefix "he" "hello" }} {{ hasSuffix "lo" "hello" }} {{ "hello" | contains "z" }}')).to.equal(
      'true true true false',
    );
  });

  it('replace OLD NEW STRING replaces every occurrence', () => {
    expect(render('{{ replace "a" "o" "banana" }}|{{ "a.b.c" | replace "." "/" }}|{{ replace "" "-" "ab" }}')).to.equal('bonono|a/b/c|-a-b-');
  });

  it('quote quotes each argument Go-style and joins them', () => {
    expect(render('{{ quote "a\\"b" 1 .n "é" }}', { n: null })).to.equal('"a\\"b" "1" "é"');
  });

  it('check their argument counts like Go functions', () => {
    expect(failure('{{ upper }}').reason).to.equal('wrong number of args for upper: want 1 got 0');
    expect(failure('{{ replace "a" "b" }}').reason).to.equal('wrong number of args for replace: want 3 got 2');
  });

  it('can be replaced and extended by the caller functions', () => {
    const funcs = { upper: (s: unknown) => `<${String(s)}>`, add: (a: unknown, b: unknown) => (a as number) + (b as number) };
    expect(render('{{ upper "x" }} {{ add 1 2 | add 10 }}', {}, { funcs })).to.equal('<x> 13');
  });

  it('report errors thrown by caller functions as execution errors', () => {
    const funcs = {
      boom: () => {
        throw new Error('kaput');
      },
    };
    expect(failure('{{ boom }}', {}, { funcs }).message).to.equal('template: tpl:1:3: executing "tpl" at <boom>: error calling boom: kaput');
  });

  it('pass "no value" to caller functions as null', () => {
    const seen: unknown[] = [];
    const funcs = { see: (...args: unknown[]) => seen.push(...args) };
    render('{{ see .n nil }}{{ $x := .n }}{{ see $x }}', { n: null }, { funcs });
    expect(seen).to.deep.equal([null, null, null]);
  });

  it('reject invalid function names and non-functions at compile time', () => {
    expect(() => render('x', {}, { funcs: { 'bad-name': () => 1 } })).to.throw(TypeError, /not a valid identifier/);
    expect(() => render('x', {}, { funcs: { f: 1 as unknown as () => unknown } })).to.throw(TypeError, /not a function/);
  });
});
