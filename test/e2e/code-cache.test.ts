/**
 * The bundled program's code cache (app/cli/code-cache.ts), through `switchboard serve` as an
 * operator runs it: written once a start is ready, used by the next start, replaced when V8
 * refuses it, and never read or written in a directory someone else could write.
 */
import { expect } from 'chai';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callTool, connectHttp, eventually, makeConfigDir, ROOT, startSwitchboard } from '../support/harness.js';

/** A third-party plugin: its module is imported by the program with import(), from cached code too. */
const PLUGIN = `import { coreTool, ANNOTATIONS } from '${pathToFileURL(join(ROOT, 'dist/kernel/public.js')).href}';
export default {
  name: 'greeter',
  setup({ kernel }) {
    kernel.catalogue.replaceSource('greeter', [coreTool('', {
      name: 'core_greet', description: 'Greet someone.', annotations: ANNOTATIONS.read,
      properties: { who: { type: 'string' } }, required: ['who'],
      run: async (a) => ({ text: 'Hello, ' + a.who + '!' }),
    })]);
  },
};
`;

async function cacheFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.bin'));
}

/** Starts serve with the cache in `cacheDir`, greets through the plugin, and stops it. */
async function serveAndGreet(configDir: string, cacheDir: string, whenReady?: () => Promise<void>): Promise<void> {
  const sb = await startSwitchboard({}, { configDir, env: { SWITCHBOARD_CODE_CACHE: cacheDir } });
  try {
    await whenReady?.();
    const client = await connectHttp(sb.url);
    try {
      const r = await callTool(client, 'core_greet', { who: 'Ada' });
      expect(r.structuredContent).to.deep.equal({ text: 'Hello, Ada!' });
    } finally {
      await client.close();
    }
  } finally {
    expect(await sb.stop()).to.equal(0);
  }
}

describe("the program's code cache", function () {
  this.timeout(60_000);
  let cacheDir: string;
  let configDir: string;
  before(async function () {
    const publicJs = await readFile(join(ROOT, 'dist/kernel/public.js'), 'utf8');
    if (!publicJs.includes('../bundle/program-')) throw new Error('these tests need the bundled program: run `npm run build`');
    configDir = await makeConfigDir({ 'config.yaml': 'plugins:\n  greeter:\n    module: ./greeter.js\n' });
    await writeFile(join(configDir, 'greeter.js'), PLUGIN);
  });
  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'sb-code-cache-'));
    await chmod(cacheDir, 0o700);
  });
  afterEach(() => rm(cacheDir, { recursive: true, force: true }));
  after(() => rm(configDir, { recursive: true, force: true }));

  it('is written once a start is ready, and the next start uses it as it is (a third-party plugin still imports)', async () => {
    await serveAndGreet(
      configDir,
      cacheDir,
      async () =>
        void (await eventually(
          () => cacheFiles(cacheDir),
          (files) => files.length === 1,
          20_000,
        )),
    );
    const [name] = await cacheFiles(cacheDir);
    expect(name).to.match(/^program-[0-9a-f]{16}-node\d+\.\d+\.\d+-\w+\.bin$/);
    const before = await stat(join(cacheDir, name!));
    expect(before.mode & 0o777, 'readable by its owner only').to.equal(0o600);
    await serveAndGreet(configDir, cacheDir);
    const after = await stat(join(cacheDir, name!));
    // Accepted by V8: not written again (a refused cache is replaced, a new file renamed over it).
    expect([after.ino, after.mtimeMs]).to.deep.equal([before.ino, before.mtimeMs]);
  });

  it('one V8 refuses (not a code cache at all) is replaced by a good one, and the start serves as without', async () => {
    await serveAndGreet(
      configDir,
      cacheDir,
      async () =>
        void (await eventually(
          () => cacheFiles(cacheDir),
          (files) => files.length === 1,
          20_000,
        )),
    );
    const [name] = await cacheFiles(cacheDir);
    const file = join(cacheDir, name!);
    const garbage = Buffer.alloc(4096, 0x5a);
    await writeFile(file, garbage);
    await serveAndGreet(
      configDir,
      cacheDir,
      async () =>
        void (await eventually(
          () => readFile(file),
          (bytes) => !bytes.equals(garbage),
          20_000,
        )),
    );
    expect((await readFile(file)).length).to.be.greaterThan(100_000);
  });

  it('in a directory others may write, is neither read nor written', async () => {
    await chmod(cacheDir, 0o777);
    // Planted under the very name this build and this Node would read: had it been read, V8
    // would refuse it and the start would replace it.
    const bundle = /program-[0-9a-f]{16}/.exec(await readFile(join(ROOT, 'dist/kernel/public.js'), 'utf8'))![0];
    const name = `${bundle}-node${process.versions.node}-${process.arch}.bin`;
    await writeFile(join(cacheDir, name), 'not ours');
    // serve writes the cache at its ready line or, at the latest, as it exits: after stop() it would be there.
    await serveAndGreet(configDir, cacheDir);
    expect(await cacheFiles(cacheDir)).to.deep.equal([name]);
    expect(await readFile(join(cacheDir, name), 'utf8')).to.equal('not ours');
  });

  it('SWITCHBOARD_CODE_CACHE=off: nothing is written anywhere', async () => {
    const sb = await startSwitchboard({}, { configDir, env: { SWITCHBOARD_CODE_CACHE: 'off', XDG_CACHE_HOME: cacheDir } });
    expect(await sb.stop()).to.equal(0);
    expect(await readdir(cacheDir)).to.deep.equal([]);
  });
});
