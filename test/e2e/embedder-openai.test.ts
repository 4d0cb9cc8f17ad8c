/**
 * embedder-openai against a local server speaking the real `/v1/embeddings` wire format,
 * backed by the same real vectors as the embedder-static tests (fastText trained on WordNet):
 * hybrid ranking through the SDK client, requests batched and carrying the operator's key,
 * that key renewed in secrets.env while it runs, then an outage: the server goes away and
 * filter_tools answers with lexical ranking, saying why, and never the key.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, meta, startSwitchboard, text, type Running } from '../support/harness.js';
import { startEmbeddingsServer, type EmbeddingsServer } from '../support/embeddings-server.js';
import { fasttextModel } from '../support/fasttext-model.js';
import { writeFileAtomic } from '../../lib/files/atomic-write.js';
import { PARAPHRASES, replayServers } from '../support/embedder-fixtures.js';

interface Found {
  tools: { name: string }[];
  ranking?: string;
}

const KEY = `sk-test-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

describe('embedder-openai: hybrid ranking through an OpenAI-compatible /v1/embeddings endpoint, and lexical when it is down', function () {
  this.timeout(20 * 60_000);
  let emb: EmbeddingsServer;
  let sb: Running;
  let client: Client;
  const answers: string[] = [];
  const query = async (q: string, limit = 5): Promise<Found> => {
    const r = await meta<Found>(client, 'filter_tools', { query: q, limit, offset: 0 });
    answers.push(JSON.stringify(r));
    return r;
  };

  before(async function () {
    const model = await fasttextModel();
    if ('skipped' in model) {
      console.log(`      note: ${model.skipped}; the embedder tests are skipped`);
      this.skip();
    }
    emb = await startEmbeddingsServer(model.file, KEY);
    const config = [
      'aggregator:',
      '  network:',
      '    allow: ["127.0.0.1"]',
      'embedder:',
      '  openai:',
      `    baseUrl: ${emb.baseUrl}`,
      '    model: wordnet-skipgram',
      '    apiKey: ${SB_TEST_EMBEDDINGS_KEY}',
      '    batchSize: 16',
    ].join('\n');
    sb = await startSwitchboard(
      // The key in the operator's secrets.env, where it can be renewed while Switchboard runs.
      { ...replayServers(), 'config.yaml': `${config}\n`, 'secrets.env': `SB_TEST_EMBEDDINGS_KEY=${KEY}\n` },
      { args: ['--host', '127.0.0.1'], startTimeoutMs: 60_000 },
    );
    client = await connectHttp(sb.url);
    const total = Number(/ready: (\d+) tools/.exec(await sb.waitForLog(/ready: \d+ tools/))![1]);
    await sb.waitForLog(new RegExp(`tool vectors: ${total} tools`), 180_000);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
    await emb?.close();
  });

  it('ranks hybrid: a paraphrase finds its tool; tool vectors went in batches of at most batchSize with the bearer key and the model', async () => {
    const p = PARAPHRASES[0]!;
    const found = await eventually(
      () => query(p.query, p.depth),
      (f) => f.ranking === 'hybrid',
      60_000,
      200,
    );
    expect(
      found.tools.map((t) => t.name).some((n) => p.gold.includes(n)),
      found.tools.map((t) => t.name).join(', '),
    ).to.equal(true);
    expect(emb.requests.length).to.be.greaterThan(2);
    expect(emb.requests.every((r) => r.authorization === `Bearer ${KEY}` && r.model === 'wordnet-skipgram')).to.equal(true);
    expect(Math.max(...emb.requests.map((r) => r.inputs))).to.equal(16);
  });

  it('a query embeds once: the same query again sends nothing to the endpoint', async () => {
    const p = PARAPHRASES[1]!;
    await query(p.query);
    const sent = emb.requests.length;
    const again = await query(p.query);
    expect(again.ranking).to.equal('hybrid');
    expect(emb.requests.length).to.equal(sent);
  });

  it('a key renewed in secrets.env is sent from the first refusal of the old one on, without a restart', async () => {
    const renewed = `sk-renewed-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    await writeFileAtomic(join(sb.configDir, 'secrets.env'), `SB_TEST_EMBEDDINGS_KEY=${renewed}\n`);
    emb.renewKey(renewed);
    const sent = emb.requests.length;
    // A query not asked before, so its embedding is asked for now.
    const found = await query('which words mean the same as happy');
    expect(found.ranking).to.equal('hybrid');
    expect(emb.requests.slice(sent).map((r) => r.authorization)).to.deep.equal([`Bearer ${KEY}`, `Bearer ${renewed}`]);
    const again = await query('which words mean the opposite of happy');
    expect(again.ranking).to.equal('hybrid');
    expect(emb.requests.at(-1)!.authorization).to.equal(`Bearer ${renewed}`);
    for (const a of [...answers, sb.logs()]) expect(a).to.not.include(renewed);
  });

  it('with the endpoint down, answers with lexical ranking and says why in `ranking`', async () => {
    await emb.close();
    const found = await query('what hour is it in Tokyo right now');
    expect(found.ranking).to.match(/^lexical \(embedder unavailable: unreachable: http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings: /);
    // Still an answer: the lexical ranking of the same tools.
    expect(found.tools.length).to.be.greaterThan(0);
  });

  it('never shows the key: not in any answer, not in core_config_get, not in the log', async () => {
    const config = text(await callTool(client, 'core_config_get', {}));
    expect(config).to.include('wordnet-skipgram');
    for (const a of [...answers, config, sb.logs()]) expect(a).to.not.include(KEY);
  });
});
