/**
 * client-config: provides the `client-config` service, the reader `switchboard import` uses
 * (app/cli/import/), so the admin UI's "paste from your IDE" form turns a snippet into
 * definitions exactly as the command does, without a plugin importing the CLI.
 */
import { homedir } from 'node:os';
import { definePlugin, type ClientConfigRead } from '../kernel/index.js';
import { importEntry, serverMap } from './cli/import/client-config.js';
import { stripJsonc } from './cli/import/jsonc.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `v` looks like one server entry (a command or a URL), not a map of them. */
function isEntry(v: unknown): boolean {
  return isObject(v) && (typeof v.command === 'string' || Array.isArray(v.command) || typeof v.url === 'string');
}

function parse(text: string): unknown {
  const bare = stripJsonc(text).trim();
  try {
    return JSON.parse(bare);
  } catch (err) {
    // `"name": { ... }` copied out of a file is not JSON on its own; inside braces it is.
    if (bare.startsWith('"')) {
      try {
        return JSON.parse(`{${bare.replace(/,\s*$/, '')}}`);
      } catch {
        // The first error names the place in what was pasted.
      }
    }
    throw err;
  }
}

export function readClientConfig(text: string): ClientConfigRead {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${(err as Error).message}` };
  }
  const map = serverMap(doc) ?? (isObject(doc) && Object.values(doc).length > 0 && Object.values(doc).every(isEntry) ? doc : undefined);
  if (!map || Object.keys(map).length === 0)
    return {
      ok: false,
      reason: "no MCP server in it: paste a client's file ('mcpServers', 'servers' or 'mcp.servers') or one \"name\": {\"command\": ...} entry",
    };
  const ide = { home: homedir() };
  return { ok: true, servers: Object.entries(map).map(([name, entry]) => importEntry(name, entry, ide)) };
}

export default definePlugin({
  name: 'client-config',
  description: "Reads IDE MCP configuration snippets as 'switchboard import' does (for the admin UI).",
  provides: ['client-config'],
  setup({ kernel }) {
    kernel.services.provide('client-config', { read: readClientConfig });
  },
});
