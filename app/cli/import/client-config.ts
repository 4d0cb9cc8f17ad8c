/**
 * MCP server entries as the common clients write them, turned into Switchboard definitions:
 * Claude Desktop and Cursor (`mcpServers`), VS Code (`servers` in mcp.json, `mcp.servers`
 * in settings.json). Each entry becomes a definition or a reason it cannot.
 */
import { basename, sep } from 'node:path';
import type { SecretValue } from '../../../kernel/secrets/secret-value.js';

export type Imported = { ok: true; name: string; original: string; definition: Record<string, unknown> } | { ok: false; name: string; reason: string };

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Where the server map lives in each client's file. */
export function serverMap(doc: unknown): Record<string, unknown> | undefined {
  if (!isObject(doc)) return undefined;
  if (isObject(doc.mcpServers)) return doc.mcpServers;
  if (isObject(doc.servers)) return doc.servers;
  if (isObject(doc.mcp) && isObject(doc.mcp.servers)) return doc.mcp.servers;
  if (isObject(doc['mcp.servers'])) return doc['mcp.servers'];
  return undefined;
}

function safeName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 63);
  return cleaned || 'server';
}

/**
 * VS Code writes `${env:NAME}` for an environment variable: Switchboard's form is `${NAME}`.
 * `${input:...}` asks the person at the IDE for a value, which a server cannot do: refused.
 */
function convertValue(value: unknown, field: string): SecretValue {
  if (typeof value !== 'string') throw new Error(`${field} is not a string`);
  if (/\$\{input:[^${}]*\}/.test(value))
    throw new Error(`${field} asks the IDE user for input (\${input:...}); put the value in an environment variable and write \${NAME}`);
  return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, '${$1}');
}

/** What an IDE would put in for its variables, as far as it is known outside the IDE. */
export interface IdeContext {
  /** The folder of the workspace whose `.vscode/` or `.cursor/` holds the file; unknown for a user-level file. */
  workspaceFolder?: string;
  home: string;
}

/**
 * `${workspaceFolder}`, `${userHome}` and the like are filled in by the IDE when it spawns a
 * server; passed through, they reach the process verbatim and it fails on every retry. Known
 * ones are resolved now; any other `${...}` (an IDE setting, a command) is refused by name.
 */
function resolveIdeVariables(value: string, field: string, ide: IdeContext): string {
  // A name holds no `$`, `{` or `}`: each try then stops at the next `${`, where `[^}]*` read
  // to the end of the text from every one ("${" 50,000 times took 1.6 s).
  return value.replace(/\$\{([^${}]*)\}/g, (whole, name: string) => {
    if (name === 'userHome') return ide.home;
    if (name === 'pathSeparator' || name === '/') return sep;
    if (name === 'workspaceFolder' || name === 'workspaceFolderBasename') {
      if (!ide.workspaceFolder) throw new Error(`${field} uses ${whole}, which only the IDE knows for this file; write the absolute path instead`);
      return name === 'workspaceFolder' ? ide.workspaceFolder : basename(ide.workspaceFolder);
    }
    if (name.startsWith('env:')) throw new Error(`${field} uses ${whole}: only env and headers values take environment references (as \${NAME})`);
    throw new Error(`${field} uses ${whole}, an IDE variable Switchboard cannot resolve; write its value instead`);
  });
}

function convertMap(map: unknown, field: string): Record<string, SecretValue> | undefined {
  if (map === undefined) return undefined;
  if (!isObject(map)) throw new Error(`${field} is not an object`);
  const out: Record<string, SecretValue> = {};
  for (const [k, v] of Object.entries(map)) out[k] = convertValue(v, `${field}.${k}`);
  return out;
}

export function importEntry(original: string, entry: unknown, ide: IdeContext): Imported {
  const name = NAME.test(original) ? original : safeName(original);
  if (!isObject(entry)) return { ok: false, name: original, reason: 'the entry is not an object' };
  try {
    const def: Record<string, unknown> = { name };
    if (typeof entry.description === 'string') def.description = entry.description;
    if (typeof entry.command === 'string' || Array.isArray(entry.command)) {
      def.type = 'stdio';
      def.command = Array.isArray(entry.command)
        ? (entry.command as unknown[]).map((c, i): unknown => (typeof c === 'string' ? resolveIdeVariables(c, `command[${i}]`, ide) : c))
        : resolveIdeVariables(entry.command, 'command', ide);
      if (Array.isArray(entry.args))
        def.args = (entry.args as unknown[]).map((a, i): unknown => (typeof a === 'string' ? resolveIdeVariables(a, `args[${i}]`, ide) : a));
      else if (entry.args !== undefined) def.args = entry.args;
      const env = convertMap(entry.env, 'env');
      if (env && Object.keys(env).length) def.env = env;
      def.autoStart = true;
      if (entry.cwd !== undefined) throw new Error("'cwd' is not supported: stdio servers run in the configuration directory; use absolute paths");
    } else if (typeof entry.url === 'string') {
      def.type = entry.type === 'sse' ? 'sse' : 'streamable-http';
      def.url = resolveIdeVariables(entry.url, 'url', ide);
      const headers = convertMap(entry.headers, 'headers');
      if (headers && Object.keys(headers).length) def.headers = headers;
    } else {
      return { ok: false, name: original, reason: "it has neither 'command' (a local server) nor 'url' (a remote one)" };
    }
    if (entry.disabled === true) def.suspended = true;
    return { ok: true, name, original, definition: def };
  } catch (err) {
    return { ok: false, name: original, reason: (err as Error).message };
  }
}
