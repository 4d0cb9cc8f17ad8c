import { expect } from 'chai';
import { nestsDeeperThan } from '../../plugins/http-server/nesting.js';

const deeper = (json: string, limit: number): boolean => nestsDeeperThan(Buffer.from(json, 'utf8'), limit);

describe('how deep a request body nests, read from its bytes', () => {
  it('counts objects and arrays inside one another, up to the limit and one past it', () => {
    expect(deeper('{"a":[{"b":[1]}]}', 4)).to.equal(false);
    expect(deeper('{"a":[{"b":[1]}]}', 3)).to.equal(true);
    expect(deeper('[[],[],[],[]]', 2)).to.equal(false);
    expect(deeper(`${'['.repeat(513)}${']'.repeat(513)}`, 512)).to.equal(true);
    expect(deeper(`${'['.repeat(512)}${']'.repeat(512)}`, 512)).to.equal(false);
  });

  it('reads brackets inside strings as text, escaped quotes and backslashes included', () => {
    expect(deeper(`{"text":"${'[{'.repeat(1_000)}"}`, 2)).to.equal(false);
    expect(deeper('{"q":"say \\"[[[[\\" twice","p":"a\\\\"}', 1)).to.equal(false);
    // After an escaped backslash the quote ends the string: what follows is nesting again.
    expect(deeper('{"p":"a\\\\",  "n":[[[1]]]}', 3)).to.equal(true);
  });

  it('is not misled by characters of several bytes', () => {
    expect(deeper(`{"t":"${'é😀['.repeat(1_000)}","n":[1]}`, 2)).to.equal(false);
  });
});
