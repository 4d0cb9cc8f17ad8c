/**
 * The embedders' guards, attacked from config.yaml's side:
 * - embedder.openai's endpoint obeys the outbound policy: a loopback (or private) address
 *   not admitted by aggregator.network.allow is refused before any connection, and
 *   filter_tools says so while it ranks lexically;
 * - a key in the URL is refused at startup;
 * - embedder.staticVectors' file limits: a file larger than maxFileBytes stops startup naming
 *   the limit; a dimension beyond maxDimension leaves filter_tools lexical, saying why;
 *   maxWords bounds what is read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { connectHttp, eventually, makeConfigDir, meta, startSwitchboard } from '../support/harness.js';
import { startEmbeddingsServer } from '../support/embeddings-server.js';
import { fasttextModel } from '../support/fasttext-model.js';
import { readVectorsFile } from '../../plugins/embedder-static/vectors-file.js';

interface Found {
  tools: { name: string }[];
  ranking?: string;
}

describe('embedder guards: outbound policy, credentials in URLs, model file limits', function () {
  this.timeout(10 * 60_000);

  it('refuses an embeddings endpoint on loopback unless aggregator.network.allow admits it: no request reaches it, filter_tools says "refused"', async function () {
    const model = await fasttextModel();
    if ('skipped' in model) this.skip();
    const emb = await startEmbeddingsServer(model.file, 'k');
    const sb = await startSwitchboard(
      { 'config.yaml': `embedder:\n  openai:\n    baseUrl: ${emb.baseUrl}\n    model: m\n    apiKey: k\n` },
      { args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 },
    );
    try {
      const client = await connectHttp(sb.url);
      const found = await eventually(
        () => meta<Found>(client, 'filter_tools', { query: 'list the workflows', limit: 5, offset: 0 }),
        (f) => f.ranking !== undefined && f.ranking.startsWith('lexical (embedder unavailable'),
        60_000,
        100,
      );
      expect(found.ranking).to.match(/^lexical \(embedder unavailable: refused: .*127\.0\.0\.1.*aggregator\.network\.allow/);
      expect(found.tools.length).to.be.greaterThan(0);
      expect(emb.requests).to.deep.equal([]);
      await client.close();
    } finally {
      await sb.stop();
      await emb.close();
    }
  });

  it('refuses a baseUrl carrying credentials at startup, naming the field', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'embedder:\n  openai:\n    baseUrl: https://user:sekrit@api.example.com/v1\n    model: m\n' });
    const err = await startSwitchboard({}, { configDir: dir, args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).to.match(/embedder\.openai\.baseUrl: carries credentials/);
    expect(err?.message).to.not.include('sekrit');
  });

  it('stops startup on a vectors file larger than maxFileBytes, naming the limit', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'embedder:\n  staticVectors:\n    file: big.vec\n    maxFileBytes: 100\n' });
    await writeFile(join(dir, 'big.vec'), `2 3\nfile 0.1 0.2 0.3\nfolder 0.1 0.2 0.4\n${'x 1 1 1\n'.repeat(50)}`);
    const err = await startSwitchboard({}, { configDir: dir, args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).to.match(/big\.vec' is \d+ bytes, more than embedder\.staticVectors\.maxFileBytes \(100\)/);
  });

  it('leaves ranking lexical, saying why, when the vectors are wider than maxDimension', async () => {
    const sb = await startSwitchboard(
      { 'config.yaml': 'embedder:\n  staticVectors:\n    file: wide.vec\n    maxDimension: 2\n', 'wide.vec': '2 3\nfile 0.1 0.2 0.3\nfolder 0.1 0.2 0.4\n' },
      { args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 },
    );
    try {
      const client = await connectHttp(sb.url);
      const found = await eventually(
        () => meta<Found>(client, 'filter_tools', { query: 'list the workflows', limit: 5, offset: 0 }),
        (f) => f.ranking !== undefined && f.ranking.startsWith('lexical (embedder unavailable'),
        30_000,
        100,
      );
      expect(found.ranking).to.include('model-invalid').and.include('dimension 3, more than embedder.staticVectors.maxDimension (2)');
      await client.close();
    } finally {
      await sb.stop();
    }
  });

  it('reads no more than maxWords vectors, skipping lines that do not parse', async () => {
    const dir = await makeConfigDir({ 'v.vec': 'a 1 2\nb 1\nc 3 4\nd 5 6\ne 7 8\n' });
    const v = await readVectorsFile(join(dir, 'v.vec'), 'f', { maxFileBytes: 1000, maxDimension: 10, maxWords: 3 });
    expect([...v.rows.keys()]).to.deep.equal(['a', 'c', 'd']);
    expect(v.skipped).to.equal(1);
    expect(Array.from(v.data)).to.deep.equal([1, 2, 3, 4, 5, 6]);
  });
});
