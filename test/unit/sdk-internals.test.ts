/**
 * Switchboard reaches into the MCP SDK's private members in exactly one module,
 * kernel/mcp/dispatch.ts. These specifications hold that module to the installed SDK: the
 * release it was checked against, every member it uses present on real SDK objects, and the
 * fast path working end to end over a real (in-memory) connection.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { dispatchByShape, SDK_VERSION_CHECKED, setRawRequestHandler, type DirectHandler } from '../../kernel/mcp/dispatch.js';

function installedSdkVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/types.js');
  let dir = dirname(entry);
  while (!dir.endsWith('sdk')) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

async function connected(): Promise<{ server: Server; client: Client }> {
  const server = new Server({ name: 'pinned', version: '1.0.0' }, { capabilities: { tools: {} } });
  const client = new Client({ name: 'probe', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return { server, client };
}

describe('SDK internals: one module, pinned to the SDK release it was checked against', () => {
  it('the installed SDK is the release kernel/mcp/dispatch.ts was checked against', () => {
    const installed = installedSdkVersion();
    expect(installed, `the MCP SDK is now ${installed}: re-check kernel/mcp/dispatch.ts against its source, then set SDK_VERSION_CHECKED`).to.equal(
      SDK_VERSION_CHECKED,
    );
  });

  it('a connected SDK Server has every private member dispatch.ts uses, of the expected kind', async () => {
    const { server, client } = await connected();
    try {
      const p = server as unknown as Record<string, unknown>;
      for (const member of ['_onresponse', '_onrequest', '_onnotification', '_onerror']) expect(p[member], member).to.be.a('function');
      expect(p._requestHandlerAbortControllers, '_requestHandlerAbortControllers').to.be.instanceOf(Map);
      expect(p._requestHandlers, '_requestHandlers').to.be.instanceOf(Map);
      expect((p.transport as { onmessage?: unknown }).onmessage, 'transport.onmessage').to.be.a('function');
    } finally {
      await client.close();
    }
  });

  it('with dispatch by shape, a plain tools/call takes the direct handler and its answer reaches the client', async () => {
    const { server, client } = await connected();
    try {
      let direct = 0;
      const handler: DirectHandler = async (request) => {
        direct++;
        return { content: [{ type: 'text', text: `direct ${String(request.params?.name)}` }] };
      };
      setRawRequestHandler(server, 'tools/call', () => Promise.resolve({ content: [{ type: 'text', text: 'the SDK path' }] }));
      dispatchByShape(server, new Map([['tools/call', handler]]));
      const plain = await client.request({ method: 'tools/call', params: { name: 'echo', arguments: {} } }, CallToolResultSchema);
      expect(plain.content).to.deep.equal([{ type: 'text', text: 'direct echo' }]);
      // A request with _meta (a progress token) keeps the SDK's own path.
      const withMeta = await client.request(
        { method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: { progressToken: 1 } } },
        CallToolResultSchema,
      );
      expect(withMeta.content).to.deep.equal([{ type: 'text', text: 'the SDK path' }]);
      expect(direct).to.equal(1);
    } finally {
      await client.close();
    }
  });
});
