/**
 * V8's young-generation setting, applied however Switchboard is launched: through the npm
 * bin's shebang, `node bin/switchboard.js` (npx on some systems, a process manager, a
 * Dockerfile's CMD), or a test harness. Imported by bin/switchboard.js before anything else.
 *
 * Why: V8 grows the young generation from 1 MiB to 16 MiB a semi-space under a burst of
 * allocation (loading thousands of tools, a flood of registrations, rounds of sessions) and
 * keeps it: three semi-spaces' worth of resident memory that no idle period gives back.
 * `--max-semi-space-size` fixes that only on the command line: V8 sizes the heap once, so
 * `v8.setFlagsFromString('--max-semi-space-size=4')` after start-up changes nothing (measured:
 * the young generation still reaches 32 MiB). What V8 does read after start-up is the
 * growth factor, so at run time the young generation is kept at its initial size with
 * `--semi-space-growth-factor=1` (docs/decisions.md, "Heap settings however launched").
 *
 * Left alone when the operator chose a young-generation size on the command line or in
 * NODE_OPTIONS. `SWITCHBOARD_V8_FLAGS` replaces the default with any flags V8 takes at run
 * time (`''` for V8's own behaviour).
 */
import { setFlagsFromString } from 'node:v8';

export const DEFAULT_V8_FLAGS = '--semi-space-growth-factor=1';

/** Flags that size the young generation: an operator who set one keeps it. */
const YOUNG_GENERATION = /--(max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor|--max[-_]heap[-_]size/;

/** The flags to set at start-up, or '' for none. */
export function heapFlags(execArgv: readonly string[], env: NodeJS.ProcessEnv): string {
  if (env.SWITCHBOARD_V8_FLAGS !== undefined) return env.SWITCHBOARD_V8_FLAGS.trim();
  if (YOUNG_GENERATION.test(`${execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`)) return '';
  return DEFAULT_V8_FLAGS;
}

const flags = heapFlags(process.execArgv, process.env);
if (flags !== '') setFlagsFromString(flags);
