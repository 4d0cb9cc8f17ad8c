/**
 * `switchboard check` run in the test's own process: the function the command runs
 * (app/cli/check.ts), its output captured, without the 2 s of CPU a `check` process pays to
 * load Switchboard. For a file that checks many configurations against one rule; keep one
 * `switchboard check` process in the file to prove that the command reaches this function.
 */
import { check } from '../../app/cli/check.js';

export interface Checked {
  /** The exit status the command would have. */
  status: number;
  stdout: string;
  stderr: string;
}

export async function checkInProcess(configPath: string): Promise<Checked> {
  let stdout = '';
  let stderr = '';
  const status = await check(configPath, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { status, stdout, stderr };
}
