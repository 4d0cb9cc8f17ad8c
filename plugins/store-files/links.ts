/**
 * Linked files in the watched folders. A link whose target stays inside the configuration
 * directory (or inside its kind's folder, wherever that folder really is) is the operator's
 * layout and is followed: Kubernetes ConfigMap and Secret volumes are made of such links
 * (`github.yaml -> ..data/github.yaml`, `..data -> ..2026_11_25_10_00_00.123/`, swapped
 * atomically on update). A link that leaves them reads a file the operator never put there
 * (finding 8: `zz.yaml -> /etc/shadow` printed its lines into events, the log and check), so
 * it is skipped unless the store's option `followLinksOutside` says otherwise.
 *
 * The verdict names the real path, and that path is what the store reads: a link swapped
 * between the check and the read cannot point the read elsewhere.
 */
import { lstat, realpath } from 'node:fs/promises';
import { sep } from 'node:path';

export type LinkVerdict = { kind: 'read'; path: string } | { kind: 'outside'; target: string };

/** The real paths of the directories a link may point into (a missing one is left out). */
export async function realDirectories(dirs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    const real = await realpath(dir).catch(() => undefined);
    if (real !== undefined) out.push(real);
  }
  return out;
}

function within(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * Where to read `file` from. Rejects as reading would (ENOENT for a dangling link) when the
 * target does not exist.
 */
export async function linkVerdict(file: string, inside: readonly string[], followOutside: boolean): Promise<LinkVerdict> {
  if (!(await lstat(file)).isSymbolicLink()) return { kind: 'read', path: file };
  const target = await realpath(file);
  if (followOutside || inside.some((dir) => within(target, dir))) return { kind: 'read', path: target };
  return { kind: 'outside', target };
}

/** The warning for a skipped link: it names the link, never what the target holds. */
export function outsideLinkWarning(link: string, dir: string): string {
  return `${link} is a link to a file outside ${dir}: not read (set the store-files option followLinksOutside: true to read such links)`;
}
