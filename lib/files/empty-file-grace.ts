/**
 * A watched file that a change left empty is not believed at once.
 *
 * A save in place (nano, VS Code, a shell's `>`, scp, `kubectl cp`) truncates the file and then
 * writes it. The two are usually microseconds apart, but a writer descheduled on a loaded
 * machine, or fed by a network, leaves the file empty for longer than a watcher's debounce, and
 * a reader in between finds an empty file: for config.yaml a valid document that puts every
 * setting back to its default, for a policy file a valid set without its forbids. Either would
 * be applied until the rest of the save is read a moment later.
 *
 * So a file found empty after a change waits a grace period first. Its next write (the rest of
 * the save) ends the wait as any change does; a file still empty when the grace is over was
 * emptied on purpose and is read as it is.
 */
import { stat } from 'node:fs/promises';

/** Long enough for a stalled writer, short enough that emptying a file on purpose still lands soon. */
export const EMPTY_FILE_GRACE_MS = 1_000;

async function isEmptyFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return info.isFile() && info.size === 0;
  } catch {
    // Gone or unreadable: the reader's own error handling says what happened.
    return false;
  }
}

export class EmptyFileGrace {
  /** Empty files waiting, with when their wait began. */
  private readonly since = new Map<string, number>();

  constructor(
    private readonly graceMs: number = EMPTY_FILE_GRACE_MS,
    /** A file's wait begins (said once per wait). */
    private readonly onHold: (path: string, graceMs: number) => void = () => {},
  ) {}

  /**
   * How long to wait before reading `paths` as they are now: 0 when none of them is an empty
   * file still in its grace. The caller reads them then, or asks again after the time given.
   */
  async wait(paths: Iterable<string>): Promise<number> {
    if (this.graceMs === 0) return 0;
    const now = Date.now();
    let longest = 0;
    for (const path of paths) {
      if (!(await isEmptyFile(path))) {
        this.since.delete(path);
        continue;
      }
      const began = this.since.get(path);
      if (began === undefined) {
        this.since.set(path, now);
        this.onHold(path, this.graceMs);
        longest = Math.max(longest, this.graceMs);
        continue;
      }
      const left = began + this.graceMs - now;
      if (left > 0) longest = Math.max(longest, left);
      else this.since.delete(path);
    }
    return longest;
  }
}

/** The plugin option that sets the grace (store-files, authorization-cedar). */
export const EMPTY_FILE_GRACE_OPTION = {
  type: 'integer',
  minimum: 0,
  maximum: 60_000,
  default: EMPTY_FILE_GRACE_MS,
  description:
    'How long a file a change left empty waits before it is applied as empty: a save in place truncates the file before it writes it, and a read in between would apply an empty file. 0: at once.',
} as const;

/** The log line for a file held back. */
export function emptyFileHeldMessage(path: string, graceMs: number): string {
  return `${path} is empty after a change: waiting up to ${graceMs} ms for the rest of the save before applying it (a save in place empties the file first)`;
}
