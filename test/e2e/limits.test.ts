import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, connectHttp, errorCode, meta, metaRaw, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

describe('limits on what one client may ask', () => {
  let sb: Running;
  const clients: Client[] = [];
  /** Ends the session on the server too (close() alone only drops the client side). */
  const leave = async (c: Client): Promise<void> => {
    await (c.transport as StreamableHTTPClientTransport).terminateSession();
    await c.close();
    clients.splice(clients.indexOf(c), 1);
  };
  const connect = async (): Promise<Client> => {
    const c = await connectHttp(sb.url);
    clients.push(c);
    return c;
  };

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': [
        'aggregator:',
        '  limits:',
        '    maxSessions: 3',
        '    maxArgumentBytes: 2000',
        '    rateLimit: { callsPerSecond: 0.5, burst: 4 }',
        '',
      ].join('\n'),
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER, [], 'callTimeout: 1\n'),
    });
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await sb?.stop();
  });

  it('a tool call that takes longer than callTimeout fails with TIMEOUT, and the server stays usable', async () => {
    const client = await connect();
    const r = await callTool(client, 'x_t_slow', { ms: 4000 });
    await leave(client);
    expect(errorCode(r)).to.equal('TIMEOUT');
    expect(text(r)).to.equal("tool 'slow' on server 't' timed out after 1000 ms");
    const next = await callTool(await connect(), 'x_t_ping');
    expect(text(next)).to.match(/^pong from/);
  });

  it('arguments above maxArgumentBytes get TOO_LARGE naming the size and the limit; smaller ones run', async () => {
    const client = await connect();
    const big = await callTool(client, 'x_t_add', { a: 1, b: 2, pad: 'x'.repeat(3000) });
    expect(errorCode(big)).to.equal('TOO_LARGE');
    expect(text(big)).to.match(/^The tool call's arguments is 30\d\d bytes, more than the limit of 2000 bytes$/);
    expect(errorCode(await callTool(client, 'x_t_add', { a: 1, b: 2 }))).to.equal(undefined);
    const batch = await metaRaw(client, 'call_tools', {
      calls: [
        { name: 'x_t_ping', arguments: {} },
        { name: 'x_t_add', arguments: { pad: 'y'.repeat(2500) } },
      ],
    });
    expect(errorCode(batch)).to.equal('TOO_LARGE');
  });

  it('a session over its rate gets RATE_LIMITED with retryAfterMs; another session is not affected', async () => {
    const greedy = await connect();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await callTool(greedy, 'x_t_ping'));
    expect(results.map(errorCode)).to.deep.equal([undefined, undefined, undefined, undefined]);
    const refused = await callTool(greedy, 'x_t_ping');
    expect(errorCode(refused)).to.equal('RATE_LIMITED');
    const details = (refused.structuredContent as { error: { details: { retryAfterMs: number } } }).error.details;
    expect(details.retryAfterMs).to.be.within(1, 2000);
    expect(text(refused)).to.match(/this session may make 0\.5 tool calls per second \(bursts of 4\); retry after \d+ ms/);
    // Discovery is not metered: only calls that run tools are.
    await meta(greedy, 'list_tools');
    await leave(greedy);
    const polite = await connect();
    expect(errorCode(await callTool(polite, 'x_t_ping'))).to.equal(undefined);
  });

  it('beyond maxSessions an initialize is refused with 503 and a message saying what to do; closing one makes room', async () => {
    while (clients.length < 3) await connect();
    let refusal: Error | undefined;
    try {
      await connectHttp(sb.url);
    } catch (err) {
      refusal = err as Error;
    }
    expect(refusal?.message).to.include('Service Unavailable: the session limit of 3 is reached; close sessions you no longer use');
    await leave(clients[0]!);
    await connect();
  });
});

describe('idle sessions', () => {
  it('end after sessionIdleMinutes without a request; the client is told the session is gone', async () => {
    // 3 s idle: long enough that a loaded machine's pause between a client's initialize, its
    // initialized notification and its first call never ends the session in between (0.6 s did).
    const sb = await startSwitchboard({
      'config.yaml': 'plugins:\n  transport-streamable-http:\n    options: { sessionIdleMinutes: 0.05 }\n',
    });
    let client: Client | undefined;
    try {
      client = await connectHttp(sb.url);
      await meta(client, 'list_tools');
      await sb.waitForLog(/ending idle session/, 30_000);
      let gone: Error | undefined;
      try {
        await meta(client, 'list_tools');
      } catch (err) {
        gone = err as Error;
      }
      expect(gone?.message).to.match(/Session '[^']+' not found \(it ended or never existed\); initialize a new session/);
    } finally {
      // Stopped even when connecting failed: a Switchboard left running outlives the suite.
      await client?.close();
      await sb.stop();
    }
  });
});
