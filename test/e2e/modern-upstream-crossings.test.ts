/**
 * Log levels where a 2026-07-28 upstream meets callers of both eras (issue 40, item 3 "log
 * level"). Behind one Switchboard: the v2 modern-only fixture (test/fixtures/modern-server.ts)
 * over HTTP and over stdio, and the asking fixture, a 2025-11-25 server.
 *
 * A 2026-07-28 server logs during a request only at the level the request's `_meta` names:
 * Switchboard passes on each caller's own level.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
  text,
  type Running,
} from '../support/harness.js';

async function modernClient(url: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'modern-crossings', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(url)));
  return client;
}

/** `[logger] data` of each log message a client heard, in order. */
type Heard = string[];

async function legacyHearing(url: string): Promise<{ client: Client; logs: Heard; updated: string[] }> {
  const client = await connectHttp(url);
  const logs: Heard = [];
  const updated: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(`[${n.params.logger ?? ''}] ${String(n.params.data)}`));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  return { client, logs, updated };
}

async function modernHearing(url: string): Promise<{ client: ModernClient; logs: Heard; updated: string[] }> {
  const client = await modernClient(url);
  const logs: Heard = [];
  const updated: string[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push(`[${n.params.logger ?? ''}] ${String(n.params.data)}`));
  client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
  return { client, logs, updated };
}

function chattyFrom(client: ModernClient, tool: string, level?: string): Promise<CallToolResult> {
  return client.callTool({
    name: 'call_tool',
    arguments: { name: tool, arguments: {} },
    ...(level ? { _meta: { 'io.modelcontextprotocol/logLevel': level } } : {}),
  }) as Promise<CallToolResult>;
}

describe('a 2026-07-28 upstream meets callers of both eras: log levels and resource subscriptions', function () {
  this.timeout(60_000);
  let sb: Running;
  let web: ChildProcess;
  let asking: ChildProcess;
  let legacy: Client;
  const closing: { close(): unknown }[] = [];

  before(async () => {
    const port = await freePort();
    web = await startNode([MODERN_SERVER, 'http', String(port)], {}, /listening \d+/);
    const askPort = await freePort();
    asking = await startNode([ASKING, 'http', String(askPort)], {}, /listening \d+/);
    sb = await startSwitchboard({
      'mcpservers/mweb.yaml': `name: mweb\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nautoStart: true\n`,
      'mcpservers/mio.yaml': stdioServer('mio', MODERN_SERVER, ['stdio']),
      'mcpservers/ask.yaml': `name: ask\ntype: streamable-http\nurl: http://127.0.0.1:${askPort}/mcp\nautoStart: true\n`,
    });
    legacy = await connectHttp(sb.url);
    closing.push(legacy);
    for (const tool of ['x_mweb_chatty', 'x_mio_chatty', 'x_ask_bump'])
      await eventually(
        () => legacy.callTool({ name: 'describe_tool', arguments: { name: tool } }) as Promise<CallToolResult>,
        (r) => !r.isError,
        20_000,
      );
  });

  after(async () => {
    for (const c of closing) await Promise.resolve(c.close()).catch(() => undefined);
    await sb?.stop();
    web?.kill();
    asking?.kill();
  });

  describe('log level', () => {
    it("over HTTP, calls at once: a modern request's _meta level and a legacy session's setLevel each get the upstream's lines at or above it, and nothing else", async () => {
      const warned = await modernHearing(sb.url);
      const silent = await modernHearing(sb.url);
      const info = await legacyHearing(sb.url);
      const everything = await legacyHearing(sb.url);
      closing.push(warned.client, silent.client, info.client, everything.client);
      await info.client.setLoggingLevel('info');
      const results = await Promise.all([
        chattyFrom(warned.client, 'x_mweb_chatty', 'warning'),
        chattyFrom(silent.client, 'x_mweb_chatty'),
        callTool(info.client, 'x_mweb_chatty'),
        // A session that never set a level hears everything (2025-11-25), so the upstream is asked for debug.
        callTool(everything.client, 'x_mweb_chatty'),
      ]);
      expect(results.map(text)).to.deep.equal(['said all', 'said all', 'said all', 'said all']);
      expect(warned.logs).to.deep.equal(['[mweb/chat] said warning', '[mweb/chat] said error']);
      expect(silent.logs).to.deep.equal([]);
      expect(info.logs).to.deep.equal(['[mweb/chat] said info', '[mweb/chat] said warning', '[mweb/chat] said error']);
      expect(everything.logs).to.deep.equal(['[mweb/chat] said debug', '[mweb/chat] said info', '[mweb/chat] said warning', '[mweb/chat] said error']);
    });

    it('over stdio, one call at a time: the same', async () => {
      const errors = await modernHearing(sb.url);
      const notices = await legacyHearing(sb.url);
      closing.push(errors.client, notices.client);
      await notices.client.setLoggingLevel('notice');
      expect(text(await chattyFrom(errors.client, 'x_mio_chatty', 'error'))).to.equal('said all');
      expect(text(await callTool(notices.client, 'x_mio_chatty'))).to.equal('said all');
      expect(errors.logs).to.deep.equal(['[mio/chat] said error']);
      expect(notices.logs).to.deep.equal(['[mio/chat] said warning', '[mio/chat] said error']);
    });

    it("the upstream sees the caller's level in its request's _meta, and nothing of Switchboard's own routing", async () => {
      const seen = JSON.parse(text(await chattyFrom(await modernClient(sb.url), 'x_mweb_envelope', 'notice'))) as Record<string, unknown>;
      expect(seen['io.modelcontextprotocol/logLevel']).to.equal('notice');
      expect(Object.keys(seen).filter((k) => !k.startsWith('io.modelcontextprotocol/'))).to.deep.equal([]);
    });
  });
});
