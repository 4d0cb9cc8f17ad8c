/**
 * Where a 2026-07-28 upstream meets callers of both eras (issue 40, items 2 and 3): log levels,
 * the upstream's questions (sampling, roots, URL-mode elicitation) and progress, cancellation,
 * timeouts and errors, and resource subscriptions. Behind one Switchboard: the v2 modern-only
 * fixture (test/fixtures/modern-server.ts) over HTTP (twice: one with a one-second call
 * timeout) and over stdio, and the asking fixture, a 2025-11-25 server with subscribable
 * counters. One Switchboard and its upstreams serve every test: their start is most of the cost.
 *
 * A 2026-07-28 server logs during a request only at the level the request's `_meta` names, asks
 * its questions inside `input_required` results, hears a cancellation over HTTP as its request
 * closing, and has no resources/subscribe (its updates come on a subscriptions/listen stream):
 * Switchboard translates each for a caller of either era.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ASKING } from '../support/asking-servers.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  freePort,
  meta,
  MODERN_SERVER,
  startNode,
  startSwitchboard,
  stdioServer,
  text,
  type Running,
  untilDescribed,
} from '../support/harness.js';

const WEB_COUNTER = 'modern://http/counter';
const STDIO_COUNTER = 'modern://stdio/counter';

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

describe('a 2026-07-28 upstream meets callers of both eras', function () {
  this.timeout(60_000);
  let sb: Running;
  let web: ChildProcess;
  let brief: ChildProcess;
  let asking: ChildProcess;
  let legacy: Client;
  const closing: { close(): unknown }[] = [];

  before(async () => {
    const port = await freePort();
    web = await startNode([MODERN_SERVER, 'http', String(port)], {}, /listening \d+/);
    const briefPort = await freePort();
    brief = await startNode([MODERN_SERVER, 'http', String(briefPort)], { MODERN_COUNTER_SCOPE: 'brief' }, /listening \d+/);
    const askPort = await freePort();
    asking = await startNode([ASKING, 'http', String(askPort)], {}, /listening \d+/);
    sb = await startSwitchboard({
      'mcpservers/mweb.yaml': `name: mweb\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\nautoStart: true\n`,
      'mcpservers/mio.yaml': stdioServer('mio', MODERN_SERVER, ['stdio']),
      // Another instance of it, with a one-second call timeout.
      'mcpservers/mbrief.yaml': `name: mbrief\ntype: streamable-http\nurl: http://127.0.0.1:${briefPort}/mcp\nautoStart: true\ncallTimeout: 1\n`,
      'mcpservers/ask.yaml': `name: ask\ntype: streamable-http\nurl: http://127.0.0.1:${askPort}/mcp\nautoStart: true\n`,
    });
    legacy = await connectHttp(sb.url);
    closing.push(legacy);
    await untilDescribed(legacy, ['x_mweb_chatty', 'x_mio_chatty', 'x_mbrief_slow', 'x_ask_bump']);
  });

  after(async () => {
    for (const c of closing) await Promise.resolve(c.close()).catch(() => undefined);
    await sb?.stop();
    web?.kill();
    brief?.kill();
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

  describe("the upstream's questions and progress", () => {
    it('sampling, roots and progress of a modern upstream reach the calling client of either era, over HTTP and stdio', async () => {
      const legacyAsker = new Client({ name: 'ide', version: '1' }, { capabilities: { sampling: {}, roots: {} } });
      legacyAsker.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'short' }, model: 'm' }));
      legacyAsker.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///home/ada/project' }] }));
      await legacyAsker.connect(new StreamableHTTPClientTransport(new URL(sb.url)));
      const modernAsker = new ModernClient(
        { name: 'ide-2026', version: '1' },
        { capabilities: { sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      modernAsker.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'brief' }, model: 'm' }));
      modernAsker.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///home/mo/work' }] }));
      await modernAsker.connect(new ModernTransport(new URL(sb.url)));
      closing.push(legacyAsker, modernAsker);
      const viaLegacy = (tool: string, onprogress?: (p: { progress: number }) => void) =>
        legacyAsker.callTool(
          { name: 'call_tool', arguments: { name: tool, arguments: tool.endsWith('summarize') ? { text: 'a long text' } : {} } },
          undefined,
          {
            ...(onprogress ? { onprogress } : {}),
          },
        ) as Promise<CallToolResult>;
      const viaModern = (tool: string, onprogress?: (p: { progress: number }) => void) =>
        modernAsker.callTool(
          { name: 'call_tool', arguments: { name: tool, arguments: tool.endsWith('summarize') ? { text: 'a long text' } : {} } },
          onprogress ? { onprogress } : {},
        ) as Promise<CallToolResult>;

      for (const server of ['mweb', 'mio']) {
        expect(text(await viaLegacy(`x_${server}_summarize`)), server).to.equal('summary: short');
        expect(text(await viaModern(`x_${server}_summarize`)), server).to.equal('summary: brief');
        expect(text(await viaLegacy(`x_${server}_roots`)), server).to.equal('file:///home/ada/project');
        expect(text(await viaModern(`x_${server}_roots`)), server).to.equal('file:///home/mo/work');
        const heard: number[][] = [[], []];
        expect(text(await viaLegacy(`x_${server}_steps`, (p) => heard[0]!.push(p.progress)))).to.equal('stepped');
        expect(text(await viaModern(`x_${server}_steps`, (p) => heard[1]!.push(p.progress)))).to.equal('stepped');
        expect(heard, `${server}: progress heard by the legacy and the modern caller`).to.deep.equal([
          [1, 2, 3],
          [1, 2, 3],
        ]);
      }
    });
  });

  describe('arguments mirrored in headers (SEP-2243)', () => {
    it("a modern upstream's tool whose argument travels in an Mcp-Param header too is called with it over HTTP, plain or Base64; stdio needs none", async () => {
      for (const server of ['mweb', 'mio'])
        for (const region of ['eu-west', ' Zürich'])
          expect(text(await callTool(legacy, `x_${server}_regional`, { region, text: 'hi' })), `${server} ${region}`).to.equal(`${region}: hi`);
    });
  });

  describe('prompts, completions and reads', () => {
    it("a modern upstream's prompt, completion and templated resource reach callers of both eras; a note it lacks is -32602 naming the URI", async () => {
      const modern = await modernClient(sb.url);
      closing.push(modern);
      for (const [server, scope] of [
        ['mweb', 'http'],
        ['mio', 'stdio'],
      ] as const) {
        for (const client of [legacy, modern] as const) {
          const era = client === legacy ? 'legacy' : 'modern';
          const prompt = (await client.getPrompt({ name: `x_${server}_greet`, arguments: { name: 'Ada' } })) as Record<string, unknown>;
          expect(JSON.stringify(prompt.messages), `${era} ${server}`).to.include('Say hello to Ada');
          const completed = await client.complete({ ref: { type: 'ref/prompt', name: `x_${server}_greet` }, argument: { name: 'name', value: 'A' } });
          expect(completed.completion.values, `${era} ${server}`).to.deep.equal(['Ada', 'Alan']);
          const read = (await client.readResource({ uri: `modern://${scope}/notes/1` })) as Record<string, unknown>;
          expect(JSON.stringify(read.contents), `${era} ${server}`).to.include('note 1');
          if (client === legacy) {
            // Nothing of 2026-07-28's envelope reaches a 2025-11-25 caller: not the upstream's identity, not its cache hints.
            for (const result of [prompt, completed as Record<string, unknown>, read]) {
              expect(result, server).to.not.have.any.keys('ttlMs', 'cacheScope', 'resultType');
              expect((result._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/serverInfo'], server).to.equal(undefined);
            }
          } else {
            expect((read._meta as Record<string, { name: string }>)['io.modelcontextprotocol/serverInfo']!.name).to.equal('switchboard');
          }
          const missing = await client.readResource({ uri: `modern://${scope}/notes/2` }).then(
            () => undefined,
            (err: unknown) => err as { code: number; message: string; data?: unknown },
          );
          expect(missing?.code, `${era} ${server}`).to.equal(-32602);
          expect(missing?.message).to.include(`Resource not found: modern://${scope}/notes/2`).and.not.include('MCP error -32602: MCP error');
          expect(missing?.data).to.deep.equal({ uri: `modern://${scope}/notes/2` });
        }
      }
    });
  });

  describe('cancellation, timeouts and errors', () => {
    const slowLog = async (server: string) => JSON.parse(text(await callTool(legacy, `x_${server}_slow_log`))) as { started: number[]; cancelled: number[] };

    /** Starts a `slow` call of `ms` on `server` through `call`, cancels it once the server runs it, and waits for the server to hear it. */
    async function cancelled(server: string, ms: number, call: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
      const stop = new AbortController();
      const running = call(stop.signal).catch((e: unknown) => e);
      await eventually(
        () => slowLog(server),
        (l) => l.started.includes(ms),
        10_000,
      );
      stop.abort('changed my mind');
      await running;
      await eventually(
        () => slowLog(server),
        (l) => l.cancelled.includes(ms),
        10_000,
      );
      // A cancelled call is no lost connection: the next call goes through at once, nothing said about it.
      expect(text(await callTool(legacy, `x_${server}_echo`, { text: 'still here' }))).to.equal('still here');
      expect(sb.logs()).to.not.match(/aborted|cancelled by its caller|lost:/);
    }

    it("a call past the server's callTimeout fails with TIMEOUT, and the modern HTTP upstream's handler is cancelled with it", async () => {
      const r = await callTool(legacy, 'x_mbrief_slow', { ms: 30_005 });
      expect(r.isError).to.equal(true);
      expect(errorCode(r), text(r)).to.equal('TIMEOUT');
      await eventually(
        () => slowLog('mbrief'),
        (l) => l.cancelled.includes(30_005),
        10_000,
      );
    });

    it("a modern upstream's JSON-RPC error reaches the caller as UPSTREAM_ERROR with its code and words, not as the server being unavailable", async () => {
      const r = await callTool(legacy, 'x_mweb_refuse', { code: -32602, message: 'no such invoice: 42' });
      expect(r.isError).to.equal(true);
      expect(errorCode(r), text(r)).to.equal('UPSTREAM_ERROR');
      expect(text(r)).to.include('no such invoice: 42').and.include('-32602');
      expect(text(await callTool(legacy, 'x_mweb_echo', { text: 'still here' }))).to.equal('still here');
    });

    it("a modern upstream's URL-mode question (input_required) is asked of a client of either era that opens pages, and its answer reaches the retry; a client that cannot is refused", async () => {
      const asked: ElicitRequest['params'][] = [];
      const opener = new Client({ name: 'ide', version: '1' }, { capabilities: { elicitation: { url: {} } } });
      opener.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked.push(req.params);
        return { action: 'accept' };
      });
      await opener.connect(new StreamableHTTPClientTransport(new URL(sb.url)));
      closing.push(opener);
      expect(text(await callTool(opener, 'x_mweb_connect'))).to.equal('connect: accept');
      expect(asked).to.have.length(1);
      expect(asked[0]).to.include({ mode: 'url', url: 'https://accounts.example.com/connect?flow=7', message: 'Connect your account first' });

      // A modern client is asked the same (its own input_required round, answered by its handler).
      const modernAsked: string[] = [];
      const modern = new ModernClient(
        { name: 'ide-2026', version: '1' },
        { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      modern.setRequestHandler('elicitation/create', async (req) => {
        modernAsked.push(req.params.mode === 'url' ? req.params.url : 'not url');
        return { action: 'accept' };
      });
      await modern.connect(new ModernTransport(new URL(sb.url)));
      closing.push(modern);
      const viaModern = (await modern.callTool({ name: 'call_tool', arguments: { name: 'x_mweb_connect', arguments: {} } })) as CallToolResult;
      expect(text(viaModern)).to.equal('connect: accept');
      expect(modernAsked).to.deep.equal(['https://accounts.example.com/connect?flow=7']);

      // The legacy client declared no elicitation: the question is not asked of it.
      const refused = await callTool(legacy, 'x_mweb_connect');
      expect(refused.isError, text(refused)).to.equal(true);
      expect(text(refused)).to.match(/elicitation/i);
    });

    for (const server of ['mweb', 'mio']) {
      const over = server === 'mweb' ? 'HTTP: its request stream closes' : 'stdio: notifications/cancelled';
      it(`a legacy client's notifications/cancelled ends the call on a modern upstream (${over})`, async () => {
        const ms = server === 'mweb' ? 30_001 : 30_002;
        await cancelled(server, ms, (signal) =>
          legacy.callTool({ name: 'call_tool', arguments: { name: `x_${server}_slow`, arguments: { ms } } }, undefined, { signal }),
        );
      });
      it(`a modern client closing its request ends the call on a modern upstream (${over})`, async () => {
        const client = await modernClient(sb.url);
        closing.push(client);
        const ms = server === 'mweb' ? 30_003 : 30_004;
        await cancelled(server, ms, (signal) => client.callTool({ name: 'call_tool', arguments: { name: `x_${server}_slow`, arguments: { ms } } }, { signal }));
      });
    }
    it('a modern stdio upstream that dies during a call fails that call at once as SERVER_UNAVAILABLE, not at its timeout, and is back for the next', async () => {
      const ms = 30_006;
      const running = callTool(legacy, 'x_mio_slow', { ms });
      await eventually(
        () => slowLog('mio'),
        (l) => l.started.includes(ms),
        10_000,
      );
      const status = () =>
        meta<{ state: string; metadata: { pid?: number } }>(legacy, 'call_tool', { name: 'core_service_status', arguments: { name: 'mio' } });
      const dying = (await status()).metadata.pid!;
      const killedAt = Date.now();
      process.kill(dying, 'SIGKILL');
      const r = await running;
      // Far inside the call's 30 s: the close of the process settled the call, not a timer.
      expect(Date.now() - killedAt).to.be.lessThan(10_000);
      expect(r.isError, text(r)).to.equal(true);
      expect(errorCode(r), text(r)).to.equal('SERVER_UNAVAILABLE');
      expect(text(r)).to.include('the connection closed during the call');
      await eventually(status, (s) => s.state === 'running' && s.metadata.pid !== dying, 20_000);
      expect(text(await callTool(legacy, 'x_mio_echo', { text: 'back' }))).to.equal('back');
    });
  });

  describe('resource subscriptions', () => {
    it("a legacy client's resources/subscribe to a modern upstream's resource hears notifications/resources/updated (HTTP and stdio), until it unsubscribes", async () => {
      const watcher = await legacyHearing(sb.url);
      closing.push(watcher.client);
      await watcher.client.subscribeResource({ uri: WEB_COUNTER });
      await watcher.client.subscribeResource({ uri: STDIO_COUNTER });
      expect(text(await callTool(legacy, 'x_mweb_touch'))).to.match(/^touched \d+$/);
      await eventually(
        async () => watcher.updated,
        (u) => u.includes(WEB_COUNTER),
        10_000,
      );
      await callTool(legacy, 'x_mio_touch');
      await eventually(
        async () => watcher.updated,
        (u) => u.includes(STDIO_COUNTER),
        10_000,
      );
      expect(watcher.updated).to.deep.equal([WEB_COUNTER, STDIO_COUNTER]);
      // The update is the resource's: reading it gives the new text.
      const read = await watcher.client.readResource({ uri: WEB_COUNTER });
      expect((read.contents[0] as { text: string }).text).to.match(/^\d+$/);

      await watcher.client.unsubscribeResource({ uri: WEB_COUNTER });
      await callTool(legacy, 'x_mweb_touch');
      await callTool(legacy, 'x_mio_touch');
      // The stdio update comes after the HTTP one would have: heard, it shows the HTTP one was not sent.
      await eventually(
        async () => watcher.updated,
        (u) => u.length >= 3,
        10_000,
      );
      expect(watcher.updated).to.deep.equal([WEB_COUNTER, STDIO_COUNTER, STDIO_COUNTER]);
    });

    it("a modern client's subscriptions/listen hears updates of a modern and a legacy upstream's resources on one stream", async () => {
      const listener = await modernHearing(sb.url);
      closing.push(listener.client);
      const sub = await listener.client.listen({ resourceSubscriptions: [WEB_COUNTER, 'ask://counter'] });
      expect(sub.honoredFilter).to.deep.equal({ resourceSubscriptions: [WEB_COUNTER, 'ask://counter'] });
      await callTool(legacy, 'x_mweb_touch');
      await callTool(legacy, 'x_ask_bump');
      await eventually(
        async () => listener.updated,
        (u) => u.length >= 2,
        10_000,
      );
      expect([...listener.updated].sort()).to.deep.equal(['ask://counter', WEB_COUNTER]);
      await sub.close();
    });

    it('sessions of both eras watching one URI share one upstream listen; the last to leave ends the watch', async () => {
      const a = await legacyHearing(sb.url);
      const b = await modernHearing(sb.url);
      closing.push(a.client, b.client);
      await a.client.subscribeResource({ uri: WEB_COUNTER });
      const sub = await b.client.listen({ resourceSubscriptions: [WEB_COUNTER] });
      await a.client.unsubscribeResource({ uri: WEB_COUNTER });
      // Still watched for b.
      await callTool(legacy, 'x_mweb_touch');
      await eventually(
        async () => b.updated,
        (u) => u.length >= 1,
        10_000,
      );
      expect(a.updated).to.deep.equal([]);
      await sub.close();
    });

    // Last: it kills and restarts two of the servers the tests above use.
    it('a watched resource is watched again when its server comes back, killed (stdio, 2026-07-28) or restarted (HTTP, 2025-11-25), and announced as changed', async () => {
      const watcher = await legacyHearing(sb.url);
      closing.push(watcher.client);
      await watcher.client.subscribeResource({ uri: STDIO_COUNTER });
      await watcher.client.subscribeResource({ uri: 'ask://counter' });
      const heard = (uri: string) => watcher.updated.filter((u) => u === uri).length;

      const status = () =>
        meta<{ state: string; metadata: { pid?: number } }>(legacy, 'call_tool', { name: 'core_service_status', arguments: { name: 'mio' } });
      const crashed = (await status()).metadata.pid!;
      process.kill(crashed, 'SIGKILL');
      await eventually(status, (s) => s.state === 'running' && s.metadata.pid !== crashed, 20_000);
      // The new process is told the URI; the subscriber hears it may have changed meanwhile...
      await eventually(
        async () => heard(STDIO_COUNTER),
        (n) => n === 1,
        10_000,
      );
      // ...and hears its next change.
      await callTool(legacy, 'x_mio_touch');
      await eventually(
        async () => heard(STDIO_COUNTER),
        (n) => n === 2,
        10_000,
      );

      const restarted = await callTool(legacy, 'core_service_restart', { name: 'ask' });
      expect(restarted.isError, text(restarted)).to.not.equal(true);
      await eventually(
        async () => heard('ask://counter'),
        (n) => n === 1,
        10_000,
      );
      await callTool(legacy, 'x_ask_bump');
      await eventually(
        async () => heard('ask://counter'),
        (n) => n === 2,
        10_000,
      );
      expect(watcher.updated.filter((u) => u !== STDIO_COUNTER && u !== 'ask://counter')).to.deep.equal([]);
    });
  });
});
