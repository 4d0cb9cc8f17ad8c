/**
 * A client command (list, describe, call, login, logout, agent) runs WebAssembly on V8's
 * baseline compiler only (`--liftoff-only`); `serve` keeps V8's defaults.
 *
 * Why: Node's fetch parses HTTP with llhttp, compiled to WebAssembly, and V8 compiles a wasm
 * function that runs hot a second time with its optimizing compiler, in the background.
 * llhttp's parser is one very large function: after a few kilobytes of answers that second
 * compile costs about 0.2 s of CPU, and a process that is done after one answer waits for it
 * at exit (Node finishes its background tasks before it ends). Measured on `switchboard list
 * tools` against a running Switchboard: 0.76 against 0.55 s of CPU, 0.69 against 0.53 s of
 * wall. The gateway runs for days and parses every upstream answer, so it keeps the optimizing
 * tier. V8 reads this flag whenever it compiles a module, so setting it at run time, before
 * the first fetch, is enough.
 *
 * `SWITCHBOARD_V8_FLAGS`, when set, is the operator's whole choice of V8 flags
 * (heap-settings.ts): then nothing is added here.
 */
import { setFlagsFromString } from 'node:v8';

export const CLIENT_WASM_FLAGS = '--liftoff-only';

/** The flags a client command adds at start-up, or '' for none. */
export function clientWasmFlags(env: NodeJS.ProcessEnv): string {
  return env.SWITCHBOARD_V8_FLAGS === undefined ? CLIENT_WASM_FLAGS : '';
}

/** Sets them; called by the CLI before a client command loads anything that fetches. */
export function useClientWasmTier(env: NodeJS.ProcessEnv = process.env): void {
  const flags = clientWasmFlags(env);
  if (flags !== '') setFlagsFromString(flags);
}
