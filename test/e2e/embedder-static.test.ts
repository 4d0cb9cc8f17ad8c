/**
 * Semantic ranking with the embedder-static plugin and a real model: fastText vectors trained
 * at setup on WordNet (test/support/fasttext-model.ts), real upstreams (the search development
 * set's replayed catalogues of memory, filesystem, everything, time, sequential-thinking and
 * github, as their npm packages ship them, served over HTTP by one process for all three
 * Switchboard starts), and the SDK client. A paraphrase that shares no
 * useful word with the tool it means is found with hybrid ranking, where the same Switchboard
 * without an embedder does not find it.
 */
import type { ChildProcess } from 'node:child_process';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, eventually, makeConfigDir, meta, startSwitchboard, type Running } from '../support/harness.js';
import { fasttextModel } from '../support/fasttext-model.js';
import { PARAPHRASES, replayRemotes } from '../support/embedder-fixtures.js';

interface Found {
  tools: { name: string; score?: number }[];
  ranking?: string;
}

describe('embedder-static: hybrid ranking with fastText vectors trained on WordNet, through filter_tools', function () {
  this.timeout(20 * 60_000);
  let hybridDir: string | undefined;
  let hybrid: Running;
  let lexical: Running;
  let hc: Client;
  let lc: Client;
  /** The replayed upstreams, one process over HTTP for both Switchboards and the restart. */
  let replay: ChildProcess | undefined;

  const top = async (client: Client, query: string, limit = 5): Promise<Found> => meta<Found>(client, 'filter_tools', { query, limit, offset: 0 });

  before(async function () {
    const model = await fasttextModel();
    if ('skipped' in model) {
      console.log(`      note: ${model.skipped}; the embedder tests are skipped`);
      this.skip();
    }
    const remotes = await replayRemotes();
    replay = remotes.proc;
    const files = remotes.files;
    // Kept across the restart below; removed in after().
    hybridDir = await makeConfigDir({ ...files, 'config.yaml': `embedder:\n  staticVectors:\n    file: ${JSON.stringify(model.file)}\n` });
    [hybrid, lexical] = await Promise.all([
      startSwitchboard({}, { configDir: hybridDir, args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 }),
      startSwitchboard(files, { args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 }),
    ]);
    [hc, lc] = await Promise.all([connectHttp(hybrid.url), connectHttp(lexical.url)]);
    // Every replayed server's tools listed and their vectors computed, off the request path.
    const total = Number(/ready: (\d+) tools/.exec(await hybrid.waitForLog(/ready: \d+ tools/))![1]);
    await hybrid.waitForLog(new RegExp(`tool vectors: ${total} tools`), 180_000);
    await eventually(
      () => top(hc, 'current time', 1),
      (f) => f.ranking === 'hybrid',
      60_000,
      200,
    );
    await eventually(
      () => Promise.all([hc, lc].map((c) => meta<{ total: number }>(c, 'list_tools', { limit: 1, offset: 0 }))),
      // The replayed servers' 69 tools and the core tools, the same in both.
      (both) => both[0]!.total === both[1]!.total && both[0]!.total >= 69,
      60_000,
      200,
    );
  });
  after(async () => {
    await hc?.close();
    await lc?.close();
    await hybrid?.stop();
    await lexical?.stop();
    if (hybridDir) await rm(hybridDir, { recursive: true, force: true });
    if (replay && replay.exitCode === null) {
      const exited = new Promise((resolve) => replay!.once('exit', resolve));
      replay.kill();
      await exited;
    }
  });

  for (const p of PARAPHRASES) {
    it(`"${p.query}" finds ${p.gold[0]} (or its siblings) in the top ${p.depth} with hybrid ranking${p.lexicalFinds ? ' and lexical alone' : ', not with lexical alone'}`, async () => {
      const h = await top(hc, p.query, p.depth);
      const l = await top(lc, p.query, p.depth);
      expect(h.ranking).to.equal('hybrid');
      expect(l.ranking).to.equal('lexical');
      expect(
        h.tools.map((t) => t.name).some((n) => p.gold.includes(n)),
        `hybrid top ${p.depth}: ${h.tools.map((t) => t.name).join(', ')}`,
      ).to.equal(true);
      expect(
        l.tools.map((t) => t.name).some((n) => p.gold.includes(n)),
        `lexical top ${p.depth}: ${l.tools.map((t) => t.name).join(', ')}`,
      ).to.equal(p.lexicalFinds === true);
    });
  }

  // Meaning alone never raises a core tool: the lexical ranking's gate (a strong match, or a
  // query or a candidate list asking for core tools) holds for the semantic part too.
  it('keeps core_* tools out of a hybrid answer that does not ask for them, and ranks them when the candidates are core tools', async () => {
    for (const query of ['which day is it', 'what hour is it in Tokyo', 'remember a fact about someone', 'recent events']) {
      const h = await top(hc, query, 10);
      expect(h.ranking).to.equal('hybrid');
      expect(
        h.tools.filter((t) => t.name.startsWith('core_')).map((t) => t.name),
        `"${query}" hybrid top 10: ${h.tools.map((t) => t.name).join(', ')}`,
      ).to.deep.equal([]);
    }
    const core = await meta<Found>(hc, 'filter_tools', { query: 'which day is it', pattern: 'core_*', limit: 5, offset: 0 });
    expect(core.ranking).to.equal('hybrid');
    expect(core.tools.length, 'a core_* pattern asks for core tools').to.be.greaterThan(0);
    expect(core.tools.every((t) => t.name.startsWith('core_'))).to.equal(true);
  });

  it('keeps the tool vectors on disk under state/embeddings (0600, no temp file left), and a restart embeds none again', async () => {
    const dir = join(hybrid.configDir, 'state', 'embeddings');
    const names = await eventually(
      () => readdir(dir),
      (f) => f.some((n) => n.endsWith('.bin')),
      30_000,
      100,
    );
    expect(names.filter((n) => !n.startsWith('.'))).to.have.length(1);
    const file = await stat(
      join(
        dir,
        names.find((n) => n.endsWith('.bin'))!,
      ),
    );
    expect(file.mode & 0o777).to.equal(0o600);
    const tools = Number([...hybrid.logs().matchAll(/tool vectors: (\d+) tools/g)].at(-1)![1]);
    expect(file.size).to.be.greaterThan(tools * (16 + 4 * 48));
    await hc.close();
    await hybrid.stop();
    hybrid = await startSwitchboard({}, { configDir: hybridDir!, args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 });
    hc = await connectHttp(hybrid.url);
    await hybrid.waitForLog(new RegExp(`tool vectors: ${tools} tools \\(`), 180_000);
    const refreshes = [...hybrid.logs().matchAll(/tool vectors: \d+ tools \((\d+) embedded/g)].map((m) => Number(m[1]));
    expect(refreshes.length).to.be.greaterThan(0);
    expect(
      refreshes.every((n) => n === 0),
      `embedded per refresh after the restart: ${refreshes.join(', ')}`,
    ).to.equal(true);
    const again = await eventually(
      () => top(hc, PARAPHRASES[1]!.query),
      (f) => f.ranking === 'hybrid',
      60_000,
      200,
    );
    expect(again.tools.map((t) => t.name).some((n) => PARAPHRASES[1]!.gold.includes(n))).to.equal(true);
  });
});
