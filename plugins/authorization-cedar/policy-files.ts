/**
 * The operator's policy files: every `*.cedar` file directly in the policies directory, in name
 * order (so policy ids and rule names are stable). A directory that does not exist holds no
 * policies. Limits keep a mistake (a log file renamed, a generated set gone wrong) from
 * exhausting memory or stalling a reload: both are refused with a problem naming them.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ConfigProblem } from '../../kernel/errors.js';
import type { PolicySource } from './compile.js';

export const MAX_POLICY_FILE_BYTES = 1024 * 1024;
export const MAX_POLICY_FILES = 1000;

export interface PolicyFiles {
  sources: PolicySource[];
  problems: ConfigProblem[];
}

function isPolicyFile(name: string): boolean {
  return name.endsWith('.cedar') && !name.startsWith('.');
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** Reads `dir`'s policy files; `configPath` is what rule names are relative to. */
export async function readPolicyFiles(dir: string, configPath: string): Promise<PolicyFiles> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isPolicyFile).sort();
  } catch (err) {
    if (errno(err) === 'ENOENT') return { sources: [], problems: [] };
    return { sources: [], problems: [{ file: dir, line: 0, column: 0, field: '', message: `cannot read the policies directory: ${(err as Error).message}` }] };
  }
  if (names.length > MAX_POLICY_FILES) {
    return {
      sources: [],
      problems: [
        {
          file: dir,
          line: 0,
          column: 0,
          field: '',
          message: `${names.length} policy files, more than the limit of ${MAX_POLICY_FILES}: merge policies into fewer files`,
        },
      ],
    };
  }
  const sources: PolicySource[] = [];
  const problems: ConfigProblem[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      const info = await stat(file);
      if (!info.isFile()) continue;
      if (info.size > MAX_POLICY_FILE_BYTES) {
        problems.push({
          file,
          line: 0,
          column: 0,
          field: '',
          message: `the file is ${info.size} bytes, more than the limit of ${MAX_POLICY_FILE_BYTES} bytes (1 MiB) per policy file: split it`,
        });
        continue;
      }
      // An editor's byte-order mark is not Cedar: without it, columns count from the first character.
      const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
      sources.push({ file, label: relative(configPath, file) || name, text, operator: true });
    } catch (err) {
      // Removed between the listing and the read: it is simply not part of the set.
      if (errno(err) === 'ENOENT') continue;
      problems.push({ file, line: 0, column: 0, field: '', message: `cannot read: ${(err as Error).message}` });
    }
  }
  return { sources, problems };
}
