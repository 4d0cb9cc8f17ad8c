import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, meta, startSwitchboard, type Running } from '../support/harness.js';
import { searchServers } from '../support/search-servers.js';

interface Found {
  tools: { name: string; score?: number }[];
}

describe('filter_tools query finds tools by plain phrasings (real sequential-thinking, filesystem, memory, everything servers)', () => {
  let dir: string;
  let sb: Running;
  let client: Client;
  const top = async (query: string, limit = 5) => (await meta<Found>(client, 'filter_tools', { query, limit, offset: 0 })).tools.map((t) => t.name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-search-'));
    sb = await startSwitchboard(searchServers(dir), { args: ['--host', '127.0.0.1'] });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('"think step by step" finds sequentialthinking first (the compound name split, "thinking" stemmed)', async () => {
    expect((await top('think step by step'))[0]).to.equal('x_thinking_sequentialthinking');
  });

  it('"break down a complex problem into steps" ranks sequentialthinking above every core tool (its description says exactly that)', async () => {
    const r = await top('break down a complex problem into steps', 50);
    expect(r[0]).to.equal('x_thinking_sequentialthinking');
  });

  it('"sequential thinking", two words, finds the tool named sequentialthinking', async () => {
    expect((await top('sequential thinking'))[0]).to.equal('x_thinking_sequentialthinking');
  });

  it('"read a file" puts the filesystem read tools in the top five (the deprecated read_file may rank below)', async () => {
    const r = await top('read a file');
    expect(r).to.include.members(['x_filesystem_read_text_file', 'x_filesystem_read_multiple_files', 'x_filesystem_read_media_file']);
    // The fifth may be another server's file tool (everything's gzip-file-as-resource).
    expect(r.slice(0, 4).every((name) => name.startsWith('x_filesystem_'))).to.equal(true);
  });

  it('"reading several files at once" (an -ing form and a plural) finds read_multiple_files in the top five', async () => {
    expect(await top('reading several files at once')).to.include('x_filesystem_read_multiple_files');
  });
});
