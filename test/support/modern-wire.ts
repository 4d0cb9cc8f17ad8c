/** A 2026-07-28 tools/call of call_tool as any client could send it (test/e2e/input-required, test/security/request-state). */
const MODERN = '2026-07-28';

export interface Wire {
  result?: Record<string, unknown> & {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  };
  error?: { code: number; message: string };
}

/** One modern tools/call of call_tool on the wire, from a client that declared elicitation. */
export async function callOnWire(url: string, id: number, tool: string, more: Record<string, unknown> = {}): Promise<Wire> {
  const params = {
    name: 'call_tool',
    arguments: { name: tool, arguments: {} },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
    },
    ...more,
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'call_tool',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
  return (await res.json()) as Wire;
}
