/**
 * The SDK's McpError puts "MCP error <code>: " in front of its message, and its Protocol sends
 * that message as the JSON-RPC error's message; the client's SDK then puts the prefix in front
 * once more ("MCP error -32602: MCP error -32602: ..."). The prefix belongs to the client's
 * rendering, not to the wire: an error leaving this endpoint carries the plain message, whoever
 * threw it (the SDK itself, the kernel, a plugin, an upstream's error relayed).
 */
import type { JSONRPCMessage } from '#mcp-sdk/types.js';

export function plainWireError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const { code, message: text } = message.error;
  const prefix = `MCP error ${code}: `;
  if (typeof text !== 'string' || !text.startsWith(prefix)) return message;
  return { ...message, error: { ...message.error, message: text.slice(prefix.length) } };
}
