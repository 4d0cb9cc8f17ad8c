import { expect } from 'chai';
import { failure, render } from './support/render.js';

describe('gotpl: variables', () => {
  it('declares with := and prints nothing for a declaration', () => {
    expect(render('{{ $x := "a" }}[{{ $x }}]')).to.equal('[a]');
  });

  it('binds $ to the data', () => {
    expect(render('{{ with .a }}{{ $.b }}{{ end }}', { a: 1, b: 'root' })).to.equal('root');
    expect(render('{{ $ }}', 'whole')).to.equal('whole');
  });

  it('assigns with = to the nearest declaration, across if and range bodies', () => {
    expect(render('{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}')).to.equal('2');
    expect(render('{{ $n := 0 }}{{ range .l }}{{ $n = . }}{{ end }}{{ $n }}', { l: [1, 2, 3] })).to.equal('3');
  });

  it('scopes declarations to the enclosing control structure', () => {
    expect(render('{{ $x := "outer" }}{{ with $x := "inner" }}{{ $x }}{{ end }} {{ $x }}')).to.equal('inner outer');
    expect(failure('{{ if true }}{{ $y := 1 }}{{ end }}{{ $y }}').reason).to.equal('undefined variable "$y"');
  });

  it('keeps range variables fresh on every iteration', () => {
    expect(render('{{ range $i, $v := .l }}{{ $w := $v }}{{ $i }}{{ $w }}{{ end }}', { l: ['a', 'b'] })).to.equal('0a1b');
  });

  it('assigns range variables with =', () => {
    expect(render('{{ $i := 0 }}{{ $v := 0 }}{{ range $i, $v = .l }}{{ end }}{{ $i }}{{ $v }}', { l: ['a', 'b'] })).to.equal('1b');
  });

  it('reports assignment to an undeclared variable at execution, as Go does', () => {
    expect(failure('{{ $y = 2 }}').reason).to.equal('undefined variable: $y');
  });

  it('holds "no value" when a pipeline yields nil', () => {
    expect(render('{{ $x := .n }}{{ $x }}', { n: null })).to.equal('<no value>');
  });
});
