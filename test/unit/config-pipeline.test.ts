/**
 * The configuration pipeline, driven with the real file store on a temporary directory:
 * no processes, no network, no file watching (changes are reloaded explicitly).
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { AsyncSeriesHook } from 'tapable';
import { ConfigPipeline, readSettings } from '../../kernel/config/pipeline.js';
import type { ResourceKindDefinition } from '../../kernel/config/resource-kinds.js';
import type { ConfigSnapshot } from '../../kernel/config/snapshot.js';
import { ConfigInvalidError, SwitchboardError, type ConfigProblem } from '../../kernel/errors.js';
import { createLogger } from '../../kernel/log.js';
import { FileStore } from '../../plugins/store-files/file-store.js';
import { unclaimedFileWarning } from '../../plugins/store-files/unclaimed.js';
import { MCP_SERVER_KIND } from '../../plugins/upstreams/mcpserver-kind.js';
import { WORKFLOW_KIND } from '../../plugins/workflows/workflow-kind.js';

const SERVER = 'name: alpha\ntype: stdio\ncommand: [node, alpha.js]\n';
const WORKFLOW =
  'apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata:\n  name: greet\nspec:\n  steps:\n    - id: hello\n      tool: x_alpha_hello\n';

interface Setup {
  dir: string;
  pipeline: ConfigPipeline;
  store: FileStore;
  announced: { next: ConfigSnapshot; previous: ConfigSnapshot | undefined }[];
  rejected: (readonly ConfigProblem[])[];
  logged: string[];
  unclaimed: string[];
}

async function setup(files: Record<string, string>, kinds: ResourceKindDefinition[] = [MCP_SERVER_KIND, WORKFLOW_KIND]): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-unit-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  const logged: string[] = [];
  const log = createLogger({ level: 'debug', sink: { write: (line) => logged.push(line) } });
  const onConfigLoad = new AsyncSeriesHook<[ConfigSnapshot, ConfigSnapshot | undefined]>(['next', 'previous']);
  const announced: Setup['announced'] = [];
  onConfigLoad.tap('test', (next, previous) => void announced.push({ next, previous }));
  const rejected: Setup['rejected'] = [];
  const { settings } = await readSettings(dir);
  const pipeline = new ConfigPipeline(
    dir,
    onConfigLoad,
    log,
    settings,
    (s) => s,
    (p) => rejected.push(p),
  );
  for (const kind of kinds) pipeline.addKind(kind);
  const unclaimed: string[] = [];
  const store = new FileStore(dir, 0, () => pipeline.kinds(), { onUnclaimed: (path, directory) => unclaimed.push(`${directory}: ${path}`) });
  return { dir, pipeline, store, announced, rejected, logged, unclaimed };
}

describe('ConfigPipeline: defaults, then config.yaml, then resource files, as one snapshot', () => {
  const dirs: string[] = [];
  const make = async (files: Record<string, string>, kinds?: ResourceKindDefinition[]): Promise<Setup> => {
    const s = await setup(files, kinds);
    dirs.push(s.dir);
    return s;
  };
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('fills schema defaults, lets config.yaml override them, and adds every resource file with its origin', async () => {
    const { pipeline, store, announced, dir } = await make({
      'config.yaml': 'aggregator:\n  port: 9191\n',
      'mcpservers/alpha.yaml': SERVER,
      'workflows/greet.yaml': WORKFLOW,
    });
    expect(pipeline.currentSettings().aggregator.port).to.equal(9191);
    expect(pipeline.currentSettings().aggregator.host).to.equal('localhost');
    await pipeline.loadAll(store);
    const snapshot = pipeline.snapshot;
    expect([...snapshot.mcpServers.keys()]).to.deep.equal(['alpha']);
    const alpha = snapshot.mcpServers.get('alpha')!;
    expect(alpha.value.timeout).to.equal(30);
    expect(alpha.origin).to.deep.equal({ file: join(dir, 'mcpservers', 'alpha.yaml'), line: 1 });
    expect([...snapshot.workflows.keys()]).to.deep.equal(['greet']);
    expect(snapshot.resources.get('mcpserver')).to.equal(snapshot.mcpServers);
    expect(snapshot.resources.get('workflow')).to.equal(snapshot.workflows);
    expect(announced).to.have.length(1);
    expect(announced[0]!.next).to.equal(snapshot);
    expect(announced[0]!.previous).to.equal(undefined);
  });

  it('refuses a start with an invalid file, naming file, line and field of every problem', async () => {
    const { pipeline, store, dir } = await make({
      'mcpservers/alpha.yaml': `${SERVER}bogus: 1\n`,
      'mcpservers/beta.yaml': 'name: beta\ntype: carrier-pigeon\n',
    });
    const err = await pipeline.loadAll(store).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ConfigInvalidError);
    const problems = (err as ConfigInvalidError).problems.map((p) => ({ file: p.file, line: p.line, field: p.field, message: p.message }));
    expect(problems).to.deep.include({ file: join(dir, 'mcpservers', 'alpha.yaml'), line: 4, field: 'bogus', message: "unknown field 'bogus'" });
    expect(problems.find((p) => p.file.endsWith('beta.yaml'))).to.include({ line: 2, field: 'type' });
    expect((err as ConfigInvalidError).code).to.equal('CONFIG_INVALID');
  });

  it('at a forgiving start, leaves an invalid file out with its problems and loads the rest', async () => {
    const { pipeline, store } = await make({
      'mcpservers/alpha.yaml': SERVER,
      'mcpservers/beta.yaml': 'name: beta\ntype: carrier-pigeon\n',
    });
    await pipeline.loadAll(store, undefined, { publish: true, strict: false });
    expect([...pipeline.snapshot.mcpServers.keys()]).to.deep.equal(['alpha']);
  });

  it('refuses two files that define the same name', async () => {
    const { pipeline, store } = await make({ 'mcpservers/a.yaml': SERVER, 'mcpservers/b.yaml': SERVER });
    const err = (await pipeline.loadAll(store).catch((e: unknown) => e)) as ConfigInvalidError;
    expect(err.problems).to.have.length(1);
    expect(err.problems[0]!.message).to.match(/^duplicate mcpserver name 'alpha' \(also in .*a\.yaml\)$/);
  });

  it('reloads a changed file into a new snapshot, announced with the one it replaces', async () => {
    const { pipeline, store, announced, dir } = await make({ 'mcpservers/alpha.yaml': SERVER });
    await pipeline.loadAll(store);
    const first = pipeline.snapshot;
    await writeFile(join(dir, 'mcpservers', 'alpha.yaml'), `${SERVER}timeout: 5\n`);
    expect(await pipeline.reloadAll(store)).to.deep.equal([]);
    expect(pipeline.snapshot).to.not.equal(first);
    expect(pipeline.snapshot.generation).to.be.greaterThan(first.generation);
    expect(pipeline.snapshot.mcpServers.get('alpha')!.value.timeout).to.equal(5);
    expect(announced.at(-1)).to.deep.equal({ next: pipeline.snapshot, previous: first });
  });

  it('keeps the previous snapshot when a reload is rejected, and says why', async () => {
    const { pipeline, store, rejected, logged, dir } = await make({ 'mcpservers/alpha.yaml': SERVER });
    await pipeline.loadAll(store);
    const before = pipeline.snapshot;
    await writeFile(join(dir, 'mcpservers', 'alpha.yaml'), `${SERVER}timeout: soon\n`);
    const problems = await pipeline.reloadAll(store);
    expect(problems.map((p) => [p.line, p.field])).to.deep.equal([[4, 'timeout']]);
    expect(pipeline.snapshot).to.equal(before);
    expect(rejected).to.deep.equal([problems]);
    expect(logged.join('')).to.include('alpha.yaml:4:10: timeout: must be integer (keeping the last good definition)');
  });

  it('keeps the last good definition when a changed file arrives invalid from the watcher', async () => {
    const { pipeline, store, dir } = await make({ 'mcpservers/alpha.yaml': SERVER });
    await pipeline.loadAll(store);
    const before = pipeline.snapshot;
    const file = join(dir, 'mcpservers', 'alpha.yaml');
    await writeFile(file, 'name: alpha\n');
    const raw = await store.write('mcpserver', 'alpha', { name: 'alpha' }, file);
    await pipeline.handleChange({ type: 'upsert', resource: raw });
    expect(pipeline.snapshot).to.equal(before);
    await pipeline.handleChange({ type: 'remove', kind: 'mcpserver', key: file });
    expect(pipeline.snapshot.mcpServers.size).to.equal(0);
  });

  it('runs concurrent edits one at a time, each seeing what the previous one wrote', async () => {
    const { pipeline, dir } = await make({});
    const file = join(dir, 'counter');
    await writeFile(file, '0');
    const bump = () =>
      pipeline.exclusive(async () => {
        const n = Number(await readFile(file, 'utf8'));
        await new Promise((r) => setImmediate(r));
        await writeFile(file, String(n + 1));
      });
    await Promise.all([bump(), bump(), pipeline.exclusive(() => Promise.reject(new Error('one fails'))).catch(() => undefined), bump()]);
    expect(await readFile(file, 'utf8')).to.equal('3');
  });
});

describe('ConfigPipeline.addKind: resource kinds come from the plugins that own them', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const NOTE: ResourceKindDefinition = {
    name: 'note',
    plugin: 'notes',
    kind: 'Note',
    plural: 'notes',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'text'],
      properties: { name: { type: 'string' }, text: { type: 'string' }, pinned: { type: 'boolean', default: false } },
    },
    shape: 'named',
  };

  it('reads, validates and snapshots a kind a plugin registers, with its own schema', async () => {
    const s = await setup({ 'notes/b.yaml': 'name: shopping\ntext: milk\n', 'notes/a.yaml': 'name: chores\ntext: dishes\n' }, [NOTE]);
    dirs.push(s.dir);
    await s.pipeline.loadAll(s.store);
    const notes = s.pipeline.snapshot.resources.get('note')!;
    expect([...notes.keys()]).to.deep.equal(['chores', 'shopping']);
    expect(notes.get('chores')!.value).to.deep.equal({ name: 'chores', text: 'dishes', pinned: false });
    // A typed field whose kind nobody registered is empty, not missing.
    expect(s.pipeline.snapshot.mcpServers.size).to.equal(0);
    expect(s.pipeline.snapshot.workflows.size).to.equal(0);
  });

  it("validates documents of a registered kind against that kind's schema", async () => {
    const s = await setup({ 'notes/a.yaml': 'name: chores\n' }, [NOTE]);
    dirs.push(s.dir);
    const err = (await s.pipeline.loadAll(s.store).catch((e: unknown) => e)) as ConfigInvalidError;
    expect(err.problems.map((p) => p.message)).to.deep.equal(["required field 'text' is missing"]);
  });

  it('does not read files of a kind no plugin registered, and reports each once', async () => {
    const s = await setup({ 'mcpservers/alpha.yaml': SERVER, 'workflows/greet.yaml': WORKFLOW, 'workflows/broken.yaml': 'not: [valid' }, [MCP_SERVER_KIND]);
    dirs.push(s.dir);
    await s.pipeline.loadAll(s.store);
    expect([...s.pipeline.snapshot.mcpServers.keys()]).to.deep.equal(['alpha']);
    expect(s.pipeline.snapshot.workflows.size).to.equal(0);
    expect([...s.pipeline.snapshot.resources.keys()]).to.deep.equal(['mcpserver']);
    expect(s.unclaimed).to.deep.equal([`workflows: ${join(s.dir, 'workflows', 'broken.yaml')}`, `workflows: ${join(s.dir, 'workflows', 'greet.yaml')}`]);
    await s.pipeline.reloadAll(s.store);
    expect(s.unclaimed).to.have.length(2);
  });

  it('refuses writes of a kind no plugin registered', async () => {
    const s = await setup({}, [MCP_SERVER_KIND]);
    dirs.push(s.dir);
    const err = await s.store.write('workflow', 'greet', {}).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(SwitchboardError);
    expect((err as SwitchboardError).code).to.equal('UNSUPPORTED');
  });

  it('refuses a second registration of a name, a directory or a snapshot field', async () => {
    const s = await setup({}, [MCP_SERVER_KIND]);
    dirs.push(s.dir);
    for (const clash of [
      { ...NOTE, name: 'mcpserver' },
      { ...NOTE, plural: 'mcpservers' },
      { ...NOTE, snapshotField: 'mcpServers' as const },
    ]) {
      expect(() => s.pipeline.addKind(clash)).to.throw(
        SwitchboardError,
        /plugin 'notes' registers the resource kind '.*', which clashes with 'mcpserver' of plugin 'upstreams'/,
      );
    }
  });

  it('names the file and the switched-off plugins in the warning about an unread file', () => {
    expect(unclaimedFileWarning('/cfg/workflows/greet.yaml', 'workflows', { plugins: { workflows: false, 'transport-sse': { enabled: true } } })).to.equal(
      "/cfg/workflows/greet.yaml is ignored: no plugin that is on keeps resources in 'workflows/'; config.yaml switches off the plugin 'workflows'",
    );
    expect(unclaimedFileWarning('/cfg/old/x.yaml', 'old', { plugins: {} })).to.equal(
      "/cfg/old/x.yaml is ignored: no plugin that is on keeps resources in 'old/'",
    );
  });
});
