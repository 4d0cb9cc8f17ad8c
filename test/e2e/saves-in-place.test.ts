/**
 * A save in place (nano, VS Code, a shell's `>`, scp) truncates the file before it writes it;
 * a save by rename (vim, Emacs) moves it away before it writes the new one. Read in between,
 * config.yaml is an empty, valid document (every setting back to its default), a definition
 * file an invalid one or a server removed. Switchboard holds an empty or missing file back for
 * a grace period (plugin option `saveGraceMs`): the rest of the save is what gets applied, and
 * a file left empty past the grace is applied as it is. The writer here pauses between its
 * steps for as long as the test likes: a descheduled or network-fed writer.
 */
import { expect } from 'chai';
import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, eventually, loggedAfter, meta, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';

/** Long enough that a loaded machine never ends it before the test writes the rest. */
const GRACE_MS = 5_000;

function settings(prefix: string): string {
  return ['namespace: team-a', 'aggregator:', `  servicePrefix: ${prefix}`, 'plugins:', '  store-files:', `    options: { saveGraceMs: ${GRACE_MS} }`, ''].join(
    '\n',
  );
}

describe('a save in place caught halfway is not applied', function () {
  this.timeout(120_000);
  let sb: Running;
  let client: Client;
  const config = () => join(sb.configDir, 'config.yaml');
  const steady = () => join(sb.configDir, 'mcpservers', 'steady.yaml');

  async function names(): Promise<string[]> {
    const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 500 });
    return listed.tools.map((t) => t.name);
  }

  /** Truncates `path` and waits until Switchboard says it holds the empty file; returns the open file to finish the save. */
  async function truncate(path: string): Promise<FileHandle> {
    let file: FileHandle | undefined;
    await loggedAfter(sb, new RegExp(`${basename(path).replace('.', '\\.')} is empty after a change: waiting up to ${GRACE_MS} ms`), async () => {
      file = await open(path, 'w');
    });
    return file!;
  }

  before(async () => {
    sb = await startSwitchboard({ 'config.yaml': settings('acme'), 'mcpservers/steady.yaml': stdioServer('steady', TEST_SERVER) });
    client = await connectHttp(sb.url);
    await eventually(names, (n) => n.includes('acme_core_mcpserver_list') && n.some((t) => t.startsWith('x_steady_')), 30_000);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('keeps config.yaml in force while it is empty, then applies the rest of the save', async () => {
    const file = await truncate(config());
    // Held: the settings in force are the last ones read whole.
    expect(await names()).to.include('acme_core_mcpserver_list');
    await file.writeFile(settings('acme2'));
    await file.close();
    await eventually(names, (n) => n.includes('acme2_core_mcpserver_list'), 30_000);
    // Applied empty, namespace (restart-only) would have differed from the value in force.
    expect(sb.logs()).not.to.match(/changes on restart/);
  });

  it('keeps a definition file in force while it is empty, then applies the rest of the save', async () => {
    const from = sb.logs().length;
    const file = await truncate(steady());
    expect((await names()).some((t) => t.startsWith('x_steady_'))).to.equal(true);
    await loggedAfter(sb, /reloaded mcpserver 'steady' from \S*steady\.yaml/, async () => {
      await file.writeFile(stdioServer('steady', TEST_SERVER, [], 'description: saved in place\n'));
      await file.close();
    });
    // Read empty, the file is invalid: an error naming it and the last good definition kept.
    expect(sb.logs().slice(from)).not.to.match(/ERROR/);
  });

  it('keeps a definition in force while a save by rename has moved its file away, then applies the new file', async () => {
    const from = sb.logs().length;
    await loggedAfter(sb, /steady\.yaml is gone after a change: waiting up to 5000 ms for it to come back/, () => rename(steady(), `${steady()}~`));
    expect((await names()).some((t) => t.startsWith('x_steady_'))).to.equal(true);
    await loggedAfter(sb, /reloaded mcpserver 'steady' from \S*steady\.yaml/, () =>
      writeFile(steady(), stdioServer('steady', TEST_SERVER, [], 'description: saved by rename\n')),
    );
    await rm(`${steady()}~`);
    // Read while it was away, the server would have been removed (stopped) and added again.
    expect(sb.logs().slice(from)).not.to.match(/removed mcpserver 'steady'|\[switchboard:upstreams:steady\] connected/);
  });

  it('applies a file still empty when the grace is over: emptied on purpose', async () => {
    const file = await truncate(config());
    await file.close();
    // Every setting back to its default: no prefix, and the restart-only keys said.
    await eventually(names, (n) => n.includes('core_mcpserver_list'), GRACE_MS + 30_000);
    expect(sb.logs()).to.match(/WARN .*namespace changes on restart/);
  });
});
