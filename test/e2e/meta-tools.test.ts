import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  EVERYTHING,
  meta,
  metaRaw,
  postInitialize,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

const META_TOOLS = [
  'list_tools',
  'describe_tool',
  'filter_tools',
  'list_core_tools',
  'call_tool',
  'list_resources',
  'describe_resource',
  'get_resource',
  'list_prompts',
  'describe_prompt',
  'get_prompt',
  'list_servers',
  'call_tools',
];

interface ListToolsResult {
  tools: { name: string; summary: string; server?: string; kind: string; annotations?: Record<string, boolean> }[];
  total: number;
  total_tools: number;
  filtered_count: number;
  truncated: boolean;
  filters: Record<string, unknown>;
  servers_requiring_auth: unknown[];
}

describe('meta-tools over streamable HTTP, aggregating real servers', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
      'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\nstderrLogLevel: info\n'),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('shows a client exactly the 13 meta-tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal([...META_TOOLS].sort());
  });

  it('pages list_tools until truncated is false, covering every tool exactly once', async () => {
    const first = await meta<ListToolsResult>(client, 'list_tools', { limit: 1 });
    expect(first.tools).to.have.length(1);
    expect(first.filtered_count).to.equal(1);
    expect(first.truncated).to.equal(true);
    expect(first.total).to.equal(first.total_tools);
    expect(first.filters).to.deep.equal({ case_sensitive: false, include_schema: false, limit: 1, offset: 0 });
    expect(first.servers_requiring_auth).to.deep.equal([]);
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const page = await meta<ListToolsResult>(client, 'list_tools', { limit: 7, offset });
      seen.push(...page.tools.map((t) => t.name));
      offset += page.tools.length;
      if (!page.truncated) break;
    }
    expect(seen).to.have.length(first.total);
    expect(new Set(seen).size).to.equal(seen.length);
    expect(seen).to.include.members(['x_everything_echo', 'x_everything_get-sum', 'x_fx_ping']);
  });

  it('defaults list_tools to 50 per page and refuses a limit below 1', async () => {
    const page = await meta<ListToolsResult>(client, 'list_tools');
    expect((page.filters as { limit: number }).limit).to.equal(50);
    const bad = await metaRaw(client, 'list_tools', { limit: 0 });
    expect(bad.isError).to.equal(true);
    expect(errorCode(bad)).to.equal('INVALID_ARGUMENTS');
    expect(text(bad)).to.match(/limit/);
  });

  it('gives catalogue entries in discovery form, passing upstream annotations through', async () => {
    const page = await meta<ListToolsResult>(client, 'list_tools', { limit: 500 });
    const ping = page.tools.find((t) => t.name === 'x_fx_ping')!;
    expect(ping).to.deep.equal({
      name: 'x_fx_ping',
      summary: 'Answer pong.',
      server: 'fixture',
      kind: 'tool',
      annotations: { readOnlyHint: true },
    });
  });

  it('describes a tool with its schema and the call_tool invocation', async () => {
    const d = await meta(client, 'describe_tool', { name: 'x_everything_get-sum' });
    expect(d.name).to.equal('x_everything_get-sum');
    expect(d.server).to.equal('everything');
    expect(d.kind).to.equal('tool');
    expect(d.description).to.be.a('string').and.not.empty;
    expect((d.inputSchema as { properties: Record<string, unknown> }).properties).to.have.keys('a', 'b');
    expect(d.invocation).to.include('call_tool').and.include('x_everything_get-sum').and.include('not callable by name directly');
  });

  it('runs a real third-party tool through call_tool and returns its result unchanged', async () => {
    const echo = await callTool(client, 'x_everything_echo', { message: 'hello switchboard' });
    expect(echo.isError).to.not.equal(true);
    expect(text(echo)).to.equal('Echo: hello switchboard');
    const sum = await callTool(client, 'x_everything_get-sum', { a: 2, b: 40 });
    expect(text(sum)).to.include('42');
    const add = await callTool(client, 'x_fx_add', { a: 1.5, b: 2 });
    expect(add.structuredContent).to.deep.equal({ sum: 3.5 });
  });

  it('passes images through call_tool untouched', async () => {
    const img = await callTool(client, 'x_everything_get-tiny-image');
    const image = img.content.find((c) => c.type === 'image') as { data: string; mimeType: string } | undefined;
    expect(image?.mimeType).to.equal('image/png');
    expect(image?.data).to.be.a('string').with.length.greaterThan(100);
  });

  it('refuses an aggregated tool called directly as tools/call, naming call_tool', async () => {
    let message = '';
    try {
      await client.callTool({ name: 'x_everything_echo', arguments: { message: 'hi' } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.match(/-32602/);
    // The client's SDK renders the code once; the wire carries the plain message.
    expect(message).to.match(/^MCP error -32602: Tool 'x_everything_echo' /);
    expect(message).to.include('call_tool');
    expect(message).to.include('"name":"x_everything_echo"');
  });

  it('validates arguments against the tool schema before the upstream sees them', async () => {
    const r = await callTool(client, 'x_everything_get-sum', { a: 'two', b: 3 });
    expect(r.isError).to.equal(true);
    expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
    expect(text(r)).to.equal("Invalid arguments for 'x_everything_get-sum': a must be a number value");
  });

  it('reports an unknown tool as TOOL_NOT_FOUND', async () => {
    const r = await callTool(client, 'x_nope_nothing');
    expect(errorCode(r)).to.equal('TOOL_NOT_FOUND');
    expect(text(r)).to.equal('tool not found: x_nope_nothing');
  });

  it('suggests the tool meant for a near miss or an old prefix, but never one outside the toolset', async () => {
    const typo = await callTool(client, 'x_fx_ad', { a: 1, b: 2 });
    expect(text(typo)).to.equal("tool not found: x_fx_ad (did you mean 'x_fx_add'?)");
    expect((typo.structuredContent as { error: { details: Record<string, unknown> } }).error.details).to.deep.equal({
      name: 'x_fx_ad',
      suggestion: 'x_fx_add',
    });
    // The server is `fixture`, its toolPrefix `fx`: the name under the server's own name.
    expect(text(await callTool(client, 'x_fixture_slow', { ms: 1 }))).to.equal("tool not found: x_fixture_slow (did you mean 'x_fx_slow'?)");
    const narrowed = await connectHttp(sb.url, { 'X-Service-Toolset': 'server:everything' });
    try {
      expect(text(await callTool(narrowed, 'x_fx_ad', { a: 1, b: 2 }))).to.equal('tool not found: x_fx_ad');
    } finally {
      await narrowed.close();
    }
  });

  it("turns an upstream's JSON-RPC error into UPSTREAM_ERROR with its message verbatim", async () => {
    const r = await callTool(client, 'x_fx_fail_rpc');
    expect(r.isError).to.equal(true);
    expect(errorCode(r)).to.equal('UPSTREAM_ERROR');
    expect(text(r)).to.include('the fixture refuses: bad widget');
    // The upstream's SDK already said the code in its message: it is said once, not twice.
    expect(text(r)).to.include('MCP error -32602: the fixture refuses').and.not.include('MCP error -32602: MCP error');
    expect((r.structuredContent as { error: { details: { upstreamCode: number } } }).error.details.upstreamCode).to.equal(-32602);
  });

  it('filters by glob pattern and description, paged by 5 by default', async () => {
    const byPattern = await meta<ListToolsResult>(client, 'filter_tools', { pattern: 'x_everything_get-*' });
    expect(byPattern.tools.length).to.be.at.most(5);
    expect(byPattern.tools.every((t) => t.name.startsWith('x_everything_get-'))).to.equal(true);
    const byDescription = await meta<ListToolsResult>(client, 'filter_tools', { description_filter: 'ADD TWO NUMBERS' });
    expect(byDescription.tools.map((t) => t.name)).to.deep.equal(['x_fx_add']);
    const caseSensitive = await meta<ListToolsResult>(client, 'filter_tools', { description_filter: 'ADD TWO NUMBERS', case_sensitive: true });
    expect(caseSensitive.tools).to.deep.equal([]);
  });

  it('ranks by query and includes schemas on request', async () => {
    const r = await meta<{ tools: { name: string; score: number; inputSchema?: unknown }[] }>(client, 'filter_tools', {
      query: 'echo message',
      include_schema: true,
    });
    expect(r.tools[0]!.name).to.equal('x_everything_echo');
    expect(r.tools[0]!.score).to.be.a('number');
    expect(r.tools[0]!.inputSchema).to.be.an('object');
  });

  it('refuses malformed filter_tools arguments cleanly', async () => {
    const r = await metaRaw(client, 'filter_tools', { pattern: 'x_[abc' });
    expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
    const wrongType = await metaRaw(client, 'filter_tools', { limit: 'many' });
    expect(errorCode(wrongType)).to.equal('INVALID_ARGUMENTS');
    const unknown = await metaRaw(client, 'filter_tools', { colour: 'red' });
    expect(text(unknown)).to.include("unknown property 'colour'");
  });

  it('aggregates resources and prompts with their origin', async () => {
    const { resources } = await meta<{ resources: { uri: string; server: string }[] }>(client, 'list_resources');
    expect(resources.some((r) => r.uri === 'test://greeting' && r.server === 'fixture')).to.equal(true);
    const described = await meta<{ server: string; mimeType: string }>(client, 'describe_resource', { uri: 'test://greeting' });
    expect(described).to.include({ server: 'fixture', mimeType: 'text/plain' });
    const got = await meta<{ contents: { text: string }[] }>(client, 'get_resource', { uri: 'test://greeting' });
    expect(got.contents[0]!.text).to.equal('hello from test-server');
    const { prompts } = await meta<{ prompts: { name: string }[] }>(client, 'list_prompts');
    expect(prompts.map((p) => p.name)).to.include('x_fx_summarize');
    const prompt = await meta<{ arguments: { name: string }[] }>(client, 'describe_prompt', { name: 'x_fx_summarize' });
    expect(prompt.arguments.map((a) => a.name)).to.deep.equal(['topic']);
    const run = await meta<{ messages: { content: { text: string } }[] }>(client, 'get_prompt', { name: 'x_fx_summarize', arguments: { topic: 'MCP' } });
    expect(run.messages[0]!.content.text).to.equal('Summarize MCP');
    const missing = await metaRaw(client, 'get_resource', { uri: 'test://nothing' });
    expect(errorCode(missing)).to.equal('NOT_FOUND');
  });

  it('lists servers with state, health and visible tool counts', async () => {
    const r = await meta<{ servers: { name: string; state: string; health: string; tools: number; auth: { status: string } }[]; total: number }>(
      client,
      'list_servers',
    );
    expect(r.total).to.equal(2);
    const fixture = r.servers.find((s) => s.name === 'fixture')!;
    expect(fixture).to.include({ state: 'running', health: 'healthy' });
    expect(fixture.auth.status).to.equal('connected');
    expect(fixture.tools).to.be.greaterThan(3);
  });

  it('runs a batch with call_tools, one failure not failing the others', async () => {
    const r = await meta<{ results: { isError?: boolean; content: { text: string }[] }[] }>(client, 'call_tools', {
      calls: [
        { name: 'x_fx_add', arguments: { a: 1, b: 1 } },
        { name: 'x_missing_tool', arguments: {} },
        { name: 'x_everything_echo', arguments: { message: 'batch' } },
      ],
    });
    expect(r.results).to.have.length(3);
    expect(r.results[0]!.content[0]!.text).to.equal('2');
    expect(r.results[1]!.isError).to.equal(true);
    expect(r.results[2]!.content[0]!.text).to.equal('Echo: batch');
  });

  it('refreshes the catalogue when an upstream announces tools/list_changed', async () => {
    const before = await meta<ListToolsResult>(client, 'filter_tools', { pattern: 'x_fx_extra_*' });
    expect(before.tools).to.deep.equal([]);
    await callTool(client, 'x_fx_grow');
    const after = await eventually(
      () => meta<ListToolsResult>(client, 'filter_tools', { pattern: 'x_fx_extra_*' }),
      (r) => r.tools.length === 1,
      2000,
      20,
    );
    expect(after.tools[0]!.name).to.equal('x_fx_extra_1');
    expect(text(await callTool(client, 'x_fx_extra_1'))).to.equal('extra 1');
  });

  it('forwards progress notifications of a long call to the client', async () => {
    const progress: number[] = [];
    const r = await client.callTool({ name: 'call_tool', arguments: { name: 'x_fx_slow', arguments: { ms: 200 } } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(text(r as never)).to.equal('waited 200');
    expect(progress).to.deep.equal([1, 2, 3, 4]);
  });

  it("passes a client's cancellation of call_tool on to the server running the tool, and keeps serving", async () => {
    const stop = new AbortController();
    const running = client
      .callTool({ name: 'call_tool', arguments: { name: 'x_fx_slow', arguments: { ms: 4321 } } }, undefined, { signal: stop.signal })
      .catch((e: unknown) => e);
    setTimeout(() => stop.abort('changed my mind'), 200);
    expect(String(await running)).to.match(/changed my mind/);
    await sb.waitForLog(/slow 4321: cancelled by the client/);
    expect(text(await callTool(client, 'x_fx_add', { a: 2, b: 3 }))).to.equal('5');
  });

  it("ends the stream of a request its client cancelled, answer or no answer: the client's socket is not held for good", async () => {
    // A raw client: the SDK's keeps reading a cancelled request's stream, so only the server can end it.
    const init = await postInitialize(sb.url, '2025-11-25');
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-11-25',
    };
    await init.text();
    const post = (message: object) => fetch(sb.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
    await (await post({ method: 'notifications/initialized' })).text();
    const cancel = async (requestId: number) =>
      expect((await post({ method: 'notifications/cancelled', params: { requestId, reason: 'stop' } })).status).to.equal(202);
    const call = (id: number, ms: number, progressToken?: string) =>
      post({
        id,
        method: 'tools/call',
        params: { name: 'call_tool', arguments: { name: 'x_fx_slow', arguments: { ms } }, ...(progressToken ? { _meta: { progressToken } } : {}) },
      });

    // Cancelled before a word of its answer was written.
    // (Its headers too: the answer may not begin before the call ends.)
    const quiet = call(101, 60_000);
    await sb.waitForLog(/slow 60000: started/);
    await cancel(101);
    expect(await (await quiet).text(), 'the stream of a cancelled request').not.to.include('"result"');

    // Cancelled once its answer is a stream (progress went first).
    const streamed = await call(102, 8_000, 'p102');
    const reader: ReadableStreamDefaultReader<Uint8Array> = streamed.body!.getReader();
    let body = '';
    while (!body.includes('notifications/progress')) body += new TextDecoder().decode((await reader.read()).value);
    await cancel(102);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) body += new TextDecoder().decode(chunk.value);
    expect(body, 'the stream of a cancelled request').not.to.include('"result"');
  });

  it('reports the progress of a call_tools batch as calls done of calls asked, in order, before the result', async () => {
    const progress: [number, number | undefined][] = [];
    const r = await client.callTool(
      { name: 'call_tools', arguments: { calls: [100, 200, 300].map((ms) => ({ name: 'x_fx_slow', arguments: { ms } })) } },
      undefined,
      { onprogress: (p) => progress.push([p.progress, p.total]) },
    );
    const results = (r.structuredContent as { results: { content: { text: string }[] }[] }).results;
    expect(results.map((x) => x.content[0]!.text)).to.deep.equal(['waited 100', 'waited 200', 'waited 300']);
    expect(progress).to.deep.equal([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});
