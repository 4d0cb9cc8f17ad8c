/** A plugin handler's failure as the protocol error both eras answer with. */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '../../errors.js';

/** A bad name, a conflict or an unknown toolset is the caller's (-32602); anything else is ours (-32603). */
export function protocolError(err: unknown): McpError {
  return new McpError(
    err instanceof SwitchboardError && (err.code === 'NOT_FOUND' || err.code === 'CONFLICT' || err.code === 'INVALID_TOOLSET')
      ? ErrorCode.InvalidParams
      : ErrorCode.InternalError,
    (err as Error).message,
  );
}
