/** Where the package lives, so schemas/ and examples/ are found from src and from dist alike. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'schemas'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('switchboard: cannot find the package root (package.json beside schemas/)');
    dir = parent;
  }
  root = dir;
  return dir;
}

/** The package's version, as clients see it in serverInfo and `switchboard --version`. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
