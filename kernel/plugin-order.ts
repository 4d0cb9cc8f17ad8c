/**
 * The order plugins are set up in, from what they declare: a provider of a service before
 * every plugin that needs or uses it; otherwise the order they were listed in (the
 * application's built-ins, then third-party plugins as config.yaml names them), so that an
 * unconstrained plugin stays where its author put it. A need no enabled plugin provides, or
 * plugins that need each other at setup, stop startup with a message naming the plugins.
 */
import { ConfigInvalidError, type ConfigProblem } from './errors.js';
import type { Plugin } from './plugin.js';
import type { ServiceName } from './services.js';

export interface OrderEntry {
  plugin: Plugin<unknown>;
  /** Where a problem with this plugin is reported. */
  file: string;
}

/** A plugin that declares nothing (older third-party plugins) is not checked and keeps its place. */
export function declaresDependencies(plugin: Plugin<unknown>): boolean {
  return Boolean(plugin.provides || plugin.needs || plugin.uses || plugin.needsWhenRunning || plugin.claims);
}

/**
 * @param switchedOff who would provide a service but is disabled, for the message; asked
 *   only when a need is missing.
 */
export async function orderPlugins<E extends OrderEntry>(
  entries: readonly E[],
  switchedOff: (service: ServiceName) => Promise<string | undefined>,
): Promise<E[]> {
  const providers = new Map<ServiceName, number[]>();
  entries.forEach((e, i) => {
    for (const s of e.plugin.provides ?? []) providers.set(s, [...(providers.get(s) ?? []), i]);
  });

  const problems: ConfigProblem[] = [];
  for (const e of entries) {
    for (const service of [...(e.plugin.needs ?? []), ...(e.plugin.needsWhenRunning ?? [])]) {
      if (providers.has(service)) continue;
      const off = await switchedOff(service);
      const why = off ? `plugin '${off}' provides it and is switched off (plugins.${off}: false)` : 'no enabled plugin provides it';
      problems.push({
        file: e.file,
        line: 0,
        column: 0,
        field: `plugins.${e.plugin.name}`,
        message: `plugin '${e.plugin.name}' needs the '${service}' service, but ${why}`,
      });
    }
  }
  if (problems.length) throw new ConfigInvalidError(problems);

  // Kahn's algorithm, always taking the earliest-listed plugin whose providers are all set up.
  const before = entries.map((e, i) => {
    const wanted = [...(e.plugin.needs ?? []), ...(e.plugin.uses ?? [])];
    return new Set(wanted.flatMap((s) => providers.get(s) ?? []).filter((p) => p !== i));
  });
  const done = new Set<number>();
  const order: E[] = [];
  while (order.length < entries.length) {
    const next = entries.findIndex((_, i) => !done.has(i) && [...before[i]!].every((p) => done.has(p)));
    if (next < 0) throw cycleError(entries, before, done);
    done.add(next);
    order.push(entries[next]!);
  }
  return order;
}

function cycleError(entries: readonly OrderEntry[], before: readonly Set<number>[], done: ReadonlySet<number>): ConfigInvalidError {
  // Walk from any waiting plugin along what it waits for until a plugin repeats: that is the cycle.
  const path: number[] = [];
  let at = entries.findIndex((_, i) => !done.has(i));
  while (!path.includes(at)) {
    path.push(at);
    at = [...before[at]!].find((p) => !done.has(p))!;
  }
  const cycle = [...path.slice(path.indexOf(at)), at].map((i) => `'${entries[i]!.plugin.name}'`);
  const first = entries[at]!;
  return new ConfigInvalidError([
    {
      file: first.file,
      line: 0,
      column: 0,
      field: `plugins.${first.plugin.name}`,
      message: `plugins need each other at setup: ${cycle.join(' -> ')}; one of them must reach the other only when running (needsWhenRunning)`,
    },
  ]);
}
