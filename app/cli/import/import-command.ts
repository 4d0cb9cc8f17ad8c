/**
 * `switchboard import FILE [--config-path DIR] [--dry-run] [--force]`: the MCP servers of a
 * client's configuration file, one validated mcpservers/<name>.yaml each. Never overwrites
 * a file without --force; says what it wrote and why it skipped what it skipped.
 */
import { access, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { validateDocument } from '../../../kernel/config/validate.js';
import { PRIVATE_FILE, writeFileAtomic } from '../../../lib/files/atomic-write.js';
import { importEntry, serverMap, type IdeContext } from './client-config.js';
import { stripJsonc } from './jsonc.js';

export interface ImportOptions {
  file: string;
  configPath: string;
  dryRun: boolean;
  force: boolean;
  out: (line: string) => void;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

const ARGUMENTS = { file: 'import', locate: () => ({ line: 0, column: 0 }) };

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
  for (const [original, entry] of Object.entries(servers)) {
    const imported = importEntry(original, entry, ide);
    if (!imported.ok) {
      o.out(`skipped ${original}: ${imported.reason}`);
      status = 1;
      continue;
    }
    const problems = validateDocument('mcpserver', structuredClone(imported.definition), ARGUMENTS);
    if (problems.length) {
      o.out(`skipped ${original}: ${problems.map((p) => `${p.field || '(definition)'}: ${p.message}`).join('; ')}`);
      status = 1;
      continue;
    }
    const file = join(o.configPath, 'mcpservers', `${imported.name}.yaml`);
    const renamed = imported.name !== original ? ` (named '${imported.name}': '${original}' is not a valid server name)` : '';
    const what =
      imported.definition.type === 'stdio'
        ? `stdio: ${[imported.definition.command, ...((imported.definition.args as string[] | undefined) ?? [])].flat().join(' ')}`
        : `${String(imported.definition.type)}: ${String(imported.definition.url)}`;
    if ((await exists(file)) && !o.force) {
      o.out(`skipped ${original}: ${file} exists (use --force to overwrite)`);
      continue;
    }
    const text = stringify(imported.definition, { lineWidth: 0 });
    if (o.dryRun) {
      o.out(`would write ${file}${renamed} (${what}):\n${text.trimEnd().replace(/^/gm, '  ')}`);
      continue;
    }
    await writeFileAtomic(file, text, { mode: PRIVATE_FILE });
    o.out(`wrote ${file}${renamed} (${what})`);
  }
  return status;
}
