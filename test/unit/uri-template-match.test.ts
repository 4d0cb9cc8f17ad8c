/**
 * Which upstream serves a URI through its resource template (plugins/meta-tools/uri-template-match.ts):
 * RFC 6570 level 1, an expression for one segment's worth of characters; and no URI or
 * template, however shaped, makes the match slow.
 */
import { expect } from 'chai';
import { MAX_LENGTH, templateMatches } from '../../plugins/meta-tools/uri-template-match.js';

describe('resource templates: which URIs a template describes', () => {
  it('an expression stands for one or more characters of one segment, never a slash', () => {
    expect(templateMatches('repo://{owner}/{repo}', 'repo://acme/api')).to.equal(true);
    expect(templateMatches('repo://{owner}/{repo}', 'repo://acme/api/issues')).to.equal(false);
    expect(templateMatches('repo://{owner}/{repo}', 'repo://acme/')).to.equal(false);
    expect(templateMatches('test://{id}', 'test://')).to.equal(false);
    expect(templateMatches('file:///{name}.json', 'file:///a.b.json')).to.equal(true);
    expect(templateMatches('file:///{name}.json', 'file:///.json')).to.equal(false);
    expect(templateMatches('u://{a}-{b}', 'u://x-y-z')).to.equal(true);
  });

  it('reads the template literally around its expressions: no character of it is a pattern', () => {
    expect(templateMatches('test://static', 'test://static')).to.equal(true);
    expect(templateMatches('test://static', 'test://static/')).to.equal(false);
    expect(templateMatches('a*{x}?', 'a*q?')).to.equal(true);
    expect(templateMatches('a*{x}?', 'abq?')).to.equal(false);
    expect(templateMatches('u://{unclosed', 'u://{unclosed')).to.equal(true);
  });

  it('matches in a few milliseconds whatever the caller sends and the upstream lists (a regular expression took seconds)', () => {
    const worst: [string, string][] = [
      ['repo://{owner}/{repo}{?ref}', `repo://a/${'b'.repeat(MAX_LENGTH - 20)}/`],
      ['x{a}.{b}.{c}!', `x${'.'.repeat(MAX_LENGTH - 1)}`],
      [`x${'{a}.'.repeat(500)}!`, `x${'.'.repeat(MAX_LENGTH - 1)}`],
      ['{a}{b}{c}{d}{e}{f}{g}{h}!', 'a'.repeat(MAX_LENGTH)],
    ];
    for (const [template, uri] of worst) {
      const started = process.hrtime.bigint();
      expect(templateMatches(template, uri)).to.equal(false);
      expect(Number(process.hrtime.bigint() - started) / 1e6, template.slice(0, 20)).to.be.lessThan(500);
    }
    // Past the bound a URI is matched by listed resources only.
    expect(templateMatches('big://{x}', `big://${'a'.repeat(MAX_LENGTH)}`)).to.equal(false);
  });
});
