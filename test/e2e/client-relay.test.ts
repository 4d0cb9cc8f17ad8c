import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, EVERYTHING, stdioServer, text, type Running } from '../support/harness.js';
import { startAskingServers, type AskingServers } from '../support/asking-servers.js';

interface Capable {
  client: Client;
  logs: { level: string; logger?: string; data: unknown }[];
  asked: string[];
}

/** A client as an IDE with a model and a person behind it: it samples, elicits and has roots. */
async function capableClient(url: string, who: string, elicit: 'accept' | 'decline' | 'cancel' = 'accept'): Promise<Capable> {
  const client = new Client({ name: `ide-${who}`, version: '1' }, { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } });
  const out: Capable = { client, logs: [], asked: [] };
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    const first = req.params.messages[0]!.content as { text?: string };
    out.asked.push(`sampling: ${first.text}`);
    return { model: `model-of-${who}`, role: 'assistant', content: { type: 'text', text: `summary by ${who} of "${first.text}"` } };
  });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    out.asked.push(`elicitation: ${req.params.message}`);
    return elicit === 'accept' ? { action: 'accept', content: { name: who } } : { action: elicit };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: `file:///home/${who}`, name: who }] }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void out.logs.push(n.params));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return out;
}

describe('server-to-client requests and logs are relayed to the calling session', () => {
  let sb: Running;
  let servers: AskingServers | undefined;
  const clients: Client[] = [];

  before(async () => {
    servers = await startAskingServers({ more: { 'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']) } });
    sb = servers.sb;
  });

  after(() => servers?.stop(clients));

  const capable = async (who: string, elicit?: 'accept' | 'decline' | 'cancel') => {
    const c = await capableClient(sb.url, who, elicit);
    clients.push(c.client);
    return c;
  };
  const call = (c: Client, name: string, args: Record<string, unknown> = {}) => callTool(c, name, args);

  it('relays sampling to the calling client and its answer back to the upstream', async () => {
    const ada = await capable('ada');
    const r = await call(ada.client, 'x_ask_summarize', { text: 'the release notes' });
    expect(text(r)).to.equal('model model-of-ada said: summary by ada of "the release notes"');
    expect(ada.asked).to.deep.equal(['sampling: the release notes']);
  });

  it('relays elicitation: accept, decline and cancel each reach the upstream', async () => {
    expect(text(await call((await capable('grace', 'accept')).client, 'x_ask_ask_name'))).to.equal('hello grace');
    expect(text(await call((await capable('x', 'decline')).client, 'x_ask_ask_name'))).to.equal('no name (decline)');
    expect(text(await call((await capable('y', 'cancel')).client, 'x_ask_ask_name'))).to.equal('no name (cancel)');
  });

  it("relays roots/list to the calling client's roots", async () => {
    const linus = await capable('linus');
    expect(text(await call(linus.client, 'x_ask_roots'))).to.equal('file:///home/linus');
  });

  it('refuses, at once and clearly, for a client that did not declare the capability', async () => {
    const plain = await connectHttp(sb.url);
    clients.push(plain);
    const started = Date.now();
    const r = await call(plain, 'x_ask_summarize', { text: 'x' });
    expect(Date.now() - started).to.be.below(5000);
    expect(r.isError).to.equal(true);
    expect(text(r)).to.include("does not support sampling/createMessage (it did not declare the 'sampling' capability)");
  });

  it("forwards the upstream's log messages during a call, filtered by the session's level, with the server as logger", async () => {
    const ada = await capable('logs');
    await ada.client.setLoggingLevel('warning');
    expect(text(await call(ada.client, 'x_ask_chatty', { tag: 'build' }))).to.equal('done build');
    expect(ada.logs.map((l) => [l.level, l.logger, l.data])).to.deep.equal([
      ['warning', 'ask', 'build: warning'],
      ['error', 'ask', 'build: error'],
    ]);
  });

  it('keeps two sessions apart: each gets only its own requests and logs (streamable-HTTP upstream)', async () => {
    const a = await capable('alpha');
    const b = await capable('beta');
    const [ra, rb, la, lb] = await Promise.all([
      call(a.client, 'x_askweb_summarize', { text: 'from alpha' }),
      call(b.client, 'x_askweb_summarize', { text: 'from beta' }),
      call(a.client, 'x_askweb_chatty', { tag: 'alpha' }),
      call(b.client, 'x_askweb_chatty', { tag: 'beta' }),
    ]);
    expect(text(ra)).to.equal('model model-of-alpha said: summary by alpha of "from alpha"');
    expect(text(rb)).to.equal('model model-of-beta said: summary by beta of "from beta"');
    expect([text(la), text(lb)]).to.deep.equal(['done alpha', 'done beta']);
    expect(a.asked).to.deep.equal(['sampling: from alpha']);
    expect(b.asked).to.deep.equal(['sampling: from beta']);
    expect(a.logs.map((l) => l.data)).to.deep.equal(['alpha: debug', 'alpha: info', 'alpha: warning', 'alpha: error']);
    expect(b.logs.map((l) => l.data)).to.deep.equal(['beta: debug', 'beta: info', 'beta: warning', 'beta: error']);
    expect(a.logs.every((l) => l.logger === 'askweb')).to.equal(true);
  });

  it("runs server-everything's own sampling and elicitation tools through call_tool", async () => {
    const ada = await capable('everyone');
    const sampled = await call(ada.client, 'x_everything_trigger-sampling-request', { prompt: 'a haiku' });
    expect(text(sampled)).to.include('model-of-everyone').and.include('a haiku');
    const elicited = await call(ada.client, 'x_everything_trigger-elicitation-request');
    expect(elicited.isError, text(elicited)).to.not.equal(true);
    expect(ada.asked.some((q) => q.startsWith('elicitation:'))).to.equal(true);
  });

  it('relays during call_tools and workflow steps too', async () => {
    const ada = await capable('batch');
    const r = (await ada.client.callTool({
      name: 'call_tools',
      arguments: {
        calls: [
          { name: 'x_ask_roots', arguments: {} },
          { name: 'x_ask_summarize', arguments: { text: 'b' } },
        ],
      },
    })) as CallToolResult;
    const results = (r.structuredContent as { results: CallToolResult[] }).results;
    expect(results.map(text)).to.deep.equal(['file:///home/batch', 'model model-of-batch said: summary by batch of "b"']);
    await call(ada.client, 'core_workflow_create', {
      name: 'ask_twice',
      steps: [
        { id: 'who', tool: 'x_ask_ask_name' },
        { id: 'sum', tool: 'x_ask_summarize', args: { text: '{{ .results.who }}' }, output: true },
      ],
    });
    const wf = await call(ada.client, 'workflow_ask_twice');
    expect(errorCode(wf)).to.equal(undefined);
    expect(JSON.stringify(wf.structuredContent)).to.include('summary by batch of \\"hello batch\\"');
  });
});
