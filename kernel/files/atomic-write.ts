/**
 * Write a file so readers see the old content or the new, never half of either: a temp
 * file beside it, then rename. `durable` (the default) also fsyncs before the rename, for
 * files whose loss in a power cut matters (definitions, config.yaml).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, content: string, options: { durable?: boolean } = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  // A dot-prefixed temp name: the watcher ignores dotfiles, so it never sees a half file.
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(content, 'utf8');
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
