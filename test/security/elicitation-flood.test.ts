/**
 * Hardening (issue 35), an upstream that floods a person with questions: it sent 300 URL-mode
 * elicitations in 431 ms, each one a page the client would offer to open. Switchboard relays
 * at most a burst of 5 per session and upstream connection (refilled at 5 per 10 s,
 * plugins/upstreams/client/elicitation-rate.ts); the rest are refused at once with a JSON-RPC
 * error naming the limit, and never reach the client. Form mode goes the same way. Over stdio
 * (`ask`) and streamable HTTP (`askweb`).
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, text } from '../support/harness.js';
import { startAskingServers, type AskingServers } from '../support/asking-servers.js';

interface Flood {
  answered: number;
  refused: number;
  codes: number[];
  first: { message: string; data: { limit: number; windowMs: number; retryAfterMs: number } } | null;
}

describe('security: an upstream cannot flood a person with elicitations', function () {
  this.timeout(60_000);
  let servers: AskingServers;
  const clients: Client[] = [];

  /** A client that accepts whatever it is asked, and counts it. */
  const person = async () => {
    const client = new Client({ name: 'ide', version: '1' }, { capabilities: { elicitation: { form: {}, url: {} } } });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params);
      return req.params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { name: 'ada' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(servers.sb.url)));
    clients.push(client);
    return { client, asked };
  };
  const flood = async (client: Client, server: string, mode: 'url' | 'form', count: number): Promise<Flood> =>
    JSON.parse(text(await callTool(client, `x_${server}_flood`, { count, mode }))) as Flood;

  before(async () => {
    servers = await startAskingServers();
  });
  after(() => servers?.stop(clients));

  for (const server of ['ask', 'askweb'])
    it(`300 URL-mode elicitations from '${server}' in one call: 5 reach the person, 295 are refused naming the limit`, async () => {
      const ada = await person();
      const r = await flood(ada.client, server, 'url', 300);
      expect(ada.asked).to.have.length(5);
      expect(r.answered).to.equal(5);
      expect(r.refused).to.equal(295);
      expect(r.codes).to.deep.equal([-32000]);
      expect(r.first?.message).to.include(`Switchboard relays at most 5 elicitation requests from '${server}' to one session per 10 s`);
      expect(r.first?.data).to.include({ limit: 5, windowMs: 10_000 });
      expect(r.first?.data.retryAfterMs).to.be.within(1, 2_000);
    });

  it('form mode is limited the same way; another session has its own allowance', async () => {
    const ada = await person();
    const first = await flood(ada.client, 'ask', 'form', 40);
    expect([first.answered, first.refused, ada.asked.length]).to.deep.equal([5, 35, 5]);
    const bob = await person();
    const other = await flood(bob.client, 'ask', 'url', 8);
    expect([other.answered, other.refused, bob.asked.length]).to.deep.equal([5, 3, 5]);
  });

  it('an ordinary question still gets through in a fresh session', async () => {
    const carol = await person();
    expect(text(await callTool(carol.client, 'x_ask_ask_name'))).to.equal('hello ada');
  });
});
