/**
 * What `switchboard connect` knows of each client: where its MCP configuration lives on each
 * OS, the key of its server map (the same keys `switchboard import` reads), and the entry that
 * points it at Switchboard. Streamable HTTP where the client's file can say so; Claude
 * Desktop's file describes only stdio servers, so it runs `switchboard agent`, the stdio
 * bridge, by absolute paths: an app started from the desktop does not have the shell's PATH.
 */
import { posix, win32 } from 'node:path';

export const CLIENT_NAMES = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

export function isClientName(name: string): name is ClientName {
  return (CLIENT_NAMES as readonly string[]).includes(name);
}

/** Where the files are looked for: the real process's values, or a test's. */
export interface Host {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** How to start `switchboard agent` from this installation. */
export interface AgentCommand {
  node: string;
  cli: string;
}

export interface ClientTarget {
  title: string;
  mapKey: 'mcpServers' | 'servers';
  /** The file may hold comments and trailing commas (VS Code's JSONC). */
  jsonc: boolean;
  file(host: Host): string;
  entry(endpoint: string, agent: AgentCommand): Record<string, unknown>;
  /** What the user does after the file is written. */
  then: string;
}

/** The per-user application-data folder: %APPDATA%, ~/Library/Application Support, $XDG_CONFIG_HOME. */
function appData(host: Host, ...parts: string[]): string {
  if (host.platform === 'win32') return win32.join(host.env.APPDATA ?? win32.join(host.home, 'AppData', 'Roaming'), ...parts);
  if (host.platform === 'darwin') return posix.join(host.home, 'Library', 'Application Support', ...parts);
  return posix.join(host.env.XDG_CONFIG_HOME || posix.join(host.home, '.config'), ...parts);
}

function inHome(host: Host, ...parts: string[]): string {
  return (host.platform === 'win32' ? win32 : posix).join(host.home, ...parts);
}

export const CLIENTS: Record<ClientName, ClientTarget> = {
  'claude-desktop': {
    title: 'Claude Desktop',
    mapKey: 'mcpServers',
    jsonc: false,
    file: (host) => appData(host, 'Claude', 'claude_desktop_config.json'),
    entry: (endpoint, agent) => ({ command: agent.node, args: [agent.cli, 'agent', '--endpoint', endpoint] }),
    then: 'Quit and reopen Claude Desktop to load it.',
  },
  'claude-code': {
    title: 'Claude Code',
    mapKey: 'mcpServers',
    jsonc: false,
    // User scope: every project sees it (what `claude mcp add --scope user` writes).
    file: (host) => inHome(host, '.claude.json'),
    entry: (endpoint) => ({ type: 'http', url: endpoint }),
    then: "Start a new Claude Code session; 'claude mcp list' shows it.",
  },
  cursor: {
    title: 'Cursor',
    mapKey: 'mcpServers',
    jsonc: false,
    file: (host) => inHome(host, '.cursor', 'mcp.json'),
    entry: (endpoint) => ({ url: endpoint }),
    then: 'Cursor picks it up in Settings > MCP (reload the window if it does not).',
  },
  vscode: {
    title: 'VS Code',
    mapKey: 'servers',
    jsonc: true,
    file: (host) => appData(host, 'Code', 'User', 'mcp.json'),
    entry: (endpoint) => ({ type: 'http', url: endpoint }),
    then: "VS Code offers to start it in the Chat view ('MCP: List Servers' shows it).",
  },
};
