/**
 * `switchboard import FILE [--config-path DIR] [--dry-run] [--force]`: the MCP servers of a
 * client's configuration file, one validated mcpservers/<name>.yaml each. Never overwrites
 * a file, nor adds a server that duplicates one already there, without --force; moves
 * literal credentials to secrets.env; says what it wrote and why it skipped what it skipped.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { movedNote, startWriting, writeDefinition } from '../definitions/write-definition.js';
import { importEntry, serverMap, type IdeContext } from './client-config.js';
import { stripJsonc } from './jsonc.js';

export interface ImportOptions {
  file: string;
  configPath: string;
  dryRun: boolean;
  force: boolean;
  out: (line: string) => void;
}

/** Returns the exit status: 0 when every entry was written (or already there), 1 otherwise. */
export async function importServers(o: ImportOptions): Promise<number> {
  let doc: unknown;
  try {
    doc = JSON.parse(stripJsonc(await readFile(o.file, 'utf8')));
  } catch (err) {
    o.out(`switchboard import: cannot read ${o.file}: ${(err as Error).message}`);
    return 1;
  }
  const servers = serverMap(doc);
  if (!servers || Object.keys(servers).length === 0) {
    o.out(`switchboard import: ${o.file} has no MCP servers ('mcpServers', 'servers' or 'mcp.servers')`);
    return 1;
  }
  // `.vscode/mcp.json` and `.cursor/mcp.json` belong to the workspace folder above them.
  const folder = dirname(resolve(o.file));
  const ide: IdeContext = { home: homedir(), ...(['.vscode', '.cursor'].includes(basename(folder)) ? { workspaceFolder: dirname(folder) } : {}) };
  let status = 0;
  const w = await startWriting({ configPath: o.configPath, force: o.force, dryRun: o.dryRun, command: 'switchboard import' });
  for (const [original, entry] of Object.entries(servers)) {
    const imported = importEntry(original, entry, ide);
    if (!imported.ok) {
      o.out(`skipped ${original}: ${imported.reason}`);
      status = 1;
      continue;
    }
    const renamed = imported.name !== original ? ` (named '${imported.name}': '${original}' is not a valid server name)` : '';
    const r = await writeDefinition(w, imported.name, imported.definition);
    if (r.status === 'invalid' || r.status === 'taken') {
      o.out(`skipped ${original}: ${r.reason}`);
      // Already there (by name or by what it runs) is not a failure of the import.
      if (r.status === 'invalid') status = 1;
      continue;
    }
    if (r.status === 'would write')
      o.out(`would write ${r.file}${renamed} (${r.what})${movedNote(w, r.moved, true)}:\n${r.text.trimEnd().replace(/^/gm, '  ')}`);
    else o.out(`wrote ${r.file}${renamed} (${r.what})${movedNote(w, r.moved, false)}`);
  }
  return status;
}
