/**
 * `subscriptions/listen` served to 2026-07-28 clients, and list changes and log levels where
 * the eras meet (issue 40, item 3 "list changes" and "log level", item 1): a v2 client
 * (`@modelcontextprotocol/client`) listens while a v1 client holds a session, behind one
 * Switchboard with upstreams of both eras: the v1 test fixture (stdio) and the asking fixture
 * (HTTP), both 2025-11-25, and a v2 modern-only server (test/fixtures/modern-server.ts, HTTP).
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ASKING } from '../support/asking-servers.js';
import {
  callTool,
  connectHttp,
  eventually,
  freePort,
  MODERN_SERVER,
  startNode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
  untilDescribed,
} from '../support/harness.js';
import { isMethod, openListen, type RawListen } from '../support/listen-wire.js';

const LIST_CHANGED = 'notifications/tools/list_changed';

async function modernClient(url: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'modern-listen', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(url)));
  return client;
}

describe('subscriptions/listen for 2026-07-28 clients, list changes and log levels across the eras', function () {
  this.timeout(60_000);
  let sb: Running;
  let web: ChildProcess;
  let asking: ChildProcess;
  let legacy: Client;
  const closing: { close(): unknown }[] = [];

  before(async () => {
    const port = await freePort();
    web = await startNode([MODERN_SERVER, 'http', String(port)], {}, /listening \d+/);
    // Over HTTP: each upstream call has its own stream, so logs of calls running at once are told apart.
    const askPort = await freePort();
    asking = await startNode([ASKING, 'http', String(askPort)], {}, /listening \d+/);
    sb = await startSwitchboard({
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
      'mcpservers/ask.yaml': `name: ask\ntype: streamable-http\nurl: http://127.0.0.1:${askPort}/mcp\nautoStart: true\n`,
      'mcpservers/mweb.yaml': `name: mweb\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nautoStart: true\n`,
    });
    legacy = await connectHttp(sb.url);
    closing.push(legacy);
    await untilDescribed(legacy, ['x_t_grow', 'x_ask_bump', 'x_mweb_grow']);
  });

  after(async () => {
    for (const c of closing) await Promise.resolve(c.close()).catch(() => undefined);
    await sb?.stop();
    web?.kill();
    asking?.kill();
  });

  it('server/discover announces listChanged and subscribe; a listen is acknowledged with what is served, under its subscription id', async () => {
    const modern = await modernClient(sb.url);
    closing.push(modern);
    const caps = modern.getServerCapabilities();
    expect(caps?.tools?.listChanged).to.equal(true);
    expect(caps?.prompts?.listChanged).to.equal(true);
    expect(caps?.resources).to.include({ listChanged: true, subscribe: true });
    const sub = await modern.listen({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['ask://counter', 'nowhere://nothing'] });
    // A URI no server serves is left out of the acknowledgement; the lists asked for are served.
    expect(sub.honoredFilter).to.deep.equal({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['ask://counter'] });
    await sub.close();

    const raw = await openListen(sb.url, { toolsListChanged: true, resourcesListChanged: false }, { id: 'mine-7' });
    closing.push(raw);
    const ack = await raw.next(isMethod('notifications/subscriptions/acknowledged'));
    expect(raw.status).to.equal(200);
    expect(ack.params).to.deep.equal({ notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'mine-7' } });
    raw.close();
  });

  it("a legacy upstream's tools/list_changed reaches a modern client's listen, and the new tool is callable from it", async () => {
    const modern = await modernClient(sb.url);
    closing.push(modern);
    let heard = 0;
    modern.setNotificationHandler(LIST_CHANGED, () => void heard++);
    const sub = await modern.listen({ toolsListChanged: true });
    expect(text(await callTool(legacy, 'x_t_grow'))).to.equal('now 1 extra');
    await eventually(
      async () => heard,
      (n) => n >= 1,
      10_000,
    );
    const r = (await modern.callTool({ name: 'call_tool', arguments: { name: 'x_t_extra_1', arguments: {} } })) as CallToolResult;
    expect(text(r)).to.equal('extra 1');
    await sub.close();
  });

  it("a modern upstream's list change (its own subscriptions/listen) reaches a legacy client's notifications/tools/list_changed", async () => {
    const session = await connectHttp(sb.url);
    closing.push(session);
    let heard = 0;
    session.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard++);
    expect(text(await callTool(session, 'x_mweb_grow'))).to.match(/^grown_\d+$/);
    await eventually(
      async () => heard,
      (n) => n >= 1,
      10_000,
    );
  });

  it("a legacy upstream's resources/updated reaches the modern listen that names the URI; the upstream subscription lasts as long as the listen", async () => {
    const modern = await modernClient(sb.url);
    closing.push(modern);
    const updated: string[] = [];
    modern.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    const watchers = async () => JSON.parse(text(await callTool(legacy, 'x_ask_watchers'))) as Record<string, number>;
    const sub = await modern.listen({ resourceSubscriptions: ['ask://counter'] });
    expect((await watchers()).counter).to.equal(1);
    await callTool(legacy, 'x_ask_bump', { which: 'marker' });
    await callTool(legacy, 'x_ask_bump');
    await eventually(
      async () => updated,
      (u) => u.length >= 1,
      10_000,
    );
    // Only the URI the listen named.
    expect(updated).to.deep.equal(['ask://counter']);
    await sub.close();
    await eventually(watchers, (w) => w.counter === 0, 10_000);
  });

  it("a listen hears tools/list_changed only when the caller's view changed: a toolset that leaves a server out hears nothing of it", async () => {
    const narrow = await openListen(sb.url, { toolsListChanged: true }, { id: 'narrow', headers: { 'x-service-toolset': 'server:t' } });
    const whole = await openListen(sb.url, { toolsListChanged: true }, { id: 'whole' });
    closing.push(narrow, whole);
    await narrow.next(isMethod('notifications/subscriptions/acknowledged'));
    await whole.next(isMethod('notifications/subscriptions/acknowledged'));
    const heard = (l: RawListen) => l.messages.filter(isMethod(LIST_CHANGED)).length;
    await callTool(legacy, 'x_mweb_grow');
    await eventually(
      async () => heard(whole),
      (n) => n >= 1,
      10_000,
    );
    await callTool(legacy, 'x_t_grow');
    await eventually(
      async () => heard(whole),
      (n) => n >= 2,
      10_000,
    );
    await narrow.next(isMethod(LIST_CHANGED));
    // The change of x_mweb_ was outside its view; the change of x_t_ was not.
    expect(heard(narrow)).to.equal(1);
    expect(narrow.messages.find(isMethod(LIST_CHANGED))?.params?._meta).to.deep.equal({ 'io.modelcontextprotocol/subscriptionId': 'narrow' });
    narrow.close();
    whole.close();
  });

  it("log level: a modern request's _meta level and a legacy session's setLevel filter the same upstream's logs, at once", async () => {
    const modern = await modernClient(sb.url);
    closing.push(modern);
    const modernLogs: string[] = [];
    modern.setNotificationHandler('notifications/message', (n) => void modernLogs.push(String(n.params.data)));
    const session = await connectHttp(sb.url);
    closing.push(session);
    const legacyLogs: string[] = [];
    session.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void legacyLogs.push(String(n.params.data)));
    await session.setLoggingLevel('info');
    const [m, l, quiet] = await Promise.all([
      modern.callTool({
        name: 'call_tool',
        arguments: { name: 'x_ask_chatty', arguments: { tag: 'modern' } },
        _meta: { 'io.modelcontextprotocol/logLevel': 'warning' },
      }) as Promise<CallToolResult>,
      callTool(session, 'x_ask_chatty', { tag: 'legacy' }),
      // No level in _meta: a modern client gets no log message at all.
      modern.callTool({ name: 'call_tool', arguments: { name: 'x_ask_chatty', arguments: { tag: 'quiet' } } }) as Promise<CallToolResult>,
    ]);
    expect([text(m), text(l), text(quiet)]).to.deep.equal(['done modern', 'done legacy', 'done quiet']);
    expect(modernLogs).to.deep.equal(['modern: warning', 'modern: error']);
    expect(legacyLogs).to.deep.equal(['legacy: info', 'legacy: warning', 'legacy: error']);
  });
  // Last: it stops Switchboard.
  it("Switchboard stopping ends each listen gracefully: the listen's result under its subscription id, then the end", async () => {
    const raw = await openListen(sb.url, { toolsListChanged: true }, { id: 'to-the-end' });
    await raw.next(isMethod('notifications/subscriptions/acknowledged'));
    const stopping = sb.stop();
    const end = await raw.next((m) => m.id === 'to-the-end');
    expect(end.result).to.deep.include({ resultType: 'complete' });
    expect((end.result?._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId']).to.equal('to-the-end');
    await raw.ended;
    await stopping;
  });
});
