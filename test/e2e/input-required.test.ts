/**
 * A 2026-07-28 client calls a tool of a 2025-11-25 upstream that asks its client something
 * during the call (test/fixtures/asking-server.ts, over stdio and streamable HTTP): the client
 * gets `resultType: "input_required"` with the question, retries with `inputResponses` and the
 * sealed `requestState`, and the upstream's pending request is answered (issue 40, item 3
 * first bullet). Driven by the v2 SDK client, which fulfils input_required rounds through its
 * own handlers, and on the wire (what a forged or spent `requestState` gets:
 * test/security/request-state.test.ts).
 */
import { expect } from 'chai';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startAskingServers, type AskingServers } from '../support/asking-servers.js';
import { text } from '../support/harness.js';
import { callOnWire } from '../support/modern-wire.js';

const MODERN = '2026-07-28';

describe('a 2026-07-28 client and a 2025-11-25 upstream that asks: input_required rounds', function () {
  this.timeout(60_000);
  let servers: AskingServers | undefined;
  let url: string;
  const modern: ModernClient[] = [];

  before(async () => {
    servers = await startAskingServers();
    url = servers.sb.url;
  });

  after(async () => {
    for (const c of modern) await c.close().catch(() => undefined);
    await servers?.stop([]);
  });

  async function ide(who: string): Promise<{ client: ModernClient; asked: string[] }> {
    const asked: string[] = [];
    const client = new ModernClient(
      { name: `ide-${who}`, version: '1' },
      { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} }, sampling: {} } },
    );
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(`elicitation: ${req.params.message}`);
      return { action: 'accept', content: { name: who } };
    });
    client.setRequestHandler('sampling/createMessage', async (req) => {
      const first = req.params.messages[0]!.content as { text?: string };
      asked.push(`sampling: ${first.text}`);
      return { model: `model-of-${who}`, role: 'assistant', content: { type: 'text', text: `summary by ${who}` } };
    });
    await client.connect(new ModernTransport(new URL(url)));
    modern.push(client);
    return { client, asked };
  }

  const call = async (c: ModernClient, tool: string, args: Record<string, unknown> = {}) =>
    (await c.callTool({ name: 'call_tool', arguments: { name: tool, arguments: args } })) as CallToolResult;

  it('an elicitation of a stdio upstream reaches the modern client as input_required, and its answer reaches the upstream', async () => {
    const ada = await ide('ada');
    expect(text(await call(ada.client, 'x_ask_ask_name'))).to.equal('hello ada');
    expect(ada.asked).to.deep.equal(['elicitation: What is your name?']);
  });

  it('sampling of a streamable-HTTP upstream crosses the same way', async () => {
    const bo = await ide('bo');
    expect(text(await call(bo.client, 'x_askweb_summarize', { text: 'the notes' }))).to.equal('model model-of-bo said: summary by bo');
    expect(bo.asked).to.deep.equal(['sampling: the notes']);
  });

  it('on the wire: the question as inputRequests, an opaque requestState, the retry answered', async () => {
    const first = await callOnWire(url, 1, 'x_ask_ask_name');
    expect(first.result?.resultType).to.equal('input_required');
    const [key, question] = Object.entries(first.result!.inputRequests!)[0]!;
    expect(question.method).to.equal('elicitation/create');
    expect(question.params.message).to.equal('What is your name?');
    const state = first.result!.requestState!;
    expect(state).to.be.a('string');
    expect(state).to.not.include('ask_name');
    const answered = await callOnWire(url, 2, 'x_ask_ask_name', {
      inputResponses: { [key]: { action: 'accept', content: { name: 'cy' } } },
      requestState: state,
    });
    expect(answered.result?.resultType).to.equal('complete');
    expect(JSON.stringify(answered.result?.content)).to.include('hello cy');
  });
});
