/**
 * A client session with a running Switchboard, as the commands use it: the SDK client over
 * streamable HTTP, credentials from the store (refreshed by the SDK when they lapse), the
 * toolset header when asked. An endpoint that wants a sign-in the store cannot give is one
 * clear line: run `switchboard login`.
 */
import { Client } from '#mcp-sdk/client/index.js';
import { StreamableHTTPClientTransport } from '#mcp-sdk/client/streamableHttp.js';
import { UnauthorizedError } from '#mcp-sdk/client/auth.js';
import type { CallToolResult } from '#mcp-sdk/types.js';
import { CredentialStore } from './credentials.js';
import { CliAuthProvider, SignInNeeded } from './sign-in.js';

export type ClientErrorCode = 'SIGN_IN_NEEDED' | 'UNREACHABLE' | 'FAILED';

export class ClientError extends Error {
  constructor(
    message: string,
    readonly code: ClientErrorCode = 'FAILED',
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

/**
 * `forwarding`: the client stands in for another (the agent's IDE), so it offers what that one may answer.
 * `version`: the package's, told by the application (the kernel's public API, which has it, is
 * not loaded by a one-shot command: its import alone cost more CPU than the command's request).
 */
export async function connect(endpoint: string, options: { version: string; toolset?: string; name?: string; forwarding?: boolean }): Promise<Client> {
  const store = new CredentialStore(endpoint);
  const provider = new CliAuthProvider(store, await store.load(), undefined);
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    authProvider: provider,
    ...(options.toolset ? { requestInit: { headers: { 'X-Service-Toolset': options.toolset } } } : {}),
  });
  const client = new Client(
    { name: options.name ?? 'switchboard-cli', version: options.version },
    options.forwarding ? { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } } : {},
  );
  try {
    await client.connect(transport);
  } catch (err) {
    if (err instanceof SignInNeeded) throw new ClientError(err.message, 'SIGN_IN_NEEDED');
    if (err instanceof UnauthorizedError) throw new ClientError(new SignInNeeded(endpoint).message, 'SIGN_IN_NEEDED');
    if (errorChainHas(err, 'ECONNREFUSED'))
      throw new ClientError(`cannot reach ${endpoint}: nothing is listening there (is Switchboard running?)`, 'UNREACHABLE');
    throw new ClientError(`cannot connect to ${endpoint}: ${(err as Error).message}`);
  }
  return client;
}

/**
 * Ends the client's session on the server (DELETE on the MCP endpoint) before closing: a
 * one-shot command otherwise leaves an idle session behind until it expires, and the admin
 * page fills with them. A server that does not allow the DELETE (405) has nothing to end.
 */
export async function disconnect(client: Client): Promise<void> {
  const transport = client.transport;
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) await transport.terminateSession().catch(() => undefined);
  await client.close();
}

/**
 * Whether `code` is anywhere down an error's cause chain (fetch wraps the socket's error), or
 * in every attempt of an AggregateError (`localhost` tried on ::1 and 127.0.0.1).
 */
function errorChainHas(err: unknown, code: string, depth = 0): boolean {
  const e = err as { code?: string; cause?: unknown; message?: string; errors?: unknown[] } | undefined;
  if (!e || depth >= 5) return false;
  if (e.code === code || e.message?.includes(code)) return true;
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x) => errorChainHas(x, code, depth + 1))) return true;
  return errorChainHas(e.cause, code, depth + 1);
}

/** A meta-tool's structured answer; an error result becomes a ClientError with its message. */
export async function metaCall<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new ClientError(resultText(result) || `${name} failed`);
  return (result.structuredContent ?? JSON.parse(resultText(result) || '{}')) as T;
}

export function resultText(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : c.type === 'resource' ? JSON.stringify(c.resource) : `[${c.type}]`)).join('\n');
}
