import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { join } from 'node:path';
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  connectHttpWithHeaders,
  eventually,
  EVERYTHING,
  meta,
  ROOT,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  type Running,
} from '../support/harness.js';

describe('resources, prompts and completions as MCP offers them, aggregated', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
      'mcpservers/ask.yaml': stdioServer('ask', join(ROOT, 'dist/test/fixtures/asking-server.js')),
    });
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('announces resources (subscribe, listChanged), prompts, completions and logging', () => {
    const caps = client.getServerCapabilities()!;
    expect(caps.resources).to.deep.equal({ subscribe: true, listChanged: true });
    expect(caps.prompts).to.deep.equal({ listChanged: true });
    expect(caps.completions).to.deep.equal({});
    expect(caps.logging).to.deep.equal({});
  });

  it("lists every server's resources with their URIs unchanged, paged with cursors", async () => {
    const all: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      all.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(all).to.include('test://greeting');
    expect(all.some((u) => u.startsWith('demo://resource/static/document/'))).to.equal(true);
    expect(new Set(all).size).to.equal(all.length);
    expect(pages).to.be.at.least(1);
  });

  it('reads a listed resource and a templated one from the server that owns it', async () => {
    const greeting = await client.readResource({ uri: 'test://greeting' });
    expect((greeting.contents[0] as { text: string }).text).to.equal('hello from test-server');
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).to.include('demo://resource/dynamic/text/{resourceId}');
    const dynamic = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    expect(dynamic.contents[0]!.uri).to.equal('demo://resource/dynamic/text/7');
    let missing: (Error & { code?: number; data?: unknown }) | undefined;
    try {
      await client.readResource({ uri: 'nowhere://at/all' });
    } catch (err) {
      missing = err as Error;
    }
    expect(missing?.message).to.include("Resource 'nowhere://at/all' not found");
    // SEP-2164: -32602 with the URI in the error's data.
    expect([missing?.code, missing?.data]).to.deep.equal([-32602, { uri: 'nowhere://at/all' }]);
  });

  it('lists and gets prompts under their catalogue names', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).to.include.members(['x_t_summarize', 'x_everything_completable-prompt']);
    const got = await client.getPrompt({ name: 'x_t_summarize', arguments: { topic: 'cats' } });
    expect((got.messages[0]!.content as { text: string }).text).to.equal('Summarize cats');
  });

  it('routes completion/complete to the server that owns the prompt or template', async () => {
    const byPrompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'x_everything_completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(byPrompt.completion.values).to.deep.equal(['Sales', 'Support']);
    const byTemplate = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '1' },
    });
    expect(byTemplate.completion.values.length).to.be.greaterThan(0);
  });

  it('narrows resources and prompts by the toolset exactly as the meta-tools do', async () => {
    const { client: scoped, setHeaders } = await connectHttpWithHeaders(sb.url);
    try {
      setHeaders({ 'X-Service-Toolset': 'server:t' });
      const resources = (await scoped.listResources()).resources.map((r) => r.uri);
      // auth://status is Switchboard's own, about the session: a toolset does not narrow it.
      expect(resources).to.deep.equal(['auth://status', 'test://greeting']);
      expect((await scoped.listPrompts()).prompts.map((p) => p.name)).to.deep.equal(['x_t_summarize']);
      const viaMeta = await meta<{ resources: { uri: string }[] }>(scoped, 'list_resources');
      expect(viaMeta.resources.map((r) => r.uri)).to.deep.equal(resources);
    } finally {
      await scoped.close();
    }
  });

  it('subscribes through to the owning server: updates reach the subscribed sessions only, until they unsubscribe', async () => {
    const other = await connectHttp(sb.url);
    const updates: string[] = [];
    const otherUpdates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void otherUpdates.push(n.params.uri));
    try {
      await client.subscribeResource({ uri: 'ask://counter' });
      await callTool(other, 'x_ask_bump');
      await eventually(
        async () => updates.length,
        (n) => n === 1,
        5000,
      );
      expect(updates).to.deep.equal(['ask://counter']);
      expect(otherUpdates).to.deep.equal([]);
      await client.unsubscribeResource({ uri: 'ask://counter' });
      await callTool(other, 'x_ask_bump');
      await new Promise((r) => setTimeout(r, 200));
      expect(updates).to.have.length(1);
      expect(((await client.readResource({ uri: 'ask://counter' })).contents[0] as { text: string }).text).to.equal('2');
    } finally {
      await other.close();
    }
  });

  it('lets one session watch at most 256 resources, refusing the next by name until it unsubscribes from one', async () => {
    const watcher = await connectHttp(sb.url);
    try {
      const uri = (i: number) => `demo://resource/dynamic/text/${i}`;
      for (let i = 0; i < 256; i++) await watcher.subscribeResource({ uri: uri(i) });
      // Subscribing again to one it watches is no new subscription.
      await watcher.subscribeResource({ uri: uri(0) });
      const refused = await watcher.subscribeResource({ uri: uri(256) }).then(
        () => undefined,
        (err: unknown) => err as Error,
      );
      expect(refused?.message).to.include(
        `This session already watches 256 resources, the most one session may; unsubscribe from one before subscribing to '${uri(256)}'`,
      );
      await watcher.unsubscribeResource({ uri: uri(3) });
      await watcher.subscribeResource({ uri: uri(256) });
    } finally {
      await watcher.close();
    }
  });

  it('tells sessions when the aggregate list changes (a server goes away): tools once, resources once', async () => {
    let changed = 0;
    let tools = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void tools++);
    await meta(client, 'call_tool', { name: 'core_service_stop', arguments: { name: 't' } });
    await eventually(
      async () => changed,
      (n) => n > 0,
      5000,
    );
    await eventually(
      async () => tools,
      (n) => n > 0,
      5000,
    );
    await new Promise((r) => setTimeout(r, 400));
    expect(tools).to.equal(1); // debounced: one for the whole change
    expect((await client.listResources()).resources.map((r) => r.uri)).to.not.include('test://greeting');
  });
});
