/**
 * The browser tests never pass silently without a browser: with no chromium they fail, saying
 * what to install and how to opt out; SWITCHBOARD_SKIP_BROWSER=1 skips them and says so on a
 * `skipped:` line, which the suite's summary repeats (scripts/test-suite.js). Runs the admin
 * UI's browser test file in its own mocha, pointed at a chromium that is not there.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../support/harness.js';

const MOCHA = join(ROOT, 'node_modules/mocha/bin/mocha.js');
const BROWSER_TEST = join(ROOT, 'dist/test/e2e/admin-ui.test.js');
const NOWHERE = '/nonexistent/chromium';

function runBrowserTest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MOCHA, '--no-config', '--timeout', '60000', '--exit', BROWSER_TEST], {
      cwd: ROOT,
      env: { ...process.env, CHROMIUM_PATH: NOWHERE, SWITCHBOARD_SKIP_BROWSER: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('browser tests without a browser', function () {
  this.timeout(120_000);

  it('fail, naming the missing chromium, what to install and the opt-out', async () => {
    const { code, output } = await runBrowserTest({});
    expect(code, output).to.not.equal(0);
    expect(output).to.match(/\d+ failing/);
    expect(output).to.include(`no chromium at ${NOWHERE}`);
    expect(output).to.include('apt-get install chromium');
    expect(output).to.include('SWITCHBOARD_SKIP_BROWSER=1');
    expect(output, 'no test of the file passed').to.not.match(/[1-9]\d* passing/);
  });

  it('are skipped, and say so, when SWITCHBOARD_SKIP_BROWSER=1', async () => {
    const { code, output } = await runBrowserTest({ SWITCHBOARD_SKIP_BROWSER: '1' });
    expect(code, output).to.equal(0);
    expect(output).to.match(/\d+ pending/);
    expect(output).to.not.match(/\d+ failing/);
    expect(output).to.match(/^skipped: the browser tests, as SWITCHBOARD_SKIP_BROWSER=1 asks: no chromium at \/nonexistent\/chromium/m);
  });
});
