/**
 * What `switchboard init` writes: a config.yaml whose comments are the short tour of the
 * settings a first user changes, and one example server. The example is suspended so that
 * the first start needs no network (npx downloads the server the first time it runs);
 * un-suspending it is the first hot edit the user makes.
 */
export interface TemplateFile {
  /** Relative to the configuration directory. */
  path: string;
  content: string;
  /** What the file is, for the summary init prints. */
  about: string;
}

const CONFIG_YAML = `# Switchboard's settings. Every key, its default and its range: docs/config-reference.md,
# or \`switchboard reference\`. Edits apply while Switchboard runs (hot reload).
aggregator:
  # Where the MCP endpoint listens: http://127.0.0.1:8090/mcp. --host/--port or
  # SWITCHBOARD_HOST/SWITCHBOARD_PORT override these. A non-loopback host is refused unless
  # OAuth protects the endpoint (aggregator.oauth.server) or allowUnauthenticatedNetwork says
  # you accept an open endpoint (docs/security.md).
  host: 127.0.0.1
  port: 8090

  # A prefix for the core tools' names (<prefix>_core_...), to tell two Switchboards apart.
  # servicePrefix: ""

  # The admin pages (servers, tools, sessions, executions) on http://127.0.0.1:9999/.
  # admin:
  #   enabled: true

# MCP servers live one per file in mcpservers/ (see mcpservers/everything.yaml), workflows
# in workflows/. \`switchboard import FILE\` turns a Claude Desktop, Cursor or VS Code
# configuration into mcpservers/ files.
`;

const EXAMPLE_SERVER = `# An example MCP server: the protocol's reference server "everything" (echo, add,
# resources, prompts), over stdio. npx downloads it the first time it starts, so it is
# suspended: delete the 'suspended' line (or set it to false) and save, and the running
# Switchboard starts it. Relative paths in 'command' resolve against this directory.
name: everything
type: stdio
description: The MCP reference server (an example from switchboard init)
command: [npx, -y, '@modelcontextprotocol/server-everything', stdio]
autoStart: true
suspended: true
`;

export const INIT_FILES: readonly TemplateFile[] = [
  { path: 'config.yaml', content: CONFIG_YAML, about: 'the settings, commented' },
  { path: 'mcpservers/everything.yaml', content: EXAMPLE_SERVER, about: 'an example server (suspended until you enable it)' },
];

/** Made empty, so that the layout is visible and the watcher sees the folders. */
export const INIT_FOLDERS: readonly string[] = ['mcpservers', 'workflows'];
