/**
 * The two shapes a Switchboard-made tool result takes (decisions.md, "Results and errors"):
 * an object in structuredContent mirrored as JSON text, or an error envelope.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
import { asSwitchboardError } from '../../errors.js';
import type { JsonObject } from '../../tools.js';

export function objectResult(value: JsonObject): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export function errorResult(err: unknown): CallToolResult {
  const e = asSwitchboardError(err);
  const error: JsonObject = { code: e.code, message: e.message };
  if (e.details) error.details = e.details;
  return { isError: true, content: [{ type: 'text', text: e.message }], structuredContent: { error } };
}
