/**
 * URL-mode elicitation (MCP 2025-11-25) through Switchboard: an upstream's `mode: "url"`
 * request reaches only a client that declared `elicitation.url`, its completion reaches the
 * client that was asked (whoever's call it arrives during), an upstream's -32042 answer to
 * tools/call reaches call_tool as the same JSON-RPC error, and Switchboard refuses URLs no
 * person should be offered. Both a stdio and a streamable-HTTP upstream.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  McpError,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { callTool, errorCode, text, type Running } from '../support/harness.js';
import { startAskingServers, type AskingServers } from '../support/asking-servers.js';

const PAGE = 'https://accounts.example.com/connect?flow=42';
const OPERATOR_SECRET = 'sk-operator-4f9a81c2e7d3';

interface Person {
  client: Client;
  /** The elicitation requests that reached this client. */
  asked: ElicitRequest['params'][];
  /** The elicitation ids this client was told are complete. */
  completed: string[];
  /** Resolves with the next completion's id. */
  nextCompletion(): Promise<string>;
}

async function person(url: string, elicitation: NonNullable<ClientCapabilities['elicitation']>, answer: 'accept' | 'decline' = 'accept'): Promise<Person> {
  const client = new Client({ name: 'ide', version: '1' }, { capabilities: { elicitation } });
  const waiting: ((id: string) => void)[] = [];
  const p: Person = {
    client,
    asked: [],
    completed: [],
    nextCompletion: () => new Promise((resolve) => waiting.push(resolve)),
  };
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    p.asked.push(req.params);
    return req.params.mode === 'url' ? { action: answer } : { action: answer, content: { name: 'ada' } };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    p.completed.push(n.params.elicitationId);
    waiting.shift()?.(n.params.elicitationId);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return p;
}

describe('URL-mode elicitation through Switchboard', () => {
  let sb: Running;
  let servers: AskingServers | undefined;
  const clients: Client[] = [];

  before(async () => {
    servers = await startAskingServers({
      // A secret of the operator's: it must not reach a person inside a page's address.
      askExtra: `env:
  API_KEY: ${OPERATOR_SECRET}
`,
    });
    sb = servers.sb;
  });

  after(() => servers?.stop(clients));

  const connect = async (elicitation: NonNullable<ClientCapabilities['elicitation']>, answer?: 'accept' | 'decline') => {
    const p = await person(sb.url, elicitation, answer);
    clients.push(p.client);
    return p;
  };

  for (const server of ['ask', 'askweb']) {
    it(`relays a URL-mode elicitation from '${server}' to a client that declared it, and its completion to that client only`, async () => {
      const ada = await connect({ url: {} });
      const bob = await connect({ url: {} });
      const r = await callTool(ada.client, `x_${server}_open_page`, { url: PAGE, id: `${server}-1` });
      expect(text(r)).to.equal(`page ${server}-1: accept`);
      expect(ada.asked).to.have.length(1);
      const asked = ada.asked[0] as { mode: string; url: string; message: string; elicitationId: string };
      expect(asked).to.include({ mode: 'url', url: PAGE, message: 'Connect your account' });
      // Switchboard's own id: upstreams' ids are unique only among their own.
      expect(asked.elicitationId).to.match(/^[0-9a-f-]{36}$/);

      // The upstream says so during bob's call: the completion still goes to ada, under her id.
      const completed = ada.nextCompletion();
      expect(text(await callTool(bob.client, `x_${server}_finish_page`, { id: `${server}-1` }))).to.equal(`finished ${server}-1`);
      expect(await completed).to.equal(asked.elicitationId);
      expect(bob.completed).to.deep.equal([]);
      expect(bob.asked).to.deep.equal([]);

      // Said twice: the second is dropped (an elicitation completes once).
      await callTool(bob.client, `x_${server}_finish_page`, { id: `${server}-1` });
      const again = await callTool(ada.client, `x_${server}_open_page`, { url: PAGE, id: `${server}-2` });
      expect(text(again)).to.equal(`page ${server}-2: accept`);
      const second = ada.nextCompletion();
      await callTool(ada.client, `x_${server}_finish_page`, { id: `${server}-2` });
      expect(await second).to.equal((ada.asked[1] as { elicitationId: string }).elicitationId);
      expect(ada.completed).to.have.length(2);
    });
  }

  it('refuses URL mode to a client that declared only form elicitation (or an empty capability), naming the capability', async () => {
    for (const declared of [{}, { form: {} }]) {
      const formOnly = await connect(declared);
      const r = await callTool(formOnly.client, 'x_ask_open_page', { url: PAGE, id: 'form-only' });
      expect(text(r)).to.equal(
        "refused -32602: MCP error -32602: The client calling 'ask' through Switchboard does not support URL-mode elicitation (it did not declare the 'elicitation.url' capability)",
      );
      expect(formOnly.asked).to.deep.equal([]);
    }
  });

  it('keeps form mode working, and refuses it to a client that declared only URL mode', async () => {
    const both = await connect({ form: {}, url: {} });
    expect(text(await callTool(both.client, 'x_ask_ask_name'))).to.equal('hello ada');
    const empty = await connect({});
    expect(text(await callTool(empty.client, 'x_askweb_ask_name'))).to.equal('hello ada');
    const urlOnly = await connect({ url: {} });
    const r = await callTool(urlOnly.client, 'x_ask_ask_name');
    // The fixture's ask_name does not catch: its error is the tool's.
    expect(r.isError).to.equal(true);
    expect(text(r)).to.include("does not support form-mode elicitation (it declared 'elicitation.url' without 'elicitation.form')");
    expect(urlOnly.asked).to.deep.equal([]);
  });

  it('relays only http and https pages, without credentials before the host, up to 2048 characters', async () => {
    const ada = await connect({ url: {} });
    const attacks: [string, string][] = [
      ['javascript:alert(document.cookie)', "url has the scheme 'javascript'; only http and https are relayed"],
      ['data:text/html,<script>alert(1)</script>', "url has the scheme 'data'; only http and https are relayed"],
      ['file:///etc/passwd', "url has the scheme 'file'; only http and https are relayed"],
      ['https://accounts.example.com@evil.example/login', 'url carries credentials before its host (user@host), which hides the real host from the person'],
      [`https://accounts.example.com/?pad=${'a'.repeat(2100)}`, 'url is 2134 characters, more than the limit of 2048'],
      ['/relative/page', 'url is not an absolute URL'],
    ];
    for (const [url, why] of attacks) {
      const r = await callTool(ada.client, 'x_ask_open_page', { url, id: 'attack' });
      expect(text(r)).to.equal(`refused -32602: MCP error -32602: Switchboard does not relay this URL-mode elicitation from 'ask': ${why}`);
    }
    expect(ada.asked).to.deep.equal([]);
  });

  it("scrubs the operator's secrets from a relayed page and from a -32042 answer's pages", async () => {
    const ada = await connect({ url: {} });
    const leaky = `https://accounts.example.com/connect?key=${OPERATOR_SECRET}`;
    expect(text(await callTool(ada.client, 'x_ask_open_page', { url: leaky, id: 'leaky' }))).to.equal('page leaky: accept');
    expect(JSON.stringify(ada.asked)).to.not.include(OPERATOR_SECRET);
    expect((ada.asked[0] as { url: string }).url).to.equal('https://accounts.example.com/connect?key=<redacted>');
    const caught = await ada.client.callTool({ name: 'call_tool', arguments: { name: 'x_ask_needs_page', arguments: { id: 'leaky-2', url: leaky } } }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((caught as McpError).code).to.equal(-32042);
    expect(JSON.stringify((caught as McpError).data)).to.not.include(OPERATOR_SECRET);
  });

  it("passes an upstream's -32042 answer through call_tool as the same error, and routes its completion", async () => {
    const ada = await connect({ url: {} });
    let caught: unknown;
    try {
      await ada.client.callTool({ name: 'call_tool', arguments: { name: 'x_askweb_needs_page', arguments: { id: 'needed-1', url: PAGE } } });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(McpError);
    const e = caught as McpError;
    expect(e.code).to.equal(-32042);
    expect(e.message).to.equal('MCP error -32042: Connect your account first');
    const pages = (e.data as { elicitations: { mode: string; url: string; message: string; elicitationId: string }[] }).elicitations;
    expect(pages).to.have.length(1);
    expect(pages[0]).to.include({ mode: 'url', url: PAGE, message: 'Connect your account first' });
    expect(pages[0]!.elicitationId).to.match(/^[0-9a-f-]{36}$/);
    const completed = ada.nextCompletion();
    await callTool(ada.client, 'x_askweb_finish_page', { id: 'needed-1' });
    expect(await completed).to.equal(pages[0]!.elicitationId);
  });

  it('passes -32042 through a call that asked for progress too (the SDK request path)', async () => {
    const ada = await connect({ url: {} });
    const caught = await ada.client
      .callTool({ name: 'call_tool', arguments: { name: 'x_ask_needs_page', arguments: { id: 'needed-p', url: PAGE } } }, undefined, {
        onprogress: () => undefined,
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(caught).to.be.instanceOf(McpError);
    expect((caught as McpError).code).to.equal(-32042);
    const [page] = ((caught as McpError).data as { elicitations: { url: string; elicitationId: string }[] }).elicitations;
    expect(page!.url).to.equal(PAGE);
    const completed = ada.nextCompletion();
    await callTool(ada.client, 'x_ask_finish_page', { id: 'needed-p' });
    expect(await completed).to.equal(page!.elicitationId);
  });

  it('gives a client without URL mode (and call_tools) the -32042 answer as UPSTREAM_ERROR, with the pages in its details', async () => {
    const formOnly = await connect({});
    const r = await callTool(formOnly.client, 'x_ask_needs_page', { id: 'needed-2', url: PAGE });
    expect(errorCode(r)).to.equal('UPSTREAM_ERROR');
    expect(text(r)).to.equal('MCP error -32042: Connect your account first');
    const details = (r.structuredContent as { error: { details: { upstreamCode: number; elicitations: { url: string }[] } } }).error.details;
    expect(details.upstreamCode).to.equal(-32042);
    expect(details.elicitations.map((p) => p.url)).to.deep.equal([PAGE]);

    const ada = await connect({ url: {} });
    const batch = (await ada.client.callTool({
      name: 'call_tools',
      arguments: { calls: [{ name: 'x_ask_needs_page', arguments: { id: 'needed-3', url: PAGE } }] },
    })) as CallToolResult;
    const [one] = (batch.structuredContent as { results: CallToolResult[] }).results;
    expect(errorCode(one!)).to.equal('UPSTREAM_ERROR');
  });

  it('passes a -32042 answer whose page Switchboard would not offer as a plain UPSTREAM_ERROR, without the page', async () => {
    const ada = await connect({ url: {} });
    const r = await callTool(ada.client, 'x_ask_needs_page', { id: 'bad', url: 'javascript:alert(1)' });
    expect(errorCode(r)).to.equal('UPSTREAM_ERROR');
    expect(JSON.stringify(r.structuredContent)).to.not.include('javascript:');
  });
});
