import { expect } from 'chai';
import { TemplateError, TemplateExecError } from '../src/index.js';
import { failure, render } from './support/render.js';

const data = {
  input: { name: 'alice', count: 3, tags: ['a', 'b'], nested: { deep: { value: 'x' } }, empty: null },
  results: { fetch: { id: 'abc123', status: 200 } },
};

function execError(source: string, input: unknown = data): TemplateExecError {
  const e = failure(source, input);
  if (!(e instanceof TemplateExecError)) throw new Error(`expected a TemplateExecError, got ${String(e)}`);
  return e;
}

describe('gotpl: fields and missing keys', () => {
  it('reads field chains on maps', () => {
    expect(render('{{ .input.name }}-{{ .results.fetch.id }}', data)).to.equal('alice-abc123');
    expect(render('{{ .input.nested.deep.value }}', data)).to.equal('x');
  });

  it('reads fields through variables, $ and parenthesised pipelines', () => {
    expect(render('{{ $in := .input }}{{ $in.name }}', data)).to.equal('alice');
    expect(render('{{ with .results }}{{ $.input.name }}/{{ .fetch.id }}{{ end }}', data)).to.equal('alice/abc123');
    expect(render('{{ (index .results "fetch").id }}', data)).to.equal('abc123');
  });

  it('prints a nil value as <no value>, as Go does for interface nil', () => {
    expect(render('{{ .input.empty }}', data)).to.equal('<no value>');
    expect(render('{{ print .input.empty }}', data)).to.equal('<nil>');
  });

  it('makes a missing map key an error that names the key and quotes the expression', () => {
    const e = execError('step: {{ .input.count }} / {{ .input.cnt }}');
    expect(e.code).to.equal('TEMPLATE_EXEC');
    expect(e).to.be.instanceOf(TemplateError);
    expect(e.reason).to.equal('map has no entry for key "cnt"');
    expect(e.context).to.equal('.input.cnt');
    // Go's column is a 0-based byte offset of the last field; `column` is 1-based.
    expect(e.message).to.equal('template: tpl:1:36: executing "tpl" at <.input.cnt>: map has no entry for key "cnt"');
    expect(e.line).to.equal(1);
    expect(e.column).to.equal(37);
  });

  it('names the missing key wherever it is in the chain', () => {
    expect(execError('{{ .input.nested.shallow.value }}').reason).to.equal('map has no entry for key "shallow"');
    expect(execError('{{ .nope.name }}').reason).to.equal('map has no entry for key "nope"');
  });

  it('does not treat inherited JavaScript properties as keys', () => {
    expect(execError('{{ .input.constructor }}').reason).to.equal('map has no entry for key "constructor"');
    expect(execError('{{ .input.toString }}').reason).to.equal('map has no entry for key "toString"');
  });

  it('rejects fields on values that are not maps', () => {
    expect(execError('{{ .input.name.first }}').reason).to.equal("can't evaluate field first in type interface {}");
    expect(execError('{{ .x }}', 'text').reason).to.equal("can't evaluate field x in type string");
    expect(execError('{{ .input.empty.x }}').reason).to.equal('nil pointer evaluating interface {}.x');
    expect(execError('{{ .x }}', null).reason).to.equal('nil data; no entry for key "x"');
  });

  it('rejects arguments given to a field', () => {
    expect(execError('{{ .input.name 1 }}').reason).to.equal('name is not a method but has arguments');
    expect(execError('{{ 3 .input }}').reason).to.equal("can't give argument to non-function 3");
  });

  it('reports the executing template and its line for errors inside define', () => {
    const e = execError('{{ define "inner" }}\n  {{ .missing }}{{ end }}{{ template "inner" .input }}');
    expect(e.message).to.equal('template: tpl:2:5: executing "inner" at <.missing>: map has no entry for key "missing"');
    expect(e.executing).to.equal('inner');
  });
});
