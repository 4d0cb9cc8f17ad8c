/**
 * An IDE's MCP configuration read by `switchboard import` (app/cli/import/client-config.ts):
 * its `${...}` variables are resolved or refused by name, in time linear in the text.
 */
import { expect } from 'chai';
import { importEntry } from '../../app/cli/import/client-config.js';
import { expectEachFloodWithin } from '../support/floods.js';

const ide = { home: '/home/ada', workspaceFolder: '/work/app' };

describe('switchboard import: IDE variables', () => {
  it('resolves the variables it knows and passes text that only looks like one through', () => {
    const r = importEntry('a', { command: 'node', args: ['${workspaceFolder}/s.js', '${userHome}', 'cost: ${5', 'x${a${userHome}'] }, ide);
    expect(r.ok && r.definition.args).to.deep.equal(['/work/app/s.js', '/home/ada', 'cost: ${5', 'x${a/home/ada']);
  });

  it('refuses ${input:...} and unknown variables, naming the field', () => {
    const input = importEntry('a', { command: 'node', env: { KEY: '${input:apiKey}' } }, ide);
    expect(input.ok ? '' : input.reason).to.include('env.KEY asks the IDE user for input');
    const unknown = importEntry('a', { command: 'node', args: ['${config:editor.tabSize}'] }, ide);
    expect(unknown.ok ? '' : unknown.reason).to.include('args[0] uses ${config:editor.tabSize}, an IDE variable Switchboard cannot resolve');
  });

  it('reads 100,000 characters of unclosed "${" and "${input:" in linear time (a pattern rescanning to the end from each took seconds)', () => {
    expectEachFloodWithin(['${'.repeat(50_000), '${input:'.repeat(12_500), '${env:'.repeat(16_000)], 500, (arg) =>
      expect(importEntry('a', { command: 'node', args: [arg], env: { V: arg } }, ide).ok, arg.slice(0, 8)).to.equal(true),
    );
  });
});
