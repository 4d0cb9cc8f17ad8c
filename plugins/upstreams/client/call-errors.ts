/**
 * How a failed upstream request reads to a Switchboard client. Only Switchboard's own transport
 * failures are SERVER_UNAVAILABLE or TIMEOUT; whatever the upstream answered itself, whatever its
 * code (its -32000 and -32001 included, which the SDK also uses for "connection closed" and
 * "timed out"), is UPSTREAM_ERROR with its code and its words, scrubbed of known secrets
 * (an upstream that quotes its own API token in an error must not hand it to the caller).
 */
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { ServerUnavailableError, SwitchboardError, TimeoutError, UpstreamError } from '../../../kernel/index.js';
import { LOST_ANSWER } from './answer-streams.js';
import { HttpStatusError } from './http-answer.js';

/** A JSON-RPC error the upstream answered (not one the SDK or Switchboard made locally). */
export class UpstreamAnswerError extends McpError {}

/** The SDK's own "connection closed" (its message is fixed); an upstream's -32000 says something else. */
const SDK_CONNECTION_CLOSED = `MCP error ${ErrorCode.ConnectionClosed}: Connection closed`;

/** What the upstream's words pass through before a caller sees them. */
export type Scrub = (text: string) => string;

/**
 * An upstream built on the SDK sends its McpError's message, "MCP error <code>: " included, and
 * our McpError adds the prefix again: the code is said once ("MCP error -32602: MCP error
 * -32602: Input validation error" was what a caller read).
 */
function codeOnce(code: number, message: string): string {
  return `MCP error ${code}: ${upstreamWords(code, message)}`;
}

/** The upstream's own words in an McpError's message, without the "MCP error <code>: " prefixes. */
export function upstreamWords(code: number, message: string): string {
  const prefix = `MCP error ${code}: `;
  let words = message;
  while (words.startsWith(prefix)) words = words.slice(prefix.length);
  return words;
}

/**
 * The v2 SDK's errors (2026-07-28 upstreams), told apart by name and code: importing that SDK
 * here would load it at every start, and only the first modern upstream should. `ProtocolError`
 * is an error the server answered; `SdkError` one the client made itself (its codes are strings).
 */
type ModernError = Error & ({ name: 'ProtocolError'; code: number } | { name: 'SdkError'; code: string; data?: unknown });

function isModernError(err: unknown): err is ModernError {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return (err.name === 'ProtocolError' && typeof code === 'number') || (err.name === 'SdkError' && typeof code === 'string');
}

function mapModernError(server: string, what: string, err: ModernError, scrub: Scrub): SwitchboardError {
  if (err.name === 'ProtocolError') return new UpstreamError(server, scrub(codeOnce(err.code, err.message)), err.code);
  const timeout = (err.data as { timeout?: unknown } | undefined)?.timeout;
  if (err.code === 'REQUEST_TIMEOUT' && typeof timeout === 'number') return new TimeoutError(`${what} on server '${server}'`, timeout);
  if (err.code === 'CONNECTION_CLOSED') return new ServerUnavailableError(server, 'the connection closed during the call');
  return new ServerUnavailableError(server, scrub(err.message));
}

/**
 * The JSON-RPC error a 4xx answer carries in its body, if any: a 2026-07-28 server answers a
 * request it refuses at the HTTP layer (-32020 headers disagreeing with the body, -32602) with
 * 400 and the error, which is the server's answer, not the server being away. 401 and 403 are
 * sign-in matters (call-failures.ts), not answers.
 */
function answeredInBody(err: HttpStatusError): { code: number; message: string } | undefined {
  if (err.status < 400 || err.status >= 500 || err.status === 401 || err.status === 403) return undefined;
  try {
    const body = JSON.parse(err.body) as { error?: { code?: unknown; message?: unknown } };
    const { code, message } = body.error ?? {};
    return typeof code === 'number' && typeof message === 'string' ? { code, message } : undefined;
  } catch {
    return undefined;
  }
}

export function mapUpstreamError(server: string, what: string, err: unknown, scrub: Scrub): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  if (isModernError(err)) return mapModernError(server, what, err, scrub);
  const answered = err instanceof HttpStatusError ? answeredInBody(err) : undefined;
  if (answered) return new UpstreamError(server, scrub(codeOnce(answered.code, answered.message)), answered.code);
  if (err instanceof McpError) {
    // Made by our transport (answer-streams.ts): the answer was lost on our side, not refused by the server.
    const lost = (err.data as Record<string, unknown> | undefined)?.[LOST_ANSWER];
    if (typeof lost === 'string') return new ServerUnavailableError(server, scrub(lost));
    if (err instanceof UpstreamAnswerError) return new UpstreamError(server, scrub(codeOnce(err.code, err.message)), err.code);
    const timeout = (err.data as { timeout?: unknown } | undefined)?.timeout;
    // The SDK's own timeout carries its length; a -32001 without it came from the upstream.
    if (err.code === (ErrorCode.RequestTimeout as number) && typeof timeout === 'number') return new TimeoutError(`${what} on server '${server}'`, timeout);
    if (err.code === (ErrorCode.ConnectionClosed as number) && err.message === SDK_CONNECTION_CLOSED)
      return new ServerUnavailableError(server, 'the connection closed during the call');
    // The upstream's own words, verbatim but for secrets (decisions.md).
    return new UpstreamError(server, scrub(codeOnce(err.code, err.message)), err.code);
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/not connected/i.test(message)) return new ServerUnavailableError(server, 'not connected');
  // A transport failure may quote what the server sent (an HTTP error body).
  return new ServerUnavailableError(server, scrub(message));
}
