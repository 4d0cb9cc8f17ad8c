import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse } from 'yaml';
import { callTool, connectHttp, errorCode, makeConfigDir, meta, startSwitchboard, TEST_SERVER, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;

const SERVERS = Array.from({ length: 10 }, (_, i) => `s${i}`);

describe('many writers at once never corrupt or lose a file', () => {
  let sb: Running;
  const clients: Client[] = [];

  before(async () => {
    sb = await startSwitchboard({ 'config.yaml': '# the operator\'s comment stays\naggregator:\n  servicePrefix: ""\n' });
    for (let i = 0; i < 4; i++) clients.push(await connectHttp(sb.url));
  });

  after(async () => {
    for (const c of clients) await c.close();
    await sb?.stop();
  });

  const by = (i: number): Client => clients[i % clients.length]!;

  it('concurrent creates, updates, deletes and config saves leave every file parseable and equal to what is served', async () => {
    const created = await Promise.all(
      SERVERS.map((name, i) => callTool(by(i), 'core_mcpserver_create', { name, type: 'stdio', command: ['node', TEST_SERVER], description: 'v0' })),
    );
    expect(created.map(errorCode)).to.deep.equal(SERVERS.map(() => undefined));

    // Four updates per server at once, each changing a different field, from different
    // clients, with aggregator changes, saves and deletes among them. A writer that read a
    // stale definition would drop another's field (a lost update).
    const changes: Obj[] = [{ description: 'changed' }, { timeout: 45 }, { env: { K: 'v' } }, { autoStart: false, callTimeout: 90 }];
    const writes: Promise<unknown>[] = [];
    changes.forEach((change, round) => {
      SERVERS.forEach((name, i) => writes.push(callTool(by(i + round), 'core_mcpserver_update', { name, ...change })));
      writes.push(callTool(by(round), 'core_config_update_aggregator', { aggregator: { Port: 9100 + round } }));
      writes.push(callTool(by(round + 1), 'core_config_save'));
    });
    writes.push(callTool(by(0), 'core_mcpserver_delete', { name: 's7' }), callTool(by(1), 'core_mcpserver_delete', { name: 's8' }));
    const results = (await Promise.all(writes)) as { isError?: boolean }[];
    expect(results.filter((r) => r.isError)).to.deep.equal([]);
    await meta(by(0), 'call_tool', { name: 'core_config_save', arguments: {} });

    const dir = join(sb.configDir, 'mcpservers');
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
    expect(files.sort()).to.deep.equal(
      SERVERS.filter((n) => n !== 's7' && n !== 's8')
        .map((n) => `${n}.yaml`)
        .sort(),
    );

    const listed = await meta<{ mcpServers: Obj[] }>(by(0), 'call_tool', { name: 'core_mcpserver_list', arguments: {} });
    for (const file of files) {
      const onDisk = parse(readFileSync(join(dir, file), 'utf8')) as Obj;
      expect(onDisk).to.deep.include({ description: 'changed', timeout: 45, env: { K: 'v' }, callTimeout: 90 });
      const served = listed.mcpServers.find((s) => s.name === onDisk.name)!;
      expect(served).to.deep.include({ description: 'changed', timeout: 45, callTimeout: 90 });
    }

    const aggregator = await meta<Obj>(by(0), 'call_tool', { name: 'core_config_get_aggregator', arguments: {} });
    const config = readFileSync(join(sb.configDir, 'config.yaml'), 'utf8');
    expect(parse(config)).to.be.an('object');
    expect(config).to.include("# the operator's comment stays");
    expect((parse(config) as { aggregator: { port: number } }).aggregator.port).to.equal(aggregator.Port);
  });
});

describe('a crash between write and rename', () => {
  it('loses nothing: the old file is intact and the leftover temp file is removed at startup', async () => {
    const dir = await makeConfigDir({
      'mcpservers/kept.yaml': `name: kept\ntype: stdio\ncommand: [node, "${TEST_SERVER}"]\ndescription: the last good write\n`,
      // What an interrupted writeFileAtomic leaves: a dot-named temp beside the target, half written.
      'mcpservers/.kept.yaml.0123456789ab.tmp': 'name: kept\ntype: std',
      '.config.yaml.abcdef012345.tmp': 'aggregator:\n  po',
    });
    const sb = await startSwitchboard({}, { configDir: dir });
    try {
      await sb.waitForLog(/removed .*\.kept\.yaml\.0123456789ab\.tmp, left by a write that was interrupted/);
      await sb.waitForLog(/removed .*\.config\.yaml\.abcdef012345\.tmp/);
      expect(readdirSync(join(dir, 'mcpservers'))).to.deep.equal(['kept.yaml']);
      const client = await connectHttp(sb.url);
      const kept = await meta<Obj>(client, 'call_tool', { name: 'core_mcpserver_get', arguments: { name: 'kept' } });
      expect(kept.description).to.equal('the last good write');
      await client.close();
    } finally {
      await sb.stop();
    }
  });
});
