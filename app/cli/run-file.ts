/**
 * The run file: `serve` says where it really listens (`--port 0`, `--port N` and
 * SWITCHBOARD_PORT all differ from config.yaml), so that every client command of the same
 * configuration directory finds it without being told. `serve.json` in the configuration
 * directory, owner-only, written whole (temp + rename), removed when that serve exits.
 * A serve that was killed leaves it behind: a reader checks that its pid still runs.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE, writeFileAtomic } from '../../lib/files/atomic-write.js';

export const RUN_FILE = 'serve.json';

export interface RunRecord {
  /** The MCP URL, as a client on this machine reaches it. */
  url: string;
  pid: number;
  /** RFC 3339. */
  startedAt: string;
}

export type RunFileState =
  | { state: 'absent' }
  | { state: 'live'; record: RunRecord; file: string }
  | { state: 'stale'; record: RunRecord; file: string }
  | { state: 'unreadable'; file: string; reason: string };

export function runFilePath(configPath: string): string {
  return join(configPath, RUN_FILE);
}

export async function writeRunFile(configPath: string, record: RunRecord): Promise<void> {
  // Not durable: after a power cut no serve is running, and a stale file is ignored anyway.
  await writeFileAtomic(runFilePath(configPath), `${JSON.stringify(record, null, 2)}\n`, { mode: PRIVATE_FILE, durable: false });
}

/**
 * Removes the run file if it is this process's own: a second serve (another port, same
 * directory) may have written its own since, and must keep it. Synchronous, for 'exit'.
 */
export function removeOwnRunFile(configPath: string, pid: number = process.pid): void {
  const file = runFilePath(configPath);
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunRecord>;
    if (record.pid === pid) unlinkSync(file);
  } catch {
    // Absent or unreadable: nothing of ours to remove.
  }
}

/** Whether a process with this id runs (EPERM: it does, as another user). */
export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isRecord(v: unknown): v is RunRecord {
  const r = v as Partial<RunRecord> | null;
  return typeof r === 'object' && r !== null && typeof r.url === 'string' && Number.isInteger(r.pid) && typeof r.startedAt === 'string';
}

export function readRunFile(configPath: string): RunFileState {
  const file = runFilePath(configPath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    return { state: 'unreadable', file, reason: (err as Error).message };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { state: 'unreadable', file, reason: (err as Error).message };
  }
  if (!isRecord(parsed)) return { state: 'unreadable', file, reason: 'it does not hold url, pid and startedAt' };
  return { state: pidRuns(parsed.pid) ? 'live' : 'stale', record: parsed, file };
}
