/**
 * The browser of the browser tests: Debian's chromium (never a downloaded one), at
 * CHROMIUM_PATH or /usr/bin/chromium. `.ci/run` installs it the way it installs redis-server
 * and HAProxy. A missing browser fails the browser tests, saying what to install: a suite
 * that passes without having looked at the pages would claim what it never checked. Someone
 * who knows they have no browser opts out with SWITCHBOARD_SKIP_BROWSER=1, and the suite's
 * summary names the skip.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The browser's path; skips the suite (opt-out) or throws when there is none. */
export function chromiumOrFail(suite: Mocha.Context): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const why = `no chromium at ${CHROMIUM} (Debian package chromium; CHROMIUM_PATH names another binary)`;
  if (process.env.SWITCHBOARD_SKIP_BROWSER === '1') {
    console.warn(`skipped: the browser tests, as SWITCHBOARD_SKIP_BROWSER=1 asks: ${why}`);
    suite.skip();
  }
  throw new Error(`${why}: install it (apt-get install chromium), or set SWITCHBOARD_SKIP_BROWSER=1 to skip the browser tests`);
}
