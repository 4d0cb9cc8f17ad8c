import { expect } from 'chai';
import { compile } from '../src/index.js';
import { evaluate } from './support/render.js';

const data = { input: { count: 3, ratio: 0.5, ok: true, name: 'n', list: [1, 2], obj: { a: 1 }, none: null } };

describe('gotpl: evaluate() returns typed values for a lone action', () => {
  it('returns numbers, booleans, strings, arrays and objects untouched', () => {
    expect(evaluate('{{ .input.count }}', data)).to.equal(3);
    expect(evaluate('{{ .input.ratio }}', data)).to.equal(0.5);
    expect(evaluate('{{ .input.ok }}', data)).to.equal(true);
    expect(evaluate('{{ .input.name }}', data)).to.equal('n');
    expect(evaluate('{{ .input.list }}', data)).to.equal(data.input.list);
    expect(evaluate('{{ .input.obj }}', data)).to.equal(data.input.obj);
  });

  it('returns null for nil and "no value"', () => {
    expect(evaluate('{{ .input.none }}', data)).to.equal(null);
    expect(evaluate('{{ index .input.obj "zz" }}', data)).to.equal(null);
  });

  it('returns the value of the whole pipeline', () => {
    expect(evaluate('{{ .input.list | len }}', data)).to.equal(2);
    expect(evaluate('{{ .input.obj | toJson }}', data)).to.equal('{"a":1}');
    expect(evaluate('{{ .input.list | toJson | fromJson }}', data)).to.deep.equal([1, 2]);
    expect(evaluate('{{ eq .input.count 3 }}', data)).to.equal(true);
    expect(evaluate('{{- .input.count -}}', data)).to.equal(3);
  });

  it('renders to a string when there is anything besides the one action', () => {
    expect(evaluate(' {{ .input.count }}', data)).to.equal(' 3');
    expect(evaluate('{{ .input.count }}\n', data)).to.equal('3\n');
    expect(evaluate('{{ .input.count }}{{ .input.count }}', data)).to.equal('33');
    expect(evaluate('{{/* note */}}{{ .input.count }}', data)).to.equal('3');
    expect(evaluate('{{ if true }}{{ .input.count }}{{ end }}', data)).to.equal('3');
    expect(evaluate('{{ define "x" }}{{ end }}{{ .input.count }}', data)).to.equal('3');
    expect(evaluate('plain', data)).to.equal('plain');
  });

  it('renders a declaration, which prints nothing', () => {
    expect(evaluate('{{ $x := .input.count }}', data)).to.equal('');
  });

  it('raises the same errors as render', () => {
    expect(() => evaluate('{{ .input.missing }}', data)).to.throw('map has no entry for key "missing"');
  });
});

describe('gotpl: yieldsValue says which templates evaluate() may type', () => {
  it('is true for exactly one action and false for anything that renders to a string', () => {
    expect(compile('{{ .input.count }}').yieldsValue).to.equal(true);
    expect(compile('{{- .input.list | len -}}').yieldsValue).to.equal(true);
    expect(compile(' {{ .input.count }}').yieldsValue).to.equal(false);
    expect(compile('{{ .input.count }}{{ .input.count }}').yieldsValue).to.equal(false);
    expect(compile('{{ $x := .input.count }}').yieldsValue).to.equal(false);
    expect(compile('{{/* note */}}{{ .input.count }}').yieldsValue).to.equal(false);
    expect(compile('plain').yieldsValue).to.equal(false);
  });
});
