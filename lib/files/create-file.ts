/**
 * Create a file that must not replace one already there (what `switchboard init` writes into
 * a directory the user may have filled): written in full to a temp file, then hard-linked to
 * its name, which fails when the name exists. A reader never sees half a file, and a file
 * created by someone else between a check and the write is never clobbered.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_DIR } from './atomic-write.js';

export type Created = 'created' | 'exists';

export async function createFileExclusive(path: string, content: string, mode: number): Promise<Created> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  // Dot-prefixed like writeFileAtomic's: the config watcher ignores dotfiles.
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', mode);
  try {
    try {
      await fh.writeFile(content, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await link(tmp, path);
    return 'created';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}
