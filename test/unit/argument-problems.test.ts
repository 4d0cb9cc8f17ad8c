/** The wording of argument problems (reference-behaviour.md §13) on the edges the protocol tests do not reach. */
import { expect } from 'chai';
import { argumentProblems } from '../../kernel/argument-problems.js';
import { createAjv } from '../../kernel/config/validate.js';
import { InvalidArgumentsError } from '../../kernel/errors.js';

function problems(schema: Record<string, unknown>, value: unknown) {
  const validate = createAjv().compile(schema);
  expect(validate(value)).to.equal(false);
  return argumentProblems(validate.errors);
}

describe('argument problems', () => {
  it('names a missing argument by its own pointer, escaped, and nested arguments by a dotted path', () => {
    const schema = { type: 'object', properties: { outer: { type: 'object', required: ['a/b'] } }, required: ['name'] };
    expect(problems(schema, { outer: {} })).to.deep.equal([
      { path: '/name', message: 'name argument is required' },
      { path: '/outer/a~1b', message: 'outer.a/b argument is required' },
    ]);
  });

  it('words a union type once, listing every type', () => {
    expect(problems({ type: 'object', properties: { v: { type: ['string', 'null'] } } }, { v: 1 })).to.deep.equal([
      { path: '/v', message: 'v must be a string or null value' },
    ]);
  });

  it('keeps the oneOf summary when it is all there is (a value matching two branches)', () => {
    const schema = { type: 'object', properties: { v: { oneOf: [{ type: 'number' }, { type: 'integer' }] } } };
    const found = problems(schema, { v: 1 });
    expect(found).to.have.length(1);
    expect(found[0]!.message).to.match(/^v must match exactly one schema in oneOf/);
  });

  it('words enums without JSON quotes for strings, and keeps the frame', () => {
    const found = problems({ type: 'object', properties: { n: { enum: ['a', 2, null] } } }, { n: 'z' });
    expect(found).to.deep.equal([{ path: '/n', message: 'n must be one of the enum values: a, 2, null' }]);
    expect(new InvalidArgumentsError('core_x', found).message).to.equal("Invalid arguments for 'core_x': n must be one of the enum values: a, 2, null");
  });
});
