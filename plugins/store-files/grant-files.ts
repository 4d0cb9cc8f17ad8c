/**
 * The GrantStore contract on disk: one file per record under `<config>/state/grants/<kind>/`,
 * written atomically with mode 0600, read back whole at start-up. Records arrive sealed
 * (hashed ids, encrypted values), so these files hold nothing usable without the key.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredRecord } from '../../kernel/contracts/auth.js';
import { WriteThroughGrantStore, type GrantBacking } from '../../lib/grants/write-through-grant-store.js';
import { removeLeftoverTempFiles, writeFileAtomic } from '../../lib/files/atomic-write.js';

const SAFE = /^[A-Za-z0-9_-]{1,128}$/;

/** A file name for any id or kind: itself when safe, else its hash. */
function fileName(part: string): string {
  return SAFE.test(part) ? part : createHash('sha256').update(part).digest('base64url');
}

function isRecord(value: unknown): value is StoredRecord & { kind: string; id: string } {
  const r = value as Record<string, unknown> | null;
  return (
    !!r &&
    typeof r.value === 'string' &&
    typeof r.kind === 'string' &&
    typeof r.id === 'string' &&
    (r.expiresAt === undefined || typeof r.expiresAt === 'number')
  );
}

/** Records as files: one per record, 0600, written atomically. */
class GrantFiles implements GrantBacking {
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void,
  ) {}

  private path(kind: string, id: string): string {
    return join(this.dir, fileName(kind), `${fileName(id)}.json`);
  }

  /** Reads every record; an unreadable file is reported and left alone, never deleted. */
  async loadAll(): Promise<{ kind: string; id: string; record: StoredRecord }[]> {
    const out: { kind: string; id: string; record: StoredRecord }[] = [];
    let kinds: string[] = [];
    try {
      kinds = await readdir(this.dir);
    } catch {
      return out;
    }
    for (const kindDir of kinds) {
      const dir = join(this.dir, kindDir);
      await removeLeftoverTempFiles(dir);
      let names: string[];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
      } catch {
        continue;
      }
      for (const name of names) {
        const file = join(dir, name);
        try {
          const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
          if (!isRecord(parsed)) throw new Error('not a stored record');
          const { kind, id, ...record } = parsed;
          out.push({ kind, id, record });
        } catch (err) {
          this.warn(`grant store: skipped ${file}: ${(err as Error).message}`);
        }
      }
    }
    return out;
  }

  write(kind: string, id: string, record: StoredRecord): Promise<void> {
    return writeFileAtomic(this.path(kind, id), JSON.stringify({ kind, id, ...record }), { mode: 0o600 });
  }

  erase(kind: string, id: string): Promise<void> {
    return rm(this.path(kind, id), { force: true });
  }
}

export class FileGrantStore extends WriteThroughGrantStore {
  constructor(dir: string, warn: (message: string) => void) {
    super(new GrantFiles(dir, warn));
  }
}
