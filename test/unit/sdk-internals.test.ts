import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Client as ModernClient, InMemoryTransport as ModernMemory } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PASSTHROUGH } from '../../kernel/mcp/shared/passthrough.js';
import {
  abortControllers,
  nextRequestId,
  PRIVATE_MEMBERS,
  protocolDispatch,
  restoreClientState,
  MODERN_SDK_VERSION_CHECKED,
  SDK_VERSION_CHECKED,
  setRawRequestHandler,
} from '../../kernel/mcp/shared/sdk-internals.js';
import { packageRoot } from '../../kernel/paths.js';

const readText = (path: string): string => readFileSync(join(packageRoot(), path), 'utf8');
/** The version package-lock.json pins (what `npm ci` installs). */
const lockedOf = (pkg: string) =>
  (JSON.parse(readText('package-lock.json')) as { packages: Record<string, { version?: string } | undefined> }).packages[`node_modules/${pkg}`]?.version;
/** The version installed in node_modules. */
const versionOf = (pkg: string) => (JSON.parse(readText(`node_modules/${pkg}/package.json`)) as { version: string }).version;
const installed = versionOf('@modelcontextprotocol/sdk');

/** A protocol's private member as the SDK holds it: 'function', 'Map', 'number' or what else it is. */
function kindOf(protocol: object, member: string): string {
  const v = (protocol as Record<string, unknown>)[member];
  return v instanceof Map ? 'Map' : typeof v;
}

async function connectedPair(): Promise<{ server: Server; client: Client; sent: JSONRPCMessage[] }> {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  const client = new Client({ name: 'c', version: '1' }, { capabilities: { roots: { listChanged: true } } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: JSONRPCMessage[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { server, client, sent };
}

describe('kernel/mcp/shared/sdk-internals.ts: the MCP SDK private members Switchboard relies on', () => {
  it('are pinned to the exact versions of both SDKs in package-lock.json (v1 for legacy, v2 client for modern), and those are installed', () => {
    const locked = { v1: lockedOf('@modelcontextprotocol/sdk'), v2: lockedOf('@modelcontextprotocol/client'), v2core: lockedOf('@modelcontextprotocol/core') };
    expect(
      locked,
      'package-lock.json moved an MCP SDK: re-check kernel/mcp/shared/sdk-internals.ts (and modern-upstream.ts for v2), then update the pins',
    ).to.deep.equal({
      v1: SDK_VERSION_CHECKED,
      v2: MODERN_SDK_VERSION_CHECKED,
      v2core: MODERN_SDK_VERSION_CHECKED,
    });
    expect([installed, versionOf('@modelcontextprotocol/client')], 'node_modules is not what package-lock.json pins: npm ci').to.deep.equal([
      SDK_VERSION_CHECKED,
      MODERN_SDK_VERSION_CHECKED,
    ]);
  });

  it(`were checked against the installed SDK version (re-check sdk-internals.ts against SDK ${installed})`, () => {
    expect(installed, `the MCP SDK is now ${installed}: re-check sdk-internals.ts against SDK ${installed}, then update SDK_VERSION_CHECKED`).to.equal(
      SDK_VERSION_CHECKED,
    );
  });

  it(`and the v2 client modern upstreams use is the one checked (${MODERN_SDK_VERSION_CHECKED}); a prior-discover connect sends nothing`, async () => {
    const modern = versionOf('@modelcontextprotocol/client');
    expect(modern, `the v2 MCP client is now ${modern}: re-check plugins/upstreams/client/modern-upstream.ts, then update MODERN_SDK_VERSION_CHECKED`).to.equal(
      MODERN_SDK_VERSION_CHECKED,
    );
    const [clientSide, serverSide] = ModernMemory.createLinkedPair();
    const sent: unknown[] = [];
    serverSide.onmessage = (m) => void sent.push(m);
    await serverSide.start();
    const client = new ModernClient({ name: 'c', version: '1' }, { listChanged: { tools: { autoRefresh: false, onChanged: () => undefined } } });
    await client.connect(clientSide, {
      prior: { kind: 'modern', discover: { supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } } } },
    });
    // modern-upstream.ts opens the subscriptions/listen stream itself: an SDK that opened one too would double it.
    expect(sent).to.deep.equal([]);
    expect(client.getProtocolEra()).to.equal('modern');
    await client.close();
  });

  for (const [name, make] of [
    ['Server', () => new Server({ name: 's', version: '1' }, { capabilities: {} })],
    ['Client', () => new Client({ name: 'c', version: '1' })],
    [
      'Protocol',
      () =>
        new (class extends Protocol<never, never, never> {
          protected assertCapabilityForMethod(): void {}
          protected assertNotificationCapability(): void {}
          protected assertRequestHandlerCapability(): void {}
          protected assertTaskCapability(): void {}
          protected assertTaskHandlerCapability(): void {}
        })(),
    ],
  ] as const) {
    it(`finds every member it uses, of the expected kind, on a real ${name}`, () => {
      const protocol = make();
      for (const [member, kind] of Object.entries(PRIVATE_MEMBERS)) {
        expect(kindOf(protocol, member), `${name}.${member}`).to.equal(kind);
      }
      expect(protocolDispatch(protocol)).to.have.all.keys('response', 'request', 'notification', 'error');
      expect(abortControllers(protocol)).to.be.instanceOf(Map);
      expect(nextRequestId(protocol)).to.be.a('number');
    });
  }

  it("answers undefined for an object without them, so callers keep the SDK's own way", () => {
    expect(protocolDispatch({})).to.equal(undefined);
    expect(abortControllers({})).to.equal(undefined);
    expect(nextRequestId({})).to.equal(undefined);
    expect(() => setRawRequestHandler({}, 'tools/call', () => Promise.resolve({}))).to.throw(/sdk-internals\.ts needs updating/);
  });

  it('names the id the next request is sent under', async () => {
    const { client, sent } = await connectedPair();
    const expected = nextRequestId(client);
    await client.request({ method: 'ping' }, PASSTHROUGH);
    const ping = sent.find((m) => 'method' in m && m.method === 'ping') as { id: number } | undefined;
    expect(ping?.id).to.equal(expected);
  });

  it('registers a raw handler the SDK calls with the request as sent, its result unparsed', async () => {
    const { server, client } = await connectedPair();
    setRawRequestHandler(server, 'tools/call', (request) => Promise.resolve({ content: [], echoed: request.params, extra: 'kept' }));
    const result = await client.request({ method: 'tools/call', params: { name: 'x', arguments: { a: 1 } } }, PASSTHROUGH);
    expect(result).to.deep.equal({ content: [], echoed: { name: 'x', arguments: { a: 1 } }, extra: 'kept' });
  });

  it("dispatches through _onresponse, _onrequest and _onnotification as the SDK's own onmessage does", async () => {
    const { server, client } = await connectedPair();
    const members = server as unknown as Record<string, (...a: unknown[]) => void>;
    const seen: string[] = [];
    for (const m of ['_onresponse', '_onrequest', '_onnotification'] as const) {
      const original = members[m]!.bind(server);
      members[m] = (...a: unknown[]) => {
        seen.push(m);
        original(...a);
      };
    }
    await client.ping();
    await client.notification({ method: 'notifications/roots/list_changed' });
    await server.listRoots().catch(() => undefined);
    expect(seen).to.include.members(['_onrequest', '_onnotification', '_onresponse']);
  });

  it("keeps the client's capabilities and info in _clientCapabilities and _clientVersion, which a rebuilt Server restores", async () => {
    const { server } = await connectedPair();
    const members = server as unknown as Record<string, unknown>;
    expect(members._clientCapabilities, '_clientCapabilities after initialize').to.deep.equal({ roots: { listChanged: true } });
    expect(members._clientVersion, '_clientVersion after initialize').to.deep.equal({ name: 'c', version: '1' });
    expect(server.getClientCapabilities()).to.equal(members._clientCapabilities);
    expect(server.getClientVersion()).to.equal(members._clientVersion);

    // A fresh Server, never initialized, restored from what the first learned: with strict
    // capabilities the SDK refuses roots/list to a client that did not declare roots.
    const strict = () => new Server({ name: 's', version: '1' }, { capabilities: { tools: {} }, enforceStrictCapabilities: true });
    const answering = async (server: Server) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      clientSide.onmessage = (m) => {
        if ('method' in m && m.method === 'roots/list' && 'id' in m)
          void clientSide.send({ jsonrpc: '2.0', id: m.id, result: { roots: [{ uri: 'file:///r' }] } });
      };
      await clientSide.start();
      await server.connect(serverSide);
      return server;
    };
    const bare = await answering(strict());
    const refused = await bare.listRoots().then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(refused?.message).to.match(/does not support listing roots/);
    const rebuilt = strict();
    const capabilities = { roots: { listChanged: true } };
    restoreClientState(rebuilt, { capabilities, clientInfo: { name: 'c', version: '1' } });
    expect(rebuilt.getClientCapabilities()).to.equal(capabilities);
    expect(rebuilt.getClientVersion()).to.deep.equal({ name: 'c', version: '1' });
    await answering(rebuilt);
    expect(await rebuilt.listRoots()).to.deep.equal({ roots: [{ uri: 'file:///r' }] });
  });
});
