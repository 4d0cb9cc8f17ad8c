/**
 * A watched file that a change left empty, or removed, is not believed at once.
 *
 * Editors save in one of two ways, and each passes through a state that is not the file. A
 * save in place (nano, VS Code, a shell's `>`, scp, `kubectl cp`) truncates the file and then
 * writes it: in between it is empty. A save by rename (vim and Emacs by default) moves the file
 * away and then writes a new one: in between it is gone. Both steps are usually microseconds
 * apart, but a writer descheduled on a loaded machine, or fed by a network, leaves the gap open
 * for longer than a watcher's debounce, and a reader in between applies it: for config.yaml an
 * empty (valid) document that puts every setting back to its default, for a policy file a set
 * without its forbids, for a definition a server stopped and started again.
 *
 * So a file found empty or gone after a change waits a grace period first. Its next event (the
 * rest of the save) ends the wait as any change does; a file still empty or gone when the grace
 * is over was emptied or removed on purpose, and that is applied.
 */
import { stat } from 'node:fs/promises';

/** Long enough for a stalled writer, short enough that emptying or removing a file on purpose still lands soon. */
export const SAVE_GRACE_MS = 1_000;

/** What a file that is not yet believed looks like. */
export type HalfSaved = 'empty' | 'gone';

async function halfSaved(path: string): Promise<HalfSaved | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() && info.size === 0 ? 'empty' : undefined;
  } catch (err) {
    // Unreadable for another reason: the reader's own error handling says what happened.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
}

export class SaveGrace {
  /** Files waiting, with when their wait began. */
  private readonly since = new Map<string, number>();

  constructor(
    private readonly graceMs: number = SAVE_GRACE_MS,
    /** A file's wait begins (said once per wait). */
    private readonly onHold: (path: string, how: HalfSaved, graceMs: number) => void = () => {},
  ) {}

  /**
   * How long to wait before reading `paths` as they are now: 0 when none of them is an empty
   * or missing file still in its grace. The caller reads them then, or asks again after the time given.
   */
  async wait(paths: Iterable<string>): Promise<number> {
    if (this.graceMs === 0) return 0;
    const now = Date.now();
    let longest = 0;
    for (const path of paths) {
      const how = await halfSaved(path);
      if (how === undefined) {
        this.since.delete(path);
        continue;
      }
      const began = this.since.get(path);
      if (began === undefined) {
        this.since.set(path, now);
        this.onHold(path, how, this.graceMs);
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
export const SAVE_GRACE_OPTION = {
  type: 'integer',
  minimum: 0,
  maximum: 60_000,
  default: SAVE_GRACE_MS,
  description:
    'How long a file a change left empty, or removed, waits before that is applied: a save in place truncates the file before writing it, a save by rename (vim, Emacs) moves it away before writing the new one, and a read in between would apply the gap. 0: at once.',
} as const;

/** The log line for a file held back. */
export function halfSavedMessage(path: string, how: HalfSaved, graceMs: number): string {
  return how === 'empty'
    ? `${path} is empty after a change: waiting up to ${graceMs} ms for the rest of the save before applying it (a save in place empties the file first)`
    : `${path} is gone after a change: waiting up to ${graceMs} ms for it to come back before applying that (a save by rename moves the file away first)`;
}
