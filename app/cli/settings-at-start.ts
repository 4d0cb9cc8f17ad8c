/**
 * What config.yaml said, at startup, about the keys a running Switchboard applies only when it
 * restarts (schemas/: `x-applies: restart`): `serve` writes it to the configuration directory's
 * state/ (owner-only), and `switchboard check` compares config.yaml with it while that process
 * runs, so an edit that waits for a restart is named before anyone wonders why it did nothing.
 * Values are fingerprints (booleans and numbers as they are, the rest hashed): the file holds
 * no URL or secret reference.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readSettings } from '../../kernel/config/pipeline.js';
import { restartFingerprints } from '../../kernel/config/restart-keys.js';
import type { Settings } from '../../kernel/config/settings.js';
import { PRIVATE_FILE, writeFileAtomic } from '../../lib/files/atomic-write.js';

const FILE = join('state', 'settings-at-start.json');

interface AtStart {
  pid: number;
  startedAt: string;
  keys: Record<string, boolean | number | null | string>;
}

/** Written after startup, off the ready path; a directory that cannot be written (a read-only mount) just has no such file. */
export async function recordSettingsAtStart(configPath: string): Promise<void> {
  const { settings } = await readSettings(configPath);
  const record: AtStart = { pid: process.pid, startedAt: new Date().toISOString(), keys: restartFingerprints(settings) };
  await writeFileAtomic(join(configPath, FILE), `${JSON.stringify(record, null, 2)}\n`, { durable: false, mode: PRIVATE_FILE });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The restart-only keys config.yaml (as `settings`) now sets otherwise than when the
 * Switchboard running from `configPath` started, with its pid; undefined when none runs.
 */
export async function changedSinceStart(configPath: string, settings: Settings): Promise<{ pid: number; keys: string[] } | undefined> {
  let record: AtStart;
  try {
    record = JSON.parse(await readFile(join(configPath, FILE), 'utf8')) as AtStart;
  } catch {
    return undefined;
  }
  if (typeof record.pid !== 'number' || record.pid === process.pid || !alive(record.pid)) return undefined;
  const now = restartFingerprints(settings);
  const keys = Object.keys(now).filter((k) => k in record.keys && record.keys[k] !== now[k]);
  return { pid: record.pid, keys };
}
