import { expect } from 'chai';
import { render } from './support/render.js';

describe('gotpl: literals', () => {
  it('strings with Go escapes, and raw strings', () => {
    expect(render('{{ "tab\\there \\u00e9 \\x41\\101 \\"q\\" \\\\" }}')).to.equal('tab\there é AA "q" \\');
    expect(render('{{ `raw \\n {{ "x" }}` }}')).to.equal('raw \\n {{ "x" }}');
    expect(render('{{ "\\xc3\\xa9" }}')).to.equal('é'); // bytes that form UTF-8
  });

  it('character constants are their code points', () => {
    expect(render("{{ 'a' }} {{ '\\n' }} {{ 'é' }} {{ '\\x41' }} {{ printf \"%c\" 'z' }}")).to.equal('97 10 233 65 z');
  });

  it('integers in decimal, hex, octal and binary, with underscores', () => {
    expect(render('{{ 42 }} {{ -7 }} {{ +7 }} {{ 0x1F }} {{ 0o17 }} {{ 017 }} {{ 0b101 }} {{ 1_000 }} {{ 0x_FF }}')).to.equal('42 -7 7 31 15 15 5 1000 255');
  });

  it('floats in decimal and hex notation', () => {
    expect(render('{{ 1.5 }} {{ .25 }} {{ 2.5e-3 }} {{ 6.02e23 }} {{ 0x1.8p-1 }} {{ 1_000.5 }}')).to.equal('1.5 0.25 0.0025 6.02e+23 0.75 1000.5');
  });

  it('booleans and nil', () => {
    expect(render('{{ true }} {{ false }} {{ print nil }}')).to.equal('true false <nil>');
  });
});
