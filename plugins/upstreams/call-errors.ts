/** How a failed upstream request reads to a Switchboard client. */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ServerUnavailableError, SwitchboardError, TimeoutError, UpstreamError } from '../../kernel/errors.js';

export function mapUpstreamError(server: string, what: string, err: unknown): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) {
      const ms = Number((err.data as { timeout?: number } | undefined)?.timeout ?? 0);
      return new TimeoutError(`${what} on server '${server}'`, ms);
    }
    if (err.code === ErrorCode.ConnectionClosed) return new ServerUnavailableError(server, 'the connection closed during the call');
    // The upstream's own words, verbatim (decisions.md).
    return new UpstreamError(server, err.message, err.code);
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/not connected/i.test(message)) return new ServerUnavailableError(server, 'not connected');
  return new ServerUnavailableError(server, message);
}
