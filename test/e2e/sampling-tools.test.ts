/**
 * Sampling with tools (MCP 2025-11-25) through Switchboard: an upstream's
 * sampling/createMessage carrying `tools` / `toolChoice` reaches only a client that declared
 * `sampling.tools`, and the tool_use / tool_result content passes both ways unchanged; a
 * client with plain sampling gets plain sampling, and the upstream hears why it got no more.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, type ClientCapabilities, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { callTool, text, type Running } from '../support/harness.js';
import { startAskingServers, type AskingServers } from '../support/asking-servers.js';

const TOOL_USE = { type: 'tool_use', id: 'call-7', name: 'get_weather', input: { city: 'Paris' } };
const WEATHER_TOOL = { name: 'get_weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };

/** A client with a model that calls get_weather when it may, then reads the tool's result. */
async function modelClient(url: string, sampling: NonNullable<ClientCapabilities['sampling']>) {
  const client = new Client({ name: 'agent', version: '1' }, { capabilities: { sampling } });
  const asked: CreateMessageRequest['params'][] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    asked.push(req.params);
    if (req.params.tools && asked.length === 1) return { model: 'm1', role: 'assistant', content: [TOOL_USE], stopReason: 'toolUse' };
    return { model: 'm1', role: 'assistant', content: { type: 'text', text: `plain answer #${asked.length}` }, stopReason: 'endTurn' };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, asked };
}

describe('sampling with tools through Switchboard', () => {
  let sb: Running;
  let servers: AskingServers | undefined;
  const clients: Client[] = [];

  before(async () => {
    servers = await startAskingServers({});
    sb = servers.sb;
  });

  after(() => servers?.stop(clients));

  const connect = async (sampling: NonNullable<ClientCapabilities['sampling']>) => {
    const c = await modelClient(sb.url, sampling);
    clients.push(c.client);
    return c;
  };

  for (const server of ['ask', 'askweb']) {
    it(`relays tools and toolChoice from '${server}' to a client that declared sampling.tools; tool_use and tool_result pass unchanged`, async () => {
      const agent = await connect({ tools: {} });
      const r = await callTool(agent.client, `x_${server}_pick_tool`, { text: 'weather in Paris?' });
      expect(r.isError, text(r)).to.not.equal(true);
      // What reached the client: the upstream's tools and choice as sent.
      expect(agent.asked).to.have.length(2);
      expect(agent.asked[0]!.tools).to.deep.equal([WEATHER_TOOL]);
      expect(agent.asked[0]!.toolChoice).to.deep.equal({ mode: 'auto' });
      expect(agent.asked[1]!.messages).to.deep.equal([
        { role: 'user', content: { type: 'text', text: 'weather in Paris?' } },
        { role: 'assistant', content: [TOOL_USE] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call-7', content: [{ type: 'text', text: 'sunny' }] }] },
      ]);
      // What reached the upstream: the client's answers as given.
      const seen = JSON.parse(text(r)) as { picked: Record<string, unknown>; answer: Record<string, unknown> };
      expect(seen.picked).to.deep.equal({ model: 'm1', role: 'assistant', content: [TOOL_USE], stopReason: 'toolUse' });
      expect(seen.answer).to.deep.equal({ model: 'm1', role: 'assistant', content: { type: 'text', text: 'plain answer #2' }, stopReason: 'endTurn' });
    });
  }

  it('refuses tools to a client with plain sampling: the upstream gets -32602 naming sampling.tools, the client is not asked', async () => {
    const plain = await connect({});
    const r = await callTool(plain.client, 'x_ask_pick_tool', { text: 'weather?' });
    expect(text(r)).to.equal(
      "refused -32602: MCP error -32602: The client calling 'ask' through Switchboard does not support tools in sampling/createMessage (it did not declare the 'sampling.tools' capability); ask without tools and toolChoice",
    );
    expect(plain.asked).to.deep.equal([]);
  });

  it('keeps plain sampling working for plain and tool-capable clients alike', async () => {
    for (const sampling of [{}, { tools: {} }]) {
      const c = await connect(sampling);
      expect(text(await callTool(c.client, 'x_askweb_summarize', { text: 'notes' }))).to.equal('model m1 said: plain answer #1');
      expect(c.asked[0]!.tools).to.equal(undefined);
    }
  });
});
