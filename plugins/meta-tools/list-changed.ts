/**
 * When the catalogue changes (a server comes up or goes down, a file is reloaded, a
 * workflow is created), every session hears `notifications/tools/list_changed`, and every
 * subscriptions/listen stream whose caller's view changed (kernel listens.ts), so an agent
 * knows to discover again. Debounced: a burst of changes (a restart, a reload of many files)
 * is one notification. The meta-tools themselves never change; what they show does.
 */
import type { KernelApi } from '../../kernel/index.js';

const DEBOUNCE_MS = 250;

export function announceCatalogueChanges(kernel: KernelApi): void {
  let timer: NodeJS.Timeout | undefined;
  kernel.hooks.onCatalogueChange.tap('meta-tools:list-changed', () => {
    // Sessions and subscriptions/listen streams (2026-07-28 clients) alike.
    if (!kernel.endpoint.hasListeners()) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      // Every replica sees the change and tells the sessions whose stream it holds (endpoint.ts).
      kernel.endpoint.notifyListChanged('tools', kernel.sessions.all());
    }, DEBOUNCE_MS);
    timer.unref();
  });
}
