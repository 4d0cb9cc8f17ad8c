/**
 * The sprig reference: Go's text/template with github.com/Masterminds/sprig/v3, as the
 * small Go program in test/sprig-oracle/ runs it. The program is built once per version
 * of its sources and cached under ~/.cache/switchboard-sprig-oracle/ (its modules come
 * through the Go module proxy the first time); a batch of cases goes to it on stdin and
 * comes back as one JSON outcome per line.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Budget, compile, TemplateBudgetError, TemplateExecError, TemplateParseError } from '../../src/index.js';
import type { Outcome } from './oracle.js';

/** The oracle's sources, beside this file in the repository (tests run from dist/). */
const SOURCE = fileURLToPath(new URL('../../../../../packages/gotpl/test/sprig-oracle/', import.meta.url));

/** The fixed clock both sides read: 2024-03-05T14:07:09.123456789Z, to the millisecond here. */
export const CLOCK_ISO = '2024-03-05T14:07:09.123Z';
export const CLOCK_MS = Date.parse(CLOCK_ISO);

export interface SprigCase {
  readonly template: string;
  readonly data: unknown;
}

function goVersion(): string | null {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Builds the oracle unless a build of the same sources exists; null when Go is not installed. */
export function buildOracle(): string | null {
  const version = goVersion();
  if (version === null) return null;
  const hash = createHash('sha256').update(version);
  for (const f of ['main.go', 'go.mod', 'go.sum']) hash.update(f).update(readFileSync(join(SOURCE, f)));
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'switchboard-sprig-oracle', hash.digest('hex').slice(0, 16));
  const binary = join(dir, 'sprig-oracle');
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const partial = `${binary}.${process.pid}.tmp`;
  const r = spawnSync('go', ['build', '-o', partial, '.'], {
    cwd: SOURCE,
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' },
  });
  if (r.status !== 0) throw new Error(`building the sprig oracle failed:\n${r.stderr}`);
  renameSync(partial, binary);
  return binary;
}

/** Go's outcomes for a batch of cases. */
export function runGoBatch(binary: string, cases: readonly SprigCase[]): Outcome[] {
  const input = JSON.stringify(cases.map((c) => ({ template: c.template, data: JSON.stringify(c.data) })));
  const r = spawnSync(binary, [], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, SPRIG_ORACLE_NOW: CLOCK_ISO },
  });
  if (r.status !== 0) throw new Error(`sprig oracle failed: ${r.stderr}`);
  const lines = r.stdout.trimEnd().split('\n');
  if (lines.length !== cases.length) throw new Error(`sprig oracle answered ${lines.length} outcomes for ${cases.length} cases`);
  return lines.map((l) => {
    const o = JSON.parse(l) as { kind: string; output?: string; message?: string };
    if (o.kind === 'ok') return { kind: 'ok', output: o.output ?? '' };
    if (o.kind === 'parse' || o.kind === 'exec') return { kind: o.kind, message: o.message ?? '' };
    throw new Error(`sprig oracle: ${o.kind}: ${o.message ?? ''}`);
  });
}

/** Limits generous enough for every case, so that a runaway case fails instead of hanging. */
const LIMITS = { maxIterations: 1_000_000, maxOutputBytes: 1 << 24, maxMilliseconds: 5_000 };

/** Our outcome for a case, in the oracle's shape (parse messages without our column). */
export function runOurs(c: SprigCase): Outcome {
  try {
    // A fresh copy, as Go decodes the JSON afresh for every case: set and merge change maps.
    const data = JSON.parse(JSON.stringify(c.data)) as unknown;
    return { kind: 'ok', output: compile(c.template, { name: 'tpl' }).render(data, new Budget(LIMITS), { now: () => CLOCK_MS }) };
  } catch (e) {
    if (e instanceof TemplateParseError) return { kind: 'parse', message: e.message.replace(/^(template: tpl:\d+):\d+:/, '$1:') };
    if (e instanceof TemplateExecError || e instanceof TemplateBudgetError) return { kind: 'exec', message: e.message };
    throw e;
  }
}
