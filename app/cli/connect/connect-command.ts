/**
 * `switchboard connect CLIENT [--print] [--config FILE] [--endpoint URL] [--force]`: the
 * mirror of `switchboard import`. Adds a `switchboard` entry to the client's MCP file and
 * keeps everything else in it: the file is parsed, the entry set, the whole written back
 * atomically in the file's own indentation and mode, after a backup of the original beside it.
 * An existing, different `switchboard` entry is kept unless --force; a JSONC file with
 * comments is left alone (rewriting it would drop them) and the snippet is shown instead.
 */
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { SwitchboardError } from '../../../kernel/errors.js';
import { writeFileAtomic } from '../../../lib/files/atomic-write.js';
import { createFileExclusive } from '../../../lib/files/create-file.js';
import { stripJsonc } from '../import/jsonc.js';
import { CLIENT_NAMES, CLIENTS, isClientName, type AgentCommand, type ClientTarget, type Host } from './clients.js';

export const ENTRY_NAME = 'switchboard';
/** ~/.claude.json grows with every project Claude Code has seen; a few MiB is normal, 16 is not. */
export const MAX_CLIENT_FILE_BYTES = 16 * 1024 * 1024;
const MAX_ENDPOINT_LENGTH = 2048;

export class ConnectError extends SwitchboardError {
  constructor(
    code: 'INVALID_ARGUMENTS' | 'CONFLICT' | 'VALIDATION_FAILED' | 'TOO_LARGE',
    message: string,
    readonly snippet?: string,
  ) {
    super(code, message);
  }
}

export interface ConnectOptions {
  client: string;
  endpoint: string;
  /** --config FILE; else the client's file on this OS. */
  file?: string;
  print: boolean;
  force: boolean;
  host: Host;
  agent: AgentCommand;
  out: (line: string) => void;
  /** Refusals, on stderr: --print's output stays pipeable. */
  err: (line: string) => void;
}

/** http(s) only, no credentials (a client file is no place for them), no control characters. */
export function checkEndpoint(endpoint: string): URL {
  let url: URL;
  if (endpoint.length > MAX_ENDPOINT_LENGTH) throw new ConnectError('INVALID_ARGUMENTS', `--endpoint is longer than ${MAX_ENDPOINT_LENGTH} characters`);
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConnectError('INVALID_ARGUMENTS', `--endpoint '${endpoint}' is not a URL (e.g. http://127.0.0.1:8090/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConnectError('INVALID_ARGUMENTS', `--endpoint must be an http or https URL, got ${url.protocol}`);
  if (url.username || url.password)
    throw new ConnectError('INVALID_ARGUMENTS', '--endpoint must not carry a user name or password: the client signs in with OAuth instead');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(endpoint)) throw new ConnectError('INVALID_ARGUMENTS', '--endpoint contains white space or control characters');
  return url;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function snippetOf(target: ClientTarget, entry: Record<string, unknown>): string {
  return JSON.stringify({ [target.mapKey]: { [ENTRY_NAME]: entry } }, null, 2);
}

interface Existing {
  text: string;
  mode: number;
  mtimeMs: number;
  size: number;
}

/** The client's file, or undefined when it does not exist yet; a symlink is followed to what it names. */
async function readClientFile(file: string): Promise<{ path: string; existing: Existing | undefined }> {
  const link = await lstat(file).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  });
  if (!link) return { path: file, existing: undefined };
  // A dotfiles repository often links these files: write the file the link names, keep the link.
  const path = link.isSymbolicLink() ? await realpath(file) : file;
  const info = await stat(path);
  if (!info.isFile()) throw new ConnectError('VALIDATION_FAILED', `${path} is not a regular file`);
  if (info.size > MAX_CLIENT_FILE_BYTES)
    throw new ConnectError('TOO_LARGE', `${path} is larger than ${MAX_CLIENT_FILE_BYTES / 1024 / 1024} MiB; not reading it`);
  return { path, existing: { text: await readFile(path, 'utf8'), mode: info.mode & 0o777, mtimeMs: info.mtimeMs, size: info.size } };
}

function parseClientFile(path: string, text: string, target: ClientTarget, snippet: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    if (target.jsonc) {
      let relaxed = false;
      try {
        JSON.parse(stripJsonc(text));
        relaxed = true;
      } catch {
        // Not JSONC either: the plain parser's message below says where.
      }
      if (relaxed)
        throw new ConnectError('VALIDATION_FAILED', `${path} has comments or trailing commas, which rewriting it would lose; add the entry by hand`, snippet);
    }
    throw new ConnectError('VALIDATION_FAILED', `${path} is not valid JSON: ${(err as Error).message}`, snippet);
  }
  if (!isObject(doc)) throw new ConnectError('VALIDATION_FAILED', `${path} does not hold a JSON object`, snippet);
  return doc;
}

/** Two spaces unless the file indents its first nested line otherwise (a tab, four spaces). */
function indentOf(text: string): string {
  return /^\{\s*\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
}

function backupName(path: string, now: Date): string {
  return `${path}.${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.bak`;
}

/** Returns the exit status: 0 written or already there, 1 refused, 2 wrong arguments. */
export async function connectClient(o: ConnectOptions): Promise<number> {
  if (!isClientName(o.client)) {
    o.err(`switchboard connect: unknown client '${o.client}'; one of ${CLIENT_NAMES.join(', ')}`);
    return 2;
  }
  const target = CLIENTS[o.client];
  try {
    checkEndpoint(o.endpoint);
    const entry = target.entry(o.endpoint, o.agent);
    const snippet = snippetOf(target, entry);
    if (o.print) {
      o.out(snippet);
      return 0;
    }
    const { path, existing } = await readClientFile(o.file ?? target.file(o.host));
    const doc = parseClientFile(path, existing?.text ?? '', target, snippet);
    const map = doc[target.mapKey] ?? {};
    if (!isObject(map)) throw new ConnectError('VALIDATION_FAILED', `${path}: '${target.mapKey}' is not an object`, snippet);
    const current = map[ENTRY_NAME];
    if (current !== undefined && sameJson(current, entry)) {
      o.out(`${path} already uses Switchboard at ${o.endpoint}; nothing to change`);
      return 0;
    }
    if (current !== undefined && !o.force) {
      throw new ConnectError('CONFLICT', `${path} already has a '${ENTRY_NAME}' entry: ${JSON.stringify(current)}; --force replaces it`);
    }
    doc[target.mapKey] = { ...map, [ENTRY_NAME]: entry };
    const text = `${JSON.stringify(doc, null, existing ? indentOf(existing.text) : 2)}\n`;
    let backup = '';
    if (existing) {
      const name = backupName(path, new Date());
      if ((await createFileExclusive(name, existing.text, existing.mode)) === 'exists')
        throw new ConnectError('CONFLICT', `${name} exists; run again in a second`);
      backup = ` (the previous version is in ${name})`;
      // The client may have rewritten its file while we read it (Claude Code does often): lose nothing.
      const now = await stat(path);
      if (now.mtimeMs !== existing.mtimeMs || now.size !== existing.size)
        throw new ConnectError('CONFLICT', `${path} changed while connect read it; nothing written, run it again`);
    }
    await writeFileAtomic(path, text, { mode: existing?.mode ?? 0o600 });
    const how = 'command' in entry ? "over stdio through 'switchboard agent'" : 'over streamable HTTP';
    o.out(`wrote ${path}${backup}: ${target.title} reaches Switchboard at ${o.endpoint} ${how}`);
    o.out(target.then);
    return 0;
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    o.err(`switchboard connect: ${err.message}`);
    if (err.snippet) o.err(`The entry to add:\n${err.snippet}`);
    return err.code === 'INVALID_ARGUMENTS' ? 2 : 1;
  }
}
