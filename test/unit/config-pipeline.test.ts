/**
 * The configuration pipeline on its own, over the real file store in a temporary directory:
 * defaults, then config.yaml, then one file per resource; every problem named by file, line
 * and field; a change published as a new snapshot, a refused change leaving the last good one.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncSeriesHook } from 'tapable';
import { ConfigPipeline, readSettings } from '../../kernel/config/pipeline.js';
import type { ConfigSnapshot } from '../../kernel/config/snapshot.js';
import { parseYaml } from '../../kernel/config/yaml-document.js';
import { ConfigInvalidError, type ConfigProblem } from '../../kernel/errors.js';
import { createLogger } from '../../kernel/log.js';
import { FileStore } from '../../plugins/store-files/file-store.js';

interface Fixture {
  dir: string;
  pipeline: ConfigPipeline;
  store: FileStore;
  loads: [ConfigSnapshot, ConfigSnapshot | undefined][];
  rejected: (readonly ConfigProblem[])[];
}

async function fixture(files: Record<string, string>): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-pipeline-'));
  await mkdir(join(dir, 'mcpservers'));
  await mkdir(join(dir, 'workflows'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const hook = new AsyncSeriesHook<[ConfigSnapshot, ConfigSnapshot | undefined]>(['next', 'previous']);
  const loads: Fixture['loads'] = [];
  hook.tap('test', (next, previous) => void loads.push([next, previous]));
  const rejected: Fixture['rejected'] = [];
  const { settings } = await readSettings(dir);
  const pipeline = new ConfigPipeline(
    dir,
    hook,
    createLogger({ level: 'error', sink: { write: () => true } }),
    settings,
    (s) => s,
    (p) => rejected.push(p),
  );
  return { dir, pipeline, store: new FileStore(dir, 10), loads, rejected };
}

const server = (name: string, extra = '') => `name: ${name}\ntype: stdio\ncommand: [node, server.js]\n${extra}`;
const raw = (f: Fixture, file: string, text: string) => ({
  kind: 'mcpserver' as const,
  key: join(f.dir, 'mcpservers', file),
  parsed: parseYaml(text, join(f.dir, 'mcpservers', file)),
});

describe('configuration pipeline: defaults, config.yaml, resource files', () => {
  it('starts from the schema defaults, overlays config.yaml and fills each definition with its defaults', async () => {
    const f = await fixture({ 'config.yaml': 'aggregator:\n  servicePrefix: acme\n', 'mcpservers/files.yaml': server('files') });
    await f.pipeline.loadAll(f.store);
    const snap = f.pipeline.snapshot;
    expect(snap.settings.aggregator.servicePrefix).to.equal('acme');
    expect(snap.settings.aggregator.port, 'a default config.yaml did not set').to.be.a('number');
    const files = snap.mcpServers.get('files')!;
    expect(files.value.timeout, 'the schema default').to.equal(30);
    expect(files.origin).to.deep.equal({ file: join(f.dir, 'mcpservers', 'files.yaml'), line: 1 });
    expect(f.loads).to.have.length(1);
    expect(f.loads[0]![1], 'the first snapshot has no predecessor').to.equal(undefined);
  });

  it('refuses the whole load, naming each problem by file, line and field', async () => {
    const f = await fixture({ 'mcpservers/bad.yaml': server('bad', 'timeout: soon\n'), 'mcpservers/good.yaml': server('good') });
    const err: unknown = await f.pipeline.loadAll(f.store).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ConfigInvalidError);
    const [problem] = (err as ConfigInvalidError).problems;
    expect(problem).to.include({ file: join(f.dir, 'mcpservers', 'bad.yaml'), line: 4, field: 'timeout' });
    expect(f.loads, 'nothing announced').to.have.length(0);
  });

  it('refuses two documents that define the same name, naming the other file', async () => {
    const f = await fixture({ 'mcpservers/a.yaml': server('same'), 'mcpservers/b.yaml': server('same') });
    const err = (await f.pipeline.loadAll(f.store).catch((e: unknown) => e)) as ConfigInvalidError;
    expect(err.problems[0]!.message).to.equal(`duplicate mcpserver name 'same' (also in ${join(f.dir, 'mcpservers', 'a.yaml')})`);
  });

  it("runs a plugin's check on every document that passed the schema", async () => {
    const f = await fixture({ 'mcpservers/files.yaml': server('files') });
    f.pipeline.addCheck((kind, value, r) =>
      kind === 'mcpserver' && (value as { name: string }).name === 'files'
        ? [{ file: r.parsed.file, line: 1, column: 1, field: 'name', message: 'reserved' }]
        : [],
    );
    const err = (await f.pipeline.loadAll(f.store).catch((e: unknown) => e)) as ConfigInvalidError;
    expect(err.problems.map((p) => p.message)).to.deep.equal(['reserved']);
  });
});

describe('configuration pipeline: changes while running', () => {
  it('publishes a changed document as a new snapshot, with the previous one beside it', async () => {
    const f = await fixture({ 'mcpservers/files.yaml': server('files') });
    await f.pipeline.loadAll(f.store);
    await f.pipeline.handleChange({ type: 'upsert', resource: raw(f, 'files.yaml', server('files', 'timeout: 5\n')) });
    expect(f.loads).to.have.length(2);
    const [next, previous] = f.loads[1]!;
    expect(next.mcpServers.get('files')!.value.timeout).to.equal(5);
    expect(previous!.mcpServers.get('files')!.value.timeout).to.equal(30);
    expect(next.generation).to.equal(previous!.generation + 1);
  });

  it('keeps the last good configuration when a change is refused, and says so', async () => {
    const f = await fixture({ 'mcpservers/files.yaml': server('files') });
    await f.pipeline.loadAll(f.store);
    const before = f.pipeline.snapshot;
    await f.pipeline.handleChange({ type: 'upsert', resource: raw(f, 'files.yaml', server('files', 'timeout: -1\n')) });
    expect(f.pipeline.snapshot).to.equal(before);
    expect(f.rejected).to.have.length(1);
    expect(f.rejected[0]![0]).to.include({ field: 'timeout' });
  });

  it('applies what a tool wrote at once, or refuses it with CONFIG_INVALID and changes nothing', async () => {
    const f = await fixture({});
    await f.pipeline.loadAll(f.store);
    await f.pipeline.apply(raw(f, 'new.yaml', server('new')));
    expect([...f.pipeline.snapshot.mcpServers.keys()]).to.deep.equal(['new']);
    const err: unknown = await f.pipeline.apply(raw(f, 'broken.yaml', 'name: broken\n')).catch((e: unknown) => e);
    expect((err as ConfigInvalidError).code).to.equal('CONFIG_INVALID');
    expect([...f.pipeline.snapshot.mcpServers.keys()]).to.deep.equal(['new']);
  });

  it('forgets a removed document', async () => {
    const f = await fixture({ 'mcpservers/files.yaml': server('files') });
    await f.pipeline.loadAll(f.store);
    await f.pipeline.removeKey(join(f.dir, 'mcpservers', 'files.yaml'));
    expect(f.pipeline.snapshot.mcpServers.size).to.equal(0);
  });

  it('runs edits one at a time: the second reads what the first wrote', async () => {
    const f = await fixture({});
    await f.pipeline.loadAll(f.store);
    const seen: number[] = [];
    const edit = (name: string) =>
      f.pipeline.exclusive(async () => {
        seen.push(f.pipeline.snapshot.mcpServers.size);
        await new Promise((r) => setImmediate(r));
        await f.pipeline.apply(raw(f, `${name}.yaml`, server(name)));
      });
    await Promise.all([edit('one'), edit('two')]);
    expect(seen).to.deep.equal([0, 1]);
  });
});
