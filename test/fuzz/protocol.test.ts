/**
 * Hostile traffic at a running Switchboard, generated: JSON-RPC bodies (broken JSON, deep
 * nesting, huge strings, valid envelopes with hostile params and prototype-pollution keys),
 * arguments for every meta-tool, X-Service-Toolset values. Invariants: every request gets a
 * clear answer (a 4xx with a JSON-RPC error, or a result), Switchboard's own code never
 * fails with INTERNAL, memory stays bounded, and it keeps serving real clients.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  connectHttpWithHeaders,
  errorCode,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'name', 'arguments', 'calls', 'toolset', 'uri', 'limit', 'offset', 'query', 'pattern'];
const key = fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 }));
const scalar = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('x_t_ping', 'core_service_list', '*', '[', '\u0000', 'preset:none'),
);
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 5 })),
})).node;

/** Fixed by default so CI is repeatable; FUZZ_SEED=<n> explores further. */
const SEED = Number(process.env.FUZZ_SEED ?? 42);

const META_TOOLS = [
  'list_tools',
  'filter_tools',
  'describe_tool',
  'list_core_tools',
  'call_tool',
  'call_tools',
  'list_servers',
  'list_resources',
  'describe_resource',
  'get_resource',
  'list_prompts',
  'describe_prompt',
  'get_prompt',
];

function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

describe('fuzz: hostile traffic at a running Switchboard', function () {
  this.timeout(120_000);
  let sb: Running;
  let client: Client;
  let session: string;
  let rssBefore: number;

  const post = async (body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> => {
    // A request nobody answers is a failure of its own, not a mocha timeout.
    const res = await fetch(sb.url, {
      signal: AbortSignal.timeout(10_000),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
      body,
    });
    return { status: res.status, text: await res.text() };
  };

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/t.yaml': stdioServer('t', TEST_SERVER) });
    client = await connectHttp(sb.url);
    const init = await fetch(sb.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
    });
    session = init.headers.get('mcp-session-id')!;
    await init.text();
    rssBefore = rssKiB(sb.proc.pid!);
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('answers every generated JSON-RPC body with a result or a 4xx JSON-RPC error', async () => {
    const envelope = fc.record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0', 2, undefined),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), tree),
        method: fc.oneof(
          fc.constantFrom(
            'tools/call',
            'tools/list',
            'ping',
            'initialize',
            'resources/read',
            'prompts/get',
            'notifications/cancelled',
            'logging/setLevel',
            'completion/complete',
          ),
          fc.string({ maxLength: 20 }),
        ),
        params: tree,
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      envelope.map((e) => JSON.stringify(e)),
      fc.array(envelope, { maxLength: 4 }).map((b) => JSON.stringify(b)),
      fc.string({ maxLength: 200 }),
      fc.integer({ min: 1, max: 200_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
      fc
        .integer({ min: 1, max: 50_000 })
        .map(
          (n) =>
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"x_t_ping","arguments":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}}`,
        ),
      fc
        .integer({ min: 1, max: 3_000_000 })
        .map((n) =>
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'call_tool', arguments: { name: 'x_t_add', arguments: { a: 1, b: 2, s: 'x'.repeat(n) } } },
          }),
        ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = await post(b);
        expect([200, 202, 400, 404, 413], `${r.status} ${r.text.slice(0, 200)}`).to.include(r.status);
        if (r.text && r.status !== 202) {
          const parsed = r.text.startsWith('event:') || r.text.startsWith('data:') ? null : (JSON.parse(r.text) as unknown);
          if (parsed && r.status >= 400)
            expect((parsed as { error: { message: string } }).error.message)
              .to.be.a('string')
              .and.not.equal('');
          expect(r.text).to.not.include('"code":"INTERNAL"');
        }
      }),
      { numRuns: 300, seed: SEED },
    );
    // A body over the limit: 413 with a message, not an out-of-memory.
    const huge = await post(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"${'y'.repeat(5 * 1024 * 1024)}"}}`);
    expect(huge.status).to.equal(413);
  });

  it('answers any arguments to any meta-tool with a result or a clear error, never INTERNAL', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...META_TOOLS), fc.dictionary(key, tree, { maxKeys: 5 }), async (name, args) => {
        let r: CallToolResult;
        try {
          r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        } catch (err) {
          expect(err).to.be.instanceOf(McpError);
          return;
        }
        if (r.isError) {
          expect(errorCode(r), text(r)).to.be.a('string').and.not.equal('INTERNAL');
          expect(text(r)).to.not.equal('');
        }
      }),
      { numRuns: 400, seed: SEED + 1 },
    );
  });

  it('answers any X-Service-Toolset value with the narrowed catalogue or INVALID_TOOLSET', async () => {
    const { client: c, setHeaders } = await connectHttpWithHeaders(sb.url);
    const selector = fc.oneof(
      fc.constantFrom('preset:none', 'preset:full', 'preset:read-only', 'server:t', 'tool:x_t_ping', 'toolset:x', 'label:a=b', 'preset:', ':', ',', ' '),
      fc.stringMatching(/^[ -~]{0,20}$/),
    );
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(selector, { maxLength: 40 }), async (parts) => {
          setHeaders({ 'X-Service-Toolset': parts.join(',') });
          const r = (await c.callTool({ name: 'list_tools', arguments: {} })) as CallToolResult;
          if (r.isError) expect(errorCode(r), text(r)).to.equal('INVALID_TOOLSET');
        }),
        { numRuns: 200, seed: SEED + 2 },
      );
    } finally {
      await c.close();
    }
  });

  it('is still serving, with bounded memory and no unhandled rejection', async () => {
    expect(sb.proc.exitCode).to.equal(null);
    const r = await callTool(client, 'x_t_add', { a: 2, b: 3 });
    expect(r.structuredContent).to.deep.equal({ sum: 5 });
    expect(sb.logs()).to.not.match(/unhandled|uncaught/i);
    const grown = rssKiB(sb.proc.pid!) - rssBefore;
    expect(grown, `RSS grew by ${grown} KiB`).to.be.below(200 * 1024);
  });
});
