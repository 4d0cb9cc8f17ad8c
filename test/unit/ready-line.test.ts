import { expect } from 'chai';
import { plural, readyLine } from '../../kernel/ready-line.js';

describe('the ready line', () => {
  const base = { configPath: '/cfg', configExisted: true };

  it('says tool and server in the singular for one', () => {
    expect(plural(1, 'tool')).to.equal('1 tool');
    expect(plural(0, 'tool')).to.equal('0 tools');
    expect(readyLine({ ...base, tools: 1, servers: [{ name: 'a', state: 'running' }] })).to.equal('ready: 1 tool from 1 server; config /cfg');
  });

  it('counts only connected servers as serving, and names the ones that are not (five at most)', () => {
    const failed = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map((name) => ({ name, state: 'failed' as const }));
    const line = readyLine({ ...base, tools: 40, servers: [{ name: 'a', state: 'running' }, { name: 'lazy', state: 'stopped' }, ...failed] });
    expect(line).to.equal(
      'ready: 40 tools from 1 server (1 not started; 6 not connected: f1 (failed), f2 (failed), f3 (failed), f4 (failed), f5 (failed), ...); config /cfg',
    );
  });

  it('with no servers, the next step: init for a directory that did not exist, import otherwise', () => {
    expect(readyLine({ tools: 27, servers: [], configPath: '/new', configExisted: false })).to.equal(
      "ready: 27 tools from 0 servers; config /new does not exist yet: 'switchboard init --config-path /new' creates it with an example; then 'switchboard import FILE' and 'switchboard connect CLIENT'",
    );
    expect(readyLine({ ...base, tools: 27, servers: undefined })).to.include("config /cfg has no MCP servers yet: add one with 'switchboard import FILE'");
  });
});
