/** A 2026-07-28 tools/call of call_tool as any client could send it (test/e2e/input-required, test/security/request-state, test/e2e/stream-keep-alive). */
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
  const res = await postCallTool(url, id, { name: tool, arguments: {} }, { elicitation: { form: {} } }, more);
  return (await res.json()) as Wire;
}

/**
 * The POST of one modern tools/call of call_tool (`args`: call_tool's own arguments), its
 * answer unread: JSON, or an event stream when the answer is slow or says something first.
 */
export function postCallTool(
  url: string,
  id: number,
  args: Record<string, unknown>,
  clientCapabilities: Record<string, unknown> = {},
  more: Record<string, unknown> = {},
): Promise<Response> {
  const params = {
    name: 'call_tool',
    arguments: args,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
      'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
    },
    ...more,
  };
  return fetch(url, {
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
}
