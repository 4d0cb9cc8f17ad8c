import { expect } from 'chai';
import { failure, render } from './support/render.js';

describe('gotpl: text, comments and trim markers', () => {
  it('copies text verbatim', () => {
    expect(render('plain {text} with } braces\n')).to.equal('plain {text} with } braces\n');
  });

  it('drops comments', () => {
    expect(render('a{{/* a comment */}}b{{/* multi\nline */}}c')).to.equal('abc');
  });

  it('trims whitespace before {{- and after -}}', () => {
    expect(render('a  \n {{- "b" -}} \n\t c')).to.equal('abc');
    expect(render('x {{- /* c */ -}} y')).to.equal('xy');
    expect(render('{{ 1 }} {{- 2 }}')).to.equal('12');
  });

  it('needs a space after the dash, so {{-3}} is the number -3', () => {
    expect(render('a {{-3}} b')).to.equal('a -3 b');
  });
});

describe('gotpl: if and with', () => {
  it('follows Go truthiness: false, 0, "", nil and empty collections are false', () => {
    const values = [false, 0, '', null, [], {}, true, 1, 'x', [0], { k: 0 }, 0.5];
    const got = values.map((v) => render('{{ if .v }}T{{ else }}F{{ end }}', { v }));
    expect(got.join('')).to.equal('FFFFFFTTTTTT');
  });

  it('chains else if', () => {
    const t = '{{ if eq .n 1 }}one{{ else if eq .n 2 }}two{{ else if eq .n 3 }}three{{ else }}many{{ end }}';
    expect([1, 2, 3, 4].map((n) => render(t, { n }))).to.deep.equal(['one', 'two', 'three', 'many']);
  });

  it('with sets dot, and supports else with and else', () => {
    const t = '{{ with .a }}a={{ . }}{{ else with .b }}b={{ . }}{{ else }}none{{ end }}';
    expect(render(t, { a: 'A', b: 'B' })).to.equal('a=A');
    expect(render(t, { a: '', b: 'B' })).to.equal('b=B');
    expect(render(t, { a: 0, b: [] })).to.equal('none');
  });
});

describe('gotpl: range', () => {
  it('iterates arrays with index and element', () => {
    expect(render('{{ range $i, $v := .l }}{{ $i }}={{ $v }};{{ end }}', { l: ['a', 'b'] })).to.equal('0=a;1=b;');
    expect(render('{{ range .l }}[{{ . }}]{{ end }}', { l: [1, 'x', true] })).to.equal('[1][x][true]');
  });

  it('iterates maps in sorted key order, bytewise like Go', () => {
    const m = { b: 1, a: 2, B: 3, é: 4, _: 5, a10: 6, a9: 7 };
    expect(render('{{ range $k, $v := . }}{{ $k }}={{ $v }} {{ end }}', m)).to.equal('B=3 _=5 a=2 a10=6 a9=7 b=1 é=4 ');
  });

  it('iterates integers from 0 (Go 1.22 range over int)', () => {
    expect(render('{{ range 3 }}{{ . }}{{ end }}')).to.equal('012');
    expect(render('{{ range $i := .n }}<{{ $i }}>{{ end }}', { n: 2 })).to.equal('<0><1>');
    expect(render('{{ range 0 }}x{{ else }}none{{ end }}')).to.equal('none');
    expect(failure('{{ range $i, $v := 3 }}{{ end }}').reason).to.equal("can't use 3 to iterate over more than one variable");
  });

  it('runs else for empty or nil collections', () => {
    const t = '{{ range .l }}x{{ else }}empty{{ end }}';
    expect(render(t, { l: [] })).to.equal('empty');
    expect(render(t, { l: {} })).to.equal('empty');
    expect(render(t, { l: null })).to.equal('empty');
  });

  it('supports break and continue', () => {
    const t = '{{ range .l }}{{ if eq . 2 }}{{ continue }}{{ end }}{{ if eq . 4 }}{{ break }}{{ end }}{{ . }}{{ end }}';
    expect(render(t, { l: [1, 2, 3, 4, 5] })).to.equal('13');
  });

  it('breaks only the innermost range', () => {
    const t = '{{ range .l }}{{ range . }}{{ . }}{{ break }}{{ end }};{{ end }}';
    expect(
      render(t, {
        l: [
          [1, 2],
          [3, 4],
        ],
      }),
    ).to.equal('1;3;');
  });

  it('refuses to range over scalars', () => {
    expect(failure('{{ range .s }}{{ end }}', { s: 'abc' }).reason).to.equal("range can't iterate over abc");
    expect(failure('{{ range 2.5 }}{{ end }}').reason).to.equal("range can't iterate over 2.5");
  });
});

describe('gotpl: define, template and block', () => {
  it('calls a defined template with the given dot', () => {
    expect(render('{{ define "greet" }}hi {{ .name }}{{ end }}{{ template "greet" .user }}!', { user: { name: 'bo' } })).to.equal('hi bo!');
  });

  it('passes no dot when no argument is given', () => {
    expect(render('{{ define "x" }}[{{ . }}]{{ end }}{{ template "x" }}{{ template "x" 5 }}')).to.equal('[<no value>][5]');
  });

  it('gives the called template no access to the caller variables, only $ = its dot', () => {
    expect(render('{{ define "x" }}{{ $ }}{{ end }}{{ $v := 1 }}{{ template "x" "dot" }}')).to.equal('dot');
    expect(failure('{{ define "x" }}{{ $v }}{{ end }}{{ $v := 1 }}{{ template "x" }}').reason).to.equal('undefined variable "$v"');
  });

  it('allows recursion up to a depth limit', () => {
    const t = '{{ define "r" }}{{ if . }}{{ len . }}{{ template "r" (slice . 1) }}{{ end }}{{ end }}{{ template "r" .s }}';
    expect(render(t, { s: 'abc' })).to.equal('321');
    expect(failure('{{ define "r" }}{{ template "r" }}{{ end }}{{ template "r" }}').reason).to.equal('exceeded maximum template depth (1000)');
  });

  it('reports calls of undefined templates at execution', () => {
    expect(failure('{{ template "nope" }}').reason).to.equal('template "nope" not defined');
  });

  it('block defines a template and calls it in place', () => {
    expect(render('<{{ block "b" .v }}[{{ . }}]{{ end }}>', { v: 7 })).to.equal('<[7]>');
  });

  it('lets a define of the template itself replace an empty top level', () => {
    expect(render('{{ define "tpl" }}defined{{ end }}\n')).to.equal('defined');
  });
});
