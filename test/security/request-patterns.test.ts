/**
 * Requests shaped against the gateway's own pattern matching, sent by an ordinary client:
 * filter_tools queries of letters without a dot, or of spaces, and a resources/read of a
 * 100,000-character URI whose last segment defeats a template with two expressions side by
 * side (`test://repos/{owner}/{repo}{?ref}`). Before stop 63 each held the event loop for
 * seconds (quadratic regular expressions: the query's file-name and clause patterns, the
 * template turned into `[^/]+[^/]+`). Since stop 76 a query is read up to 4,096 characters and
 * a longer one is refused: read linearly, a query the size of the body limit still held the
 * loop for seconds. Now each is answered or refused at once, /health keeps answering (a
 * separate process polls it), and the gateway still serves. */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, errorCode, meta, metaRaw, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';
import { describePolls, whilePolling } from '../support/health-poller.js';

/**
 * What the polls must show. Before the fixes a flood held /health for 7 s at the median and 10 s
 * at worst. This file runs in the parallel pass beside other suites, where one poll of thirty
 * once waited 114 ms for the machine, not for the gateway: the bound on every poll is what no
 * blocking pattern can meet, the median what a responsive gateway always does.
 */
const SLOWEST_WITHIN_MS = 1_000;
const MEDIAN_WITHIN_MS = 100;
const ROUNDS = 3;

describe('requests shaped against pattern matching: answered at once, the gateway never blocked', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/rich.yaml': stdioServer('rich', join(ROOT, 'dist/test/fixtures/rich-server.js')) });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('a query of 4,096 letters or spaces is answered, one of 100,000 or 4,000,000 characters refused naming the limit, a 100,000-character URI is not found: /health never held', async () => {
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).to.include('test://repos/{owner}/{repo}{?ref}');
    const uri = `test://repos/acme/${'b'.repeat(100_000)}/`;
    const { polls } = await whilePolling(new URL('/health', sb.url).toString(), async (polled) => {
      for (let round = 0; round < ROUNDS || polled() < 10; round++) {
        for (const query of ['a'.repeat(4_096), `${' '.repeat(4_090)}report`]) {
          const found = await meta<{ tools: unknown[] }>(client, 'filter_tools', { query, limit: 5, offset: 0 });
          expect(found.tools).to.be.an('array');
        }
        // The body limit (4 MiB) admits a query of 4,000,000 characters: refused before it is read.
        for (const query of ['a'.repeat(100_000), `${' '.repeat(4_000_000)}report`]) {
          const refused = await metaRaw(client, 'filter_tools', { query, limit: 5, offset: 0 });
          expect(errorCode(refused)).to.equal('INVALID_ARGUMENTS');
          expect(text(refused)).to.match(/query must NOT have more than 4096 characters/);
        }
        let missing: (Error & { code?: number }) | undefined;
        try {
          await client.readResource({ uri });
        } catch (err) {
          missing = err as Error & { code?: number };
        }
        expect(missing?.code, 'no template describes it: not found').to.equal(-32602);
      }
    });
    expect(polls.every((p) => p.status === 200)).to.equal(true);
    const ms = polls.map((p) => p.ms).sort((a, b) => a - b);
    expect(ms[ms.length - 1], describePolls(polls)).to.be.below(SLOWEST_WITHIN_MS);
    expect(ms[ms.length >> 1], describePolls(polls)).to.be.below(MEDIAN_WITHIN_MS);
    // Still serving: a query in words, and a URI the template does describe.
    const ranked = await meta<{ tools: { name: string }[] }>(client, 'filter_tools', { query: 'report items structured', limit: 1, offset: 0 });
    expect(ranked.tools[0]?.name).to.equal('x_rich_report');
  });

  it('a body nested a million deep is refused with 400 before it is parsed; big bodies nested shallowly, brackets in their strings included, are read: /health never held', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"filter_tools","arguments":{"labels":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}}}`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const { polls } = await whilePolling(new URL('/health', sb.url).toString(), async (polled) => {
      for (let round = 0; round < ROUNDS || polled() < 10; round++) {
        const res = await fetch(sb.url, { method: 'POST', headers, body: deep });
        expect(res.status).to.equal(400);
        const answer = (await res.json()) as { error: { code: number; message: string } };
        expect(answer.error.code).to.equal(-32600);
        expect(answer.error.message).to.match(/nests objects and arrays more than 512 levels deep/);
        // 200,000 brackets inside a string are text: the body is read and the filter applied.
        const found = await meta<{ tools: unknown[] }>(client, 'filter_tools', { description_filter: '[{'.repeat(100_000), limit: 5, offset: 0 });
        expect(found.tools).to.deep.equal([]);
      }
    });
    expect(polls.every((p) => p.status === 200)).to.equal(true);
    const ms = polls.map((p) => p.ms).sort((a, b) => a - b);
    expect(ms[ms.length - 1], describePolls(polls)).to.be.below(SLOWEST_WITHIN_MS);
    expect(ms[ms.length >> 1], describePolls(polls)).to.be.below(MEDIAN_WITHIN_MS);
  });
});
