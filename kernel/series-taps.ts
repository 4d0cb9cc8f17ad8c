/**
 * Runs an AsyncSeriesHook of one argument the cheap way when it can. tapable's `promise()`
 * builds a Promise, its executor and its error closures on every run, and the caller awaits
 * it, even when every tap is synchronous; `onRequest` runs once per call and its taps in the
 * default plugins (limits, toolsets, sign-in view, authorization) are all synchronous. Then
 * the taps are called here in the hook's order and nothing is returned; a tap that throws
 * throws here, where the caller's `await` would have thrown the same error. A hook with a
 * tap that waits (`tapPromise`, `tapAsync`: the cluster limits) or an interceptor runs as
 * tapable runs it, and its promise is returned.
 */
import type { AsyncSeriesHook } from 'tapable';

export function runSeriesTaps<A>(hook: AsyncSeriesHook<[A]>, arg: A): Promise<void> | undefined {
  const taps = hook.taps;
  if (hook.interceptors.length > 0) return hook.promise(arg);
  for (let i = 0; i < taps.length; i++) if (taps[i]!.type !== 'sync') return hook.promise(arg);
  for (let i = 0; i < taps.length; i++) (taps[i]!.fn as (arg: A) => unknown)(arg);
  return undefined;
}
