/**
 * `switchboard agent`: an MCP server on stdio for IDEs that speak only stdio, forwarding
 * everything to a remote Switchboard: requests and notifications both ways (so sampling,
 * elicitation, progress and list changes reach the IDE), with the remote's capabilities
 * announced as its own. It signs in first when the endpoint wants it and the stored
 * credentials cannot (the link goes to stderr; stdout belongs to the IDE).
 */
import { Server } from '#mcp-sdk/server/index.js';
import { StdioServerTransport } from '#mcp-sdk/server/stdio.js';
import type { Client } from '#mcp-sdk/client/index.js';
import { PASSTHROUGH } from '../kernel/index.js';
import { connect, ClientError, disconnect } from './connection.js';
import { CredentialStore } from './credentials.js';
import { signIn } from './sign-in.js';

export async function runAgent(endpoint: string, options: { silent: boolean; version: string; toolset?: string }): Promise<void> {
  const say = (line: string) => process.stderr.write(`switchboard agent: ${line}\n`);
  const connectOptions = { name: 'switchboard-agent', forwarding: true, version: options.version, ...(options.toolset ? { toolset: options.toolset } : {}) };
  let remote: Client;
  try {
    remote = await connect(endpoint, connectOptions);
  } catch (err) {
    if (!(err instanceof ClientError) || err.code !== 'SIGN_IN_NEEDED') throw err;
    say(`${endpoint} needs a sign-in`);
    await signIn(endpoint, new CredentialStore(endpoint), { silent: options.silent, say });
    remote = await connect(endpoint, connectOptions);
  }
  const info = remote.getServerVersion();
  const server = new Server(
    { name: info?.name ?? 'switchboard', version: info?.version ?? options.version },
    { capabilities: remote.getServerCapabilities() ?? {}, ...(remote.getInstructions() ? { instructions: remote.getInstructions()! } : {}) },
  );
  // IDE -> Switchboard
  server.fallbackRequestHandler = (request, extra) =>
    remote.request({ method: request.method, ...(request.params ? { params: request.params } : {}) }, PASSTHROUGH, { signal: extra.signal });
  server.fallbackNotificationHandler = (n) => remote.notification(n);
  // Switchboard -> IDE (sampling, elicitation, roots; logs, progress, list changes)
  remote.fallbackRequestHandler = (request, extra) =>
    server.request({ method: request.method, ...(request.params ? { params: request.params } : {}) }, PASSTHROUGH, { signal: extra.signal });
  remote.fallbackNotificationHandler = (n) => server.notification(n);
  const stdio = new StdioServerTransport();
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await disconnect(remote).catch(() => undefined);
    process.exit(0);
  };
  server.onclose = () => void close();
  remote.onclose = () => {
    if (!closing) say(`the connection to ${endpoint} closed`);
    void close();
  };
  process.stdin.on('end', () => void close());
  await server.connect(stdio);
  say(`forwarding stdio to ${endpoint}`);
}
