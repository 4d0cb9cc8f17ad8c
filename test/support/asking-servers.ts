/**
 * The asking fixture (test/fixtures/asking-server.ts) behind Switchboard twice: over stdio as
 * `ask` and over streamable HTTP as `askweb`, so a relay test checks both ways an upstream's
 * request reaches its caller (one shared process, one connection per session).
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { freePort, ROOT, startNode, startSwitchboard, stdioServer, type Running } from './harness.js';

export const ASKING = join(ROOT, 'dist/test/fixtures/asking-server.js');

export interface AskingServers {
  sb: Running;
  web: ChildProcess;
  /** Closes `clients`, then stops Switchboard and the HTTP fixture. */
  stop(clients: readonly Client[]): Promise<void>;
}

/** `askExtra`: more lines of the stdio definition (env, ...); `more`: other files of the config directory. */
export async function startAskingServers(options: { askExtra?: string; more?: Record<string, string> } = {}): Promise<AskingServers> {
  const port = await freePort();
  const web = await startNode([ASKING, 'http', String(port)], {}, /listening \d+/);
  const sb = await startSwitchboard({
    'mcpservers/ask.yaml': stdioServer('ask', ASKING, [], options.askExtra ?? ''),
    'mcpservers/askweb.yaml': `name: askweb\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp\n`,
    ...options.more,
  }).catch((err: unknown) => {
    web.kill();
    throw err;
  });
  return {
    sb,
    web,
    async stop(clients) {
      for (const c of clients) await c.close().catch(() => undefined);
      await sb.stop();
      web.kill();
    },
  };
}
