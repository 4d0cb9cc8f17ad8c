/**
 * The documented way to write a plugin works from the published package: `npm pack` this
 * repository, install the tarball in an empty directory as a user would, and load the example
 * plugin (examples/call-journal), which imports only `switchboard/kernel`, through `plugins:`
 * in config.yaml. The installed Switchboard serves, the plugin's tool answers and its hook
 * records the calls.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { callTool, connectHttp, errorCode, ROOT, startSwitchboard, stdioServer, TEST_SERVER } from '../support/harness.js';
import { packedInstall } from '../support/packed-install.js';

const run = promisify(execFile);

describe('a third-party plugin, from the packed package', function () {
  // Installing the tarball resolves Switchboard's dependencies (from npm's cache when warm), unless cached.
  this.timeout(300_000);
  let home: string;
  let installed: string;

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'sb-package-'));
    // Packed here and installed in a project as a user would; the same tarball's install is
    // shared (packed-install.ts): this project's node_modules is a link to it.
    const project = await packedInstall('local');
    await writeFile(join(home, 'package.json'), JSON.stringify({ name: 'my-gateway', private: true, type: 'module' }));
    await symlink(join(project.dir, 'node_modules'), join(home, 'node_modules'));
    installed = join(home, 'node_modules', 'switchboard');
  });

  after(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('the package holds the built application and the public API, not the tests', async () => {
    const dist = await readdir(join(installed, 'dist'));
    expect(dist.sort()).to.deep.equal(['app', 'bundle', 'client', 'kernel', 'lib', 'packages', 'plugins']);
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', "const k = await import('switchboard/kernel'); console.log(typeof k.definePlugin, typeof k.coreTool, 'loadPlugins' in k)"],
      { cwd: home },
    );
    expect(stdout.trim()).to.equal('function function false');
  });

  it("loads the example plugin through plugins: in config.yaml; its tool answers, its hook journals the calls, and an error it throws is the running kernel's", async () => {
    const config = join(home, 'config');
    await mkdir(join(config, 'mcpservers'), { recursive: true });
    await copyFile(join(ROOT, 'examples', 'call-journal', 'index.js'), join(home, 'call-journal.js'));
    // A second plugin throws the kernel's ForbiddenError: the gateway reads it as its own only
    // if the plugin's `switchboard/kernel` is the kernel it runs (the bundle's: no second copy).
    await writeFile(
      join(home, 'kernel-probe.js'),
      [
        "import { coreTool, definePlugin, ForbiddenError } from 'switchboard/kernel';",
        "export default definePlugin({ name: 'kernel-probe', description: 'Refuses.', provides: [], setup({ kernel }) {",
        "  kernel.catalogue.replaceSource('kernel-probe', [coreTool('', { name: 'probe_refuse', description: 'Always refuses.', properties: {}, async run() { throw new ForbiddenError('the probe refuses'); } })]);",
        '} });',
      ].join('\n'),
    );
    await writeFile(
      join(config, 'config.yaml'),
      'plugins:\n  call-journal:\n    module: ../call-journal.js\n    options: { path: journal.jsonl }\n  kernel-probe:\n    module: ../kernel-probe.js\n',
    );
    await writeFile(join(config, 'mcpservers', 'fixture.yaml'), stdioServer('fixture', TEST_SERVER));
    const sb = await startSwitchboard({}, { configDir: config, cli: join(installed, 'bin', 'switchboard.js') });
    const client = await connectHttp(sb.url);
    try {
      await callTool(client, 'x_fixture_ping');
      await callTool(client, 'x_fixture_nope').catch(() => undefined);
      const r = await callTool(client, 'journal_recent', { count: 5 });
      expect(r.isError).to.not.equal(true);
      const { calls } = r.structuredContent as { calls: { tool: string | null; outcome: string }[] };
      expect(calls.map((c) => [c.tool, c.outcome])).to.deep.equal([
        ['x_fixture_ping', 'ok'],
        [null, 'refused'],
      ]);
      const refused = await callTool(client, 'probe_refuse');
      expect(errorCode(refused), JSON.stringify(refused.content)).to.equal('FORBIDDEN');
    } finally {
      await client.close();
      await sb.stop();
    }
  });
});
