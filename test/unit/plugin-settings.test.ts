/**
 * How config.yaml's `plugins` entries switch built-in plugins on and hand them options, read by
 * the kernel's loader with two stand-in plugins: one on by default, one opt-in (as Cedar and
 * code mode are).
 */
import { expect } from 'chai';
import type { PluginSetting } from '../../kernel/config/settings.js';
import { definePlugin, type PluginModule } from '../../kernel/index.js';
import { loadPlugins } from '../../kernel/plugin-loader.js';

const withDefaults = (name: string) =>
  definePlugin<{ debounceMs: number }>({
    name,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { debounceMs: { type: 'integer', default: 75 } } },
    setup() {},
  });

const BUILT_INS: PluginModule[] = [
  { name: 'usual', load: async () => ({ default: withDefaults('usual') }) },
  { name: 'opt-in', load: async () => ({ default: withDefaults('opt-in') }), optIn: true },
];

async function loaded(settings: Record<string, PluginSetting>): Promise<Record<string, unknown>> {
  const plugins = await loadPlugins(BUILT_INS, settings, '/nowhere', '/nowhere/config.yaml');
  return Object.fromEntries(plugins.map((p) => [p.plugin.name, p.options]));
}

describe('plugins in config.yaml', () => {
  it('leaves an opt-in plugin off unless it is named', async () => {
    expect(await loaded({})).to.have.keys('usual');
    expect(await loaded({ 'opt-in': true })).to.have.keys('usual', 'opt-in');
  });

  it('switches an opt-in plugin on when it is given options: enabled defaults to true in the object form', async () => {
    expect(await loaded({ 'opt-in': { options: { debounceMs: 10 } } })).to.deep.equal({ usual: { debounceMs: 75 }, 'opt-in': { debounceMs: 10 } });
    expect(await loaded({ 'opt-in': { enabled: false, options: { debounceMs: 10 } } })).to.have.keys('usual');
    expect(await loaded({ usual: { enabled: false } })).to.deep.equal({});
  });

  it("fills in a plugin's defaults without writing them into the settings (a later edit must not seem to change them)", async () => {
    const settings: Record<string, PluginSetting> = { usual: { options: {} }, 'opt-in': { options: { debounceMs: 10 } } };
    const written = structuredClone(settings);
    expect((await loaded(settings)).usual).to.deep.equal({ debounceMs: 75 });
    expect(settings).to.deep.equal(written);
  });
});
