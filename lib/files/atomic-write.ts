/**
 * Write a file so readers see the old content or the new, never half of either: a temp
 * file beside it, then rename. `durable` (the default) also fsyncs before the rename, for
 * files whose loss in a power cut matters (definitions, config.yaml).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP_SUFFIX = '.tmp';
const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/**
 * A crash between write and rename leaves a temp file and loses nothing (the old file is
 * intact). Startup removes such leftovers; returns the paths it removed.
 */
export async function removeLeftoverTempFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const leftovers = names.filter((n) => TEMP_NAME.test(n)).map((n) => join(dir, n));
  await Promise.all(leftovers.map((p) => rm(p, { force: true })));
  return leftovers;
}

/**
 * Files Switchboard writes that may hold what only its user should read (definitions with
 * literal credentials, execution records with tool arguments and results, the event log):
 * owner-only, and their directories too when Switchboard makes them.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

export async function writeFileAtomic(path: string, content: string | Uint8Array, options: { durable?: boolean; mode?: number } = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, ...(options.mode !== undefined ? { mode: PRIVATE_DIR } : {}) });
  // A dot-prefixed temp name: the watcher ignores dotfiles, so it never sees a half file.
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  // `mode` (0o600 for credentials) applies from creation: the content is never readable by others.
  const fh = await open(tmp, 'w', options.mode ?? 0o666);
  try {
    await (typeof content === 'string' ? fh.writeFile(content, 'utf8') : fh.writeFile(content));
    if (options.durable !== false) await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
