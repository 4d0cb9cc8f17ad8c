/**
 * MCP servers as an IDE's configuration names them (Claude Desktop, Cursor, VS Code), read the
 * way `switchboard import` reads a file. The admin UI takes a pasted snippet through it: the
 * reader lives with the CLI (app/), and a service is how a plugin reaches it.
 */

/** One entry of the snippet: a definition to create, or why it cannot be one. */
export type ImportedServer = { ok: true; name: string; original: string; definition: Record<string, unknown> } | { ok: false; name: string; reason: string };

export type ClientConfigRead = { ok: true; servers: ImportedServer[] } | { ok: false; reason: string };

export interface ClientConfigReader {
  /**
   * The servers of `text`: a whole client file (JSON with comments; `mcpServers`, `servers` or
   * `mcp.servers`), the server map alone, or one `"name": {...}` entry as copied from such a file.
   */
  read(text: string): ClientConfigRead;
}
