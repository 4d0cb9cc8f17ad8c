/**
 * Issue 38 item 4: an upstream that asks (elicitation, sampling) during one of a script's inner
 * calls reaches the client that ran the script, as it does for call_tool, and the answer goes
 * back to the upstream; a client that cannot answer gets the call refused inside the script.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp } from '../support/harness.js';
import { startAskingServers, type AskingServers } from '../support/asking-servers.js';
import { ran, runCode } from '../support/code-mode.js';

describe('code mode: an upstream asks during an inner call', () => {
  let servers: AskingServers;
  const clients: Client[] = [];

  before(async () => {
    servers = await startAskingServers({ more: { 'config.yaml': 'plugins:\n  code-mode:\n    enabled: true\n' } });
  });

  after(() => servers?.stop(clients));

  it("elicitation and sampling reach the script's client, and its answers reach the upstreams (stdio and HTTP)", async () => {
    const asked: string[] = [];
    const client = new Client({ name: 'ide-ada', version: '1' }, { capabilities: { sampling: {}, elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(`elicitation: ${req.params.message}`);
      return { action: 'accept', content: { name: 'ada' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push(`sampling: ${(req.params.messages[0]!.content as { text?: string }).text}`);
      return { model: 'model-of-ada', role: 'assistant', content: { type: 'text', text: 'a short summary' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(servers.sb.url)));
    clients.push(client);

    const run = ran(
      await runCode(
        client,
        `const greeting = await tools.x_ask_ask_name({});
         const summary = await tools.x_askweb_summarize({ text: 'the release notes' });
         return { greeting, summary };`,
      ),
    );
    expect(JSON.stringify(run.result)).to.include('hello ada').and.include('model model-of-ada said: a short summary');
    expect(asked).to.deep.equal(['elicitation: What is your name?', 'sampling: the release notes']);
  });

  it('a client that declared neither capability gets the inner call refused, naming what is missing, and the script can catch it', async () => {
    const plain = await connectHttp(servers.sb.url);
    clients.push(plain);
    const run = ran(
      await runCode(
        plain,
        `try { await tools.x_ask_summarize({ text: 'x' }); return 'answered'; }
         catch (e) { return String(e.message ?? e); }`,
      ),
    );
    expect(String(run.result)).to.include("did not declare the 'sampling' capability");
  });
});
