/**
 * DNS-rebinding protection by Host. A page at evil.example whose name an attacker points at
 * 127.0.0.1 reaches a loopback listener with the browser's cookies-free but same-"origin" view
 * of evil.example: Origin then equals its own Host, so an Origin check alone lets it through.
 * A listener answers only to the names it is known by: localhost names, its bind address, the
 * configured base URLs, and `aggregator.allowedHosts`. On a listener bound beyond loopback
 * (a pod, a VM) callers use names the operator knows and this process does not, so the check
 * applies there only when allowedHosts lists them.
 */
import { isLoopback } from '../../kernel/config/surfaces.js';

const LOCAL_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The host name of a Host header (`name:port`, `[v6]:port`), lower-cased, without a trailing dot. */
export function hostName(header: string): string {
  let name = header.trim().toLowerCase();
  if (name.startsWith('[')) name = name.slice(1, name.indexOf(']') < 0 ? undefined : name.indexOf(']'));
  else if (name.split(':').length === 2) name = name.slice(0, name.indexOf(':'));
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

function urlHost(url: string | undefined): string[] {
  if (!url) return [];
  try {
    return [hostName(new URL(url).host)];
  } catch {
    return [];
  }
}

export interface HostCheck {
  /** undefined: the listener answers to any name (bound beyond loopback, nothing configured). */
  readonly names: ReadonlySet<string> | undefined;
  allows(header: string | undefined): boolean;
}

export function hostCheck(bindAddress: string, configured: readonly string[], baseUrls: readonly (string | undefined)[]): HostCheck {
  const names =
    isLoopback(bindAddress) || configured.length > 0
      ? new Set([...LOCAL_NAMES, hostName(bindAddress), ...baseUrls.flatMap(urlHost), ...configured.map(hostName)])
      : undefined;
  return {
    names,
    // A request without Host is no browser's (browsers always send it): nothing to rebind.
    allows: (header) => !names || names.has('*') || header === undefined || names.has(hostName(header)),
  };
}
