import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callTool, connectHttp, makeConfigDir, ROOT, startSwitchboard, stdioServer, TEST_SERVER, text } from '../support/harness.js';
import { spawnSync } from 'node:child_process';
import { CLI } from '../support/harness.js';
import { checkInProcess } from '../support/check.js';

const kernelUrl = (file: string) => pathToFileURL(join(ROOT, 'dist/kernel', file)).href;

describe('plugins: enabled, disabled, and third-party by module path', () => {
  it('loads a third-party plugin from the config directory: it adds a tool and taps onCall', async () => {
    const dir = await makeConfigDir({
      'config.yaml': 'plugins:\n  greeter:\n    module: ./greeter.js\n    options:\n      greeting: Howdy\n  transport-sse: false\n',
      'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER),
    });
    await writeFile(
      join(dir, 'greeter.js'),
      `import { coreTool, ANNOTATIONS } from '${kernelUrl('core-tool.js')}';
export default {
  name: 'greeter',
  optionsSchema: { type: 'object', additionalProperties: false, required: ['greeting'], properties: { greeting: { type: 'string' } } },
  setup({ kernel, options }) {
    let calls = 0;
    kernel.hooks.onCall.tap('greeter', () => { calls++; });
    kernel.catalogue.replaceSource('greeter', [coreTool('', {
      name: 'core_greet', description: 'Greet someone.', annotations: ANNOTATIONS.read,
      properties: { who: { type: 'string' } }, required: ['who'],
      run: async (a) => ({ text: options.greeting + ', ' + a.who + '!', calls }),
    })]);
  },
};
`,
    );
    const sb = await startSwitchboard({}, { configDir: dir });
    const client = await connectHttp(sb.url);
    try {
      await callTool(client, 'x_fixture_ping');
      const r = await callTool(client, 'core_greet', { who: 'Ada' });
      expect(r.structuredContent).to.deep.equal({ text: 'Howdy, Ada!', calls: 2 });
      // transport-sse is disabled: its paths are not served.
      const sse = await fetch(new URL('/sse', sb.url));
      expect(sse.status).to.equal(404);
    } finally {
      await client.close();
      await sb.stop();
    }
  });

  it('refuses startup for a plugin module that cannot load, or options that fail its schema', async () => {
    const missing = await makeConfigDir({ 'config.yaml': 'plugins:\n  ghost:\n    module: ./ghost.js\n' });
    const r1 = spawnSync(process.execPath, [CLI, 'check', '--config-path', missing], { encoding: 'utf8' });
    expect(r1.status).to.equal(1);
    expect(r1.stderr).to.include("plugin 'ghost': cannot load module './ghost.js'");
    const unnamed = await makeConfigDir({ 'config.yaml': 'plugins:\n  mystery: {}\n' });
    // The next two in this process (test/support/check.ts): the command's own function, without another 2 s `check` start each.
    const r2 = await checkInProcess(unnamed);
    expect(r2.status).to.equal(1);
    expect(r2.stderr).to.include("unknown plugin 'mystery': a third-party plugin needs a 'module'");
    const badOptions = await makeConfigDir({ 'config.yaml': 'plugins:\n  store-files:\n    options:\n      debounceMs: -5\n' });
    const r3 = await checkInProcess(badOptions);
    expect(r3.status).to.equal(1);
    expect(r3.stderr).to.include('plugins.store-files.options');
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight call finish on SIGTERM, refuses new ones, then exits 0', async () => {
    const sb = await startSwitchboard({
      'config.yaml': 'aggregator:\n  shutdownGraceSeconds: 5\n',
      'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER),
    });
    const client = await connectHttp(sb.url);
    const second = await connectHttp(sb.url);
    const inflight = callTool(client, 'x_fixture_slow', { ms: 1200 });
    await new Promise((r) => setTimeout(r, 200));
    sb.proc.kill('SIGTERM');
    await sb.waitForLog(/shutting down: SIGTERM/);
    const refused = await callTool(second, 'x_fixture_ping').catch((e: unknown) => e);
    const result = await inflight;
    expect(text(result)).to.equal('waited 1200');
    // Either the listener is already closed (a transport error) or the call is refused.
    if (!(refused instanceof Error)) expect(text(refused as Parameters<typeof text>[0])).to.match(/shutting down/);
    expect(await sb.stop()).to.equal(0);
  });
});
