/** A plugin handler's failure as the protocol error both eras answer with. */
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { SwitchboardError } from '../../errors.js';

/** The upstream's words without the "MCP error <code>: " its SDK put before them (McpError adds it again). */
function upstreamWords(code: number, message: string): string {
  const prefix = `MCP error ${code}: `;
  let words = message;
  while (words.startsWith(prefix)) words = words.slice(prefix.length);
  return words;
}

/**
 * A bad name, a conflict or an unknown toolset is the caller's (-32602), and so is an upstream's
 * own -32602 to a request relayed to it (a resource it does not have, a prompt argument it
 * refuses: `data` says which, e.g. `{uri}`); anything else is ours (-32603).
 */
export function protocolError(err: unknown, data?: Record<string, unknown>): McpError {
  if (err instanceof SwitchboardError && err.code === 'UPSTREAM_ERROR' && err.details?.upstreamCode === ErrorCode.InvalidParams)
    return new McpError(ErrorCode.InvalidParams, upstreamWords(ErrorCode.InvalidParams, err.message), data);
  return new McpError(
    err instanceof SwitchboardError && (err.code === 'NOT_FOUND' || err.code === 'CONFLICT' || err.code === 'INVALID_TOOLSET')
      ? ErrorCode.InvalidParams
      : ErrorCode.InternalError,
    (err as Error).message,
  );
}
