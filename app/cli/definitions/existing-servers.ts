/**
 * The servers already defined in a configuration directory, as `import` and `add` compare
 * against them: by name, and by what they run (a duplicate makes every tool appear twice).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface ExistingServer {
  name: string;
  file: string;
  /** serverIdentity of the definition; undefined when it names nothing to run. */
  identity: string | undefined;
}

function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.map(String) : [];
}

/**
 * What a definition runs or reaches: the command line of a local server, the URL of a remote
 * one (scheme and host lower-cased, no trailing slash), so that `https://X/mcp/` and
 * `https://x/mcp` are one server. Two definitions with the same identity serve the same tools.
 */
export function serverIdentity(def: Record<string, unknown>): string | undefined {
  if (typeof def.url === 'string') {
    try {
      const u = new URL(def.url);
      return `url ${u.href.replace(/\/+$/, '')}`;
    } catch {
      return `url ${def.url}`;
    }
  }
  const line = [...strings(def.command), ...strings(def.args)];
  return line.length ? `command ${JSON.stringify(line)}` : undefined;
}

/** How a person recognises the identity: the command line or the URL. */
export function describeIdentity(def: Record<string, unknown>): string {
  if (typeof def.url === 'string') return `${typeof def.type === 'string' ? def.type : 'remote'}: ${def.url}`;
  return `stdio: ${[...strings(def.command), ...strings(def.args)].join(' ')}`;
}

/** What the duplicate shares, as a message says it: `command line 'npx -y x'`, `URL https://...`. */
export function sharedPart(def: Record<string, unknown>): string {
  if (typeof def.url === 'string') return `URL ${def.url}`;
  return `command line '${[...strings(def.command), ...strings(def.args)].join(' ')}'`;
}

/** Every mcpservers/*.yaml that parses; one that does not is check's and serve's to report, not ours. */
export async function existingServers(configPath: string): Promise<ExistingServer[]> {
  const dir = join(configPath, 'mcpservers');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: ExistingServer[] = [];
  for (const n of names.filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('.')).sort()) {
    const file = join(dir, n);
    try {
      const doc: unknown = parse(await readFile(file, 'utf8'));
      if (typeof doc !== 'object' || doc === null) continue;
      const def = doc as Record<string, unknown>;
      out.push({ name: typeof def.name === 'string' ? def.name : n.replace(/\.ya?ml$/, ''), file, identity: serverIdentity(def) });
    } catch {
      continue;
    }
  }
  return out;
}
