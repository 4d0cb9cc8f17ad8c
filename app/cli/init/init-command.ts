/**
 * `switchboard init [--config-path DIR]`: the configuration directory a first run needs, made
 * without touching anything already there, and what to do next. `serve` does not do this by
 * itself (docs/decisions.md, "First run"): it names the directory and this command instead.
 */
import { lstat, mkdir, readlink, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../../lib/files/atomic-write.js';
import { createFileExclusive } from '../../../lib/files/create-file.js';
import { configuredEndpoint, DEFAULT_ENDPOINT } from '../endpoint.js';
import { INIT_FILES, INIT_FOLDERS } from './templates.js';

export interface InitOptions {
  configPath: string;
  out: (line: string) => void;
}

/** `--config-path DIR` when DIR is not the default, so that the printed commands work as shown. */
function configFlag(configPath: string): string {
  if (configPath === join(homedir(), '.config', 'switchboard')) return '';
  return ` --config-path ${/[\s'"$`\\]/.test(configPath) ? JSON.stringify(configPath) : configPath}`;
}

/**
 * Makes `path` a directory unless it is one, or says why it cannot: a link to nothing (the
 * target of a volume not mounted yet, a folder moved away) would otherwise end in mkdir's
 * ENOENT and a stack trace.
 */
async function ensureDirectory(path: string): Promise<string | undefined> {
  const entry = await lstat(path).catch(() => undefined);
  if (entry?.isSymbolicLink() && !(await stat(path).catch(() => undefined))) {
    const target = await readlink(path).catch(() => '?');
    return `${path} is a link to ${target}, which does not exist: create ${target} or remove the link, then run init again`;
  }
  const found = await stat(path).catch(() => undefined);
  if (found && !found.isDirectory()) return `${path} exists and is not a directory`;
  try {
    // Definitions may hold credentials: the directory is its owner's only, like the files.
    await mkdir(path, { recursive: true, mode: PRIVATE_DIR });
    return undefined;
  } catch (err) {
    return `cannot create ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
}

/** Returns the exit status: 0 when the directory holds the files (made now or before). */
export async function init(o: InitOptions): Promise<number> {
  const found = await stat(o.configPath).catch(() => undefined);
  for (const dir of [o.configPath, ...INIT_FOLDERS.map((folder) => join(o.configPath, folder))]) {
    const problem = await ensureDirectory(dir);
    if (problem === undefined) continue;
    o.out(`switchboard init: ${problem}`);
    return 1;
  }
  o.out(`${found ? 'Completed' : 'Created'} the Switchboard configuration in ${o.configPath}:`);
  for (const file of INIT_FILES) {
    const created = await createFileExclusive(join(o.configPath, file.path), file.content, PRIVATE_FILE);
    o.out(`  ${file.path.padEnd(28)} ${created === 'created' ? file.about : 'kept: it was already there'}`);
  }
  const flag = configFlag(o.configPath);
  const url = await configuredEndpoint(o.configPath);
  o.out('');
  o.out('Next:');
  o.out(`  switchboard import FILE${flag}`);
  o.out("      adds the servers a client already uses (claude_desktop_config.json, Cursor's or VS Code's mcp.json)");
  o.out(`  switchboard serve${flag}`);
  o.out(`      serves ${url}; edits in ${o.configPath} apply while it runs`);
  o.out(`  switchboard connect claude-desktop|claude-code|cursor|vscode${url === DEFAULT_ENDPOINT ? '' : ` --endpoint ${url}`}`);
  o.out('      points your IDE at it (--print shows the JSON instead of writing it)');
  o.out(`  npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list`);
  o.out('      lists its tools from outside, as any MCP client would');
  return 0;
}
