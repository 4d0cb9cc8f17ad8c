/**
 * The browser of the browser tests: Debian's chromium (never a downloaded one), at
 * CHROMIUM_PATH or /usr/bin/chromium. `.ci/run` installs it the way it installs redis-server
 * and HAProxy. A missing browser fails the browser tests, saying what to install: a suite
 * that passes without having looked at the pages would claim what it never checked. Someone
 * who knows they have no browser opts out with SWITCHBOARD_SKIP_BROWSER=1, and the suite's
 * summary names the skip.
 */
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';

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

/** Chromium's word when its compositor gave no frame to capture in time (seen on a busy machine). */
const NO_FRAME = /Unable to capture screenshot/;

/**
 * A full-page screenshot, taken again (up to three times in all) when Chromium had no frame
 * to capture: the page is there, the machine was busy drawing it. The next animation frame is
 * awaited before each retry. Any other failure, or a third miss, fails the test.
 */
export async function screenshot(page: Page, path: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path, fullPage: true });
      return;
    } catch (err) {
      if (attempt >= 3 || !NO_FRAME.test(String(err))) throw err;
      // A string: the page's requestAnimationFrame is not in this project's (Node) typings.
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(true)))');
    }
  }
}
