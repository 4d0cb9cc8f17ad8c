/**
 * HTTPS for the listener (`aggregator.tls`). The files are read and paired up front, as a
 * settings check, so a missing, unreadable or mismatched certificate stops startup (and
 * `switchboard check`) with the file named, instead of failing at the first connection.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Settings } from '../../kernel/config/settings.js';
import type { ParsedYaml } from '../../kernel/config/yaml-document.js';
import type { ConfigProblem } from '../../kernel/errors.js';

export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
}

export type TlsLoad = { ok: true; material: TlsMaterial } | { ok: false; problems: ConfigProblem[] };

export function loadTls(tls: NonNullable<Settings['aggregator']['tls']>, configPath: string, where: Pick<ParsedYaml, 'file' | 'locate'>): TlsLoad {
  const problems: ConfigProblem[] = [];
  const read = (field: 'certFile' | 'keyFile'): Buffer | undefined => {
    const path = isAbsolute(tls[field]) ? tls[field] : resolve(configPath, tls[field]);
    try {
      return readFileSync(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      problems.push({
        file: where.file,
        ...where.locate(['aggregator', 'tls', field]),
        field: `aggregator.tls.${field}`,
        message: `cannot read ${path} (${code}); refusing to serve without TLS`,
      });
      return undefined;
    }
  };
  const cert = read('certFile');
  const key = read('keyFile');
  if (!cert || !key) return { ok: false, problems };
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    problems.push({
      file: where.file,
      ...where.locate(['aggregator', 'tls']),
      field: 'aggregator.tls',
      message: `certificate and key are not usable together: ${(err as Error).message}`,
    });
    return { ok: false, problems };
  }
  return { ok: true, material: { cert, key } };
}
