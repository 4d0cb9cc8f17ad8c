import { expect } from 'chai';
import { compile, TemplateError, TemplateParseError } from '../src/index.js';
import { failure } from './support/render.js';

function parseError(source: string): TemplateParseError {
  const e = failure(source);
  expect(e).to.be.instanceOf(TemplateParseError);
  return e as TemplateParseError;
}

describe('gotpl: parse errors', () => {
  it('are TemplateParseError with code TEMPLATE_PARSE, 1-based line and column, and a Go-style message', () => {
    const e = parseError('hello\n  {{ .a | nosuch }}');
    expect(e).to.be.instanceOf(TemplateError);
    expect(e.code).to.equal('TEMPLATE_PARSE');
    expect(e.line).to.equal(2);
    expect(e.column).to.equal(11);
    expect(e.reason).to.equal('function "nosuch" not defined');
    expect(e.message).to.equal('template: tpl:2:11: function "nosuch" not defined');
  });

  it('use the name given to compile()', () => {
    expect(() => compile('{{ if }}{{ end }}', { name: 'step.args.url' })).to.throw(TemplateParseError, 'template: step.args.url:1:7: missing value for if');
  });

  it('are raised by compile(), before any data is seen', () => {
    expect(() => compile('{{ .a}')).to.throw(TemplateParseError, "bad character U+007D '}'");
  });

  it('report unclosed actions, strings, comments and parentheses', () => {
    expect(parseError('{{ .a').reason).to.equal('unclosed action');
    expect(parseError('{{ "abc }}').reason).to.equal('unterminated quoted string');
    expect(parseError('{{ `abc }}').reason).to.equal('unterminated raw quoted string');
    expect(parseError('x\n{{/* abc }}').reason).to.equal('unclosed comment');
    expect(parseError('{{ (1 }}').reason).to.equal('unclosed left paren');
    expect(parseError('{{ 1) }}').reason).to.equal('unexpected right paren');
  });

  it('say where a multi-line action started when it never closes', () => {
    const e = parseError('{{ if .a }}\n{{ .b\n\n');
    expect(e.reason).to.equal('unclosed action started at tpl:2');
    expect(e.line).to.equal(4);
  });

  it('report control structures that are not closed or closed twice', () => {
    expect(parseError('{{ if .a }}x').reason).to.equal('unexpected EOF');
    expect(parseError('{{ end }}').reason).to.equal('unexpected {{end}}');
    expect(parseError('{{ else }}').reason).to.equal('unexpected {{else}}');
    expect(parseError('{{ range . }}{{ else }}{{ else }}{{ end }}').reason).to.equal('expected end; found {{else}}');
  });

  it('reject undefined functions and variables', () => {
    expect(parseError('{{ frobnicate 1 }}').reason).to.equal('function "frobnicate" not defined');
    expect(parseError('{{ $x }}').reason).to.equal('undefined variable "$x"');
    expect(parseError('{{ with $x := 1 }}{{ end }}{{ $x }}').reason).to.equal('undefined variable "$x"');
  });

  it('reject break and continue outside range', () => {
    expect(parseError('{{ break }}').reason).to.equal('{{break}} outside {{range}}');
    expect(parseError('{{ if 1 }}{{ continue }}{{ end }}').reason).to.equal('{{continue}} outside {{range}}');
    expect(parseError('{{ range . }}{{ else }}{{ break }}{{ end }}').reason).to.equal('{{break}} outside {{range}}');
  });

  it('reject malformed pipelines', () => {
    expect(parseError('{{ .a | 1 }}').reason).to.equal('non executable command in pipeline stage 2');
    expect(parseError('{{ "x".y }}').reason).to.equal('unexpected . after term "\\"x\\""');
    expect(parseError('{{ $x, $y := 1 }}').reason).to.equal('too many declarations in command');
    expect(parseError('{{ range $i, $j, $k := . }}{{ end }}').reason).to.equal('too many declarations in range');
    expect(parseError('{{ template .x }}').reason).to.equal('unexpected ".x" in template clause');
  });

  it('reject malformed literals', () => {
    expect(parseError('{{ 0x }}').reason).to.equal('illegal number syntax: "0x"');
    expect(parseError('{{ 1_ }}').reason).to.equal('illegal number syntax: "1_"');
    expect(parseError('{{ 99999999999999999999 }}').reason).to.equal('integer overflow: "99999999999999999999"');
    expect(parseError("{{ 'ab' }}").reason).to.equal("malformed character constant: 'ab'");
    expect(parseError('{{ "\\q" }}').reason).to.equal('invalid syntax');
    expect(parseError('{{ 1a }}').reason).to.equal('bad number syntax: "1a"');
  });

  it('reject two definitions of the same template', () => {
    expect(parseError('{{define "a"}}x{{end}}{{define "a"}}y{{end}}').reason).to.equal('template: multiple definition of template "a"');
  });

  it('limit parenthesis nesting to 1000 levels', () => {
    expect(() => compile(`{{ ${'('.repeat(1000)}1${')'.repeat(1000)} }}`)).not.to.throw();
    expect(parseError(`{{ ${'('.repeat(1001)}1${')'.repeat(1001)} }}`).reason).to.equal('max expression depth exceeded');
  });

  it('count columns in UTF-16 units, like JavaScript strings', () => {
    const e = parseError('héllo 😀 {{ nope }}');
    expect(e.column).to.equal(13);
  });
});
