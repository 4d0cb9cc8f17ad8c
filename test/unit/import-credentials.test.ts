/**
 * Which literal values `import` and `add` move to secrets.env (app/cli/definitions/credentials.ts),
 * and that secrets.env reads back what was written (lib/secrets/secrets-env.ts).
 */
import { expect } from 'chai';
import { looksLikeCredential, moveCredentials } from '../../app/cli/definitions/credentials.js';
import { serverIdentity } from '../../app/cli/definitions/existing-servers.js';
import { parseSecretsEnv, referenceEnvironment, secretsEnvLine } from '../../lib/secrets/secrets-env.js';
import { expectEachFloodWithin } from '../support/floods.js';

describe('credentials in imported definitions', () => {
  it('by name: tokens, keys, secrets, passwords and credential headers', () => {
    for (const name of ['GITHUB_TOKEN', 'OPENAI_API_KEY', 'STRIPE_KEY', 'CLIENT_SECRET', 'DB_PASSWORD', 'GITLAB_PAT'])
      expect(looksLikeCredential('env', name, 'x'), name).to.equal(true);
    for (const name of ['Authorization', 'X-Api-Key', 'Cookie', 'X-Auth-Token']) expect(looksLikeCredential('headers', name, 'x'), name).to.equal(true);
  });

  it('by look: known prefixes, an auth scheme, a long random string; not paths, URLs, words or references', () => {
    for (const value of ['ghp_abc', 'github_pat_11AB', 'sk-proj-abc', 'xoxb-1-2', 'glpat-x', 'Bearer abc', 'a8Fk2LmQ9zR4tW7yB1nC6vX3pJ5hD0sE'])
      expect(looksLikeCredential('env', 'VALUE', value), value).to.equal(true);
    for (const value of [
      '/home/ada/projects/notes-2026',
      'https://example.com/api/v1/items',
      '@modelcontextprotocol/server-memory',
      'info',
      '${GITHUB_TOKEN}',
      'Bearer ${GITHUB_TOKEN}',
      'org.example.service.component42',
      '',
    ])
      expect(looksLikeCredential('env', 'VALUE', value), value).to.equal(false);
    expect(looksLikeCredential('env', 'API_KEY', { fromFile: 'secrets/key' })).to.equal(false);
  });

  it('moves the value, keeps an auth scheme in the YAML, and never takes a name that holds another value', () => {
    const known = new Map([['GITHUB_TOKEN', 'older']]);
    const { definition, moved } = moveCredentials(
      'github',
      { name: 'github', env: { GITHUB_TOKEN: 'ghp_new', LOG_LEVEL: 'debug' }, headers: { Authorization: 'Bearer tok123' } },
      known,
      { OTHER: 'x' },
    );
    expect(definition.env).to.deep.equal({ GITHUB_TOKEN: '${GITHUB_GITHUB_TOKEN}', LOG_LEVEL: 'debug' });
    expect(definition.headers).to.deep.equal({ Authorization: 'Bearer ${GITHUB_TOKEN_2}' });
    expect(moved.map((m) => [m.variable, m.value])).to.deep.equal([
      ['GITHUB_GITHUB_TOKEN', 'ghp_new'],
      ['GITHUB_TOKEN_2', 'tok123'],
    ]);
    // The environment wins over secrets.env when serve runs: a name set there to another value is not taken either.
    const again = moveCredentials('s', { name: 's', env: { API_TOKEN: 'ghp_v' } }, new Map(), { API_TOKEN: 'different' });
    expect(again.definition.env).to.deep.equal({ API_TOKEN: '${S_API_TOKEN}' });
  });

  it('secrets.env lines read back as written, quotes and all; the environment wins over the file', () => {
    const values = ['plain-token_1.2', 'with space', 'quote " and \\ backslash', 'line\nbreak', '#hash', "it's"];
    const text = values.map((v, i) => secretsEnvLine(`V${i}`, v)).join('\n');
    const parsed = parseSecretsEnv(`# comment\n\nexport ${text}\nnot a line\n`);
    expect(values.map((_v, i) => parsed.get(`V${i}`))).to.deep.equal(values);
    expect(parseSecretsEnv("A='single $quoted'\nB=value # comment").get('A')).to.equal('single $quoted');
    expect(parseSecretsEnv('B=value # comment').get('B')).to.equal('value');
    expect(referenceEnvironment('/nonexistent-dir', { A: '1' })).to.deep.equal({ A: '1' });
  });

  it('a quoted secrets.env value may carry a comment after its closing quote; a quote inside stays', () => {
    const parsed = parseSecretsEnv(`A="x y" # rotated in May\nB='p#ss' #note\nC='it's'\nD="say \\"hi\\"" # c\nE="open\nF=  spaced value   `);
    expect(Object.fromEntries(parsed)).to.deep.equal({ A: 'x y', B: 'p#ss', C: "it's", D: 'say "hi"', E: '"open', F: 'spaced value' });
  });

  it('reads a secrets.env line of 100,000 blanks or quotes in linear time (a pattern rescanning a run of spaces took seconds)', () => {
    const floods = [
      `A=x${' '.repeat(100_000)}y`,
      `A=x${' \t'.repeat(50_000)}y`,
      `A="${'" '.repeat(50_000)}`,
      `A='${"' ".repeat(50_000)}x`,
      `${' '.repeat(100_000)}A`,
    ];
    expectEachFloodWithin(floods, 500, parseSecretsEnv);
  });

  it('a duplicate is what runs: both command forms, and a URL in any case with or without a trailing slash', () => {
    expect(serverIdentity({ command: ['npx', '-y', 'x'] })).to.equal(serverIdentity({ command: 'npx', args: ['-y', 'x'] }));
    expect(serverIdentity({ url: 'HTTPS://Example.com/mcp/' })).to.equal(serverIdentity({ url: 'https://example.com/mcp' }));
    expect(serverIdentity({ url: 'https://example.com/mcp' })).to.not.equal(serverIdentity({ url: 'https://example.com/other' }));
  });
});
