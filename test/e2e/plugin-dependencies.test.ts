/**
 * Plugins declare what they provide and need; the loader orders them by it and refuses, before
 * any plugin runs, a configuration where a need is not met. Driven through the real CLI
 * (`switchboard check` and `serve`), with third-party plugins loaded from the config directory.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callTool, CLI, connectHttp, makeConfigDir, startSwitchboard } from '../support/harness.js';

const check = (dir: string) => spawnSync(process.execPath, [CLI, 'check', '--config-path', dir], { encoding: 'utf8' });

/** A plugin module as a third party writes it: only the documented shape, no imports. */
const plugin = (fields: string, setup = '') => `export default { ${fields}, setup({ kernel }) { ${setup} } };\n`;

describe('plugins: declared dependencies, checked and ordered', () => {
  it('a built-in that needs a switched-off plugin: refused, naming both plugins and the setting', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'plugins:\n  http-server: false\n  transport-sse: false\n' });
    const r = check(dir);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include(
      "plugin 'transport-streamable-http' needs the 'http' service, but plugin 'http-server' provides it and is switched off (plugins.http-server: false)",
    );
    expect(r.stderr).to.include('plugins.transport-streamable-http');
  });

  it('a third-party plugin that needs what nobody provides: refused, naming the plugin and the service', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'plugins:\n  needy:\n    module: ./needy.js\n' });
    await writeFile(join(dir, 'needy.js'), plugin("name: 'needy', needs: ['ledger']"));
    const r = check(dir);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include("plugin 'needy' needs the 'ledger' service, but no enabled plugin provides it");
  });

  it('plugins that need each other at setup: refused, naming the cycle', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'plugins:\n  hen:\n    module: ./hen.js\n  egg:\n    module: ./egg.js\n' });
    await writeFile(join(dir, 'hen.js'), plugin("name: 'hen', provides: ['hens'], needs: ['eggs']"));
    await writeFile(join(dir, 'egg.js'), plugin("name: 'egg', provides: ['eggs'], needs: ['hens']"));
    const r = check(dir);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/plugins need each other at setup: '(hen|egg)' -> '(hen|egg)' -> '(hen|egg)'/);
  });

  it('a plugin listed first that needs one listed after it is set up after its provider', async () => {
    // 'reader' is named first in config.yaml, but reads 'ledger' in its setup: 'writer' must go first.
    const dir = await makeConfigDir({ 'config.yaml': 'plugins:\n  reader:\n    module: ./reader.js\n  writer:\n    module: ./writer.js\n' });
    await writeFile(
      join(dir, 'writer.js'),
      plugin("name: 'writer', provides: ['ledger']", "kernel.services.provide('ledger', { entries: ['set up first'] });"),
    );
    await writeFile(
      join(dir, 'reader.js'),
      plugin(
        "name: 'reader', needs: ['ledger']",
        `const seen = kernel.services.get('ledger').entries.slice();
         kernel.catalogue.replaceSource('reader', [{ name: 'ledger_seen', description: 'What the ledger held at setup.', inputSchema: { type: 'object' },
           invoke: async () => ({ content: [{ type: 'text', text: JSON.stringify({ seen }) }], structuredContent: { seen } }) }]);`,
      ),
    );
    const sb = await startSwitchboard({}, { configDir: dir });
    const client = await connectHttp(sb.url);
    try {
      expect((await callTool(client, 'ledger_seen')).structuredContent).to.deep.equal({ seen: ['set up first'] });
    } finally {
      await client.close();
      await sb.stop();
    }
  });

  it('a plugin that reaches a service during setup without declaring it: refused, naming plugin and service', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'plugins:\n  sneaky:\n    module: ./sneaky.js\n' });
    await writeFile(join(dir, 'sneaky.js'), plugin("name: 'sneaky', provides: []", "kernel.services.get('store');"));
    const r = check(dir);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include("plugin 'sneaky' reaches the 'store' service during setup without declaring it (needs or uses)");
  });

  it('a plugin that provides a service it did not declare: refused', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'plugins:\n  squatter:\n    module: ./squatter.js\n' });
    await writeFile(join(dir, 'squatter.js'), plugin("name: 'squatter', provides: []", "kernel.services.provide('ledger', {});"));
    const r = check(dir);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include("plugin 'squatter' provides the 'ledger' service without declaring it (provides)");
  });
});
