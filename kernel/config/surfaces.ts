/**
 * Fail closed. A setting that switches on a surface (OAuth protection, the admin UI, the
 * OAuth client, orchestrator mode) is a promise to the operator; when no enabled plugin
 * claims that surface, Switchboard refuses to start rather than serve without it. The
 * same check runs in `switchboard check` and on every reload (which then keeps the last
 * good configuration). A plugin that provides a surface calls `claim` in its setup.
 */
import type { ConfigProblem } from '../errors.js';
import type { Settings } from './settings.js';
import type { ParsedYaml, PathSegment } from './yaml-document.js';

export type SurfaceName = 'oauth-server' | 'oauth-client' | 'admin' | 'orchestrator';

interface SurfaceSwitch {
  /** Where the switch lives in config.yaml. */
  path: readonly PathSegment[];
  /** What an operator reads in the refusal. */
  what: string;
  /** The plugin that provides it, when one exists in this line of releases. */
  provider: string;
}

const SWITCHES: Record<SurfaceName, SurfaceSwitch> = {
  'oauth-server': { path: ['aggregator', 'oauth', 'server', 'enabled'], what: 'OAuth protection of the MCP endpoint', provider: 'auth-server' },
  'oauth-client': { path: ['oauth', 'mcpClient', 'enabled'], what: 'the OAuth client for remote MCP servers', provider: 'auth-client' },
  admin: { path: ['aggregator', 'admin', 'enabled'], what: 'the admin UI', provider: 'admin-ui' },
  orchestrator: { path: ['orchestrator'], what: 'orchestrator mode', provider: 'store-kubernetes' },
};

function valueAt(settings: Settings, path: readonly PathSegment[]): unknown {
  let node: unknown = settings;
  for (const seg of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<PathSegment, unknown>)[seg];
  }
  return node;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

export class SurfaceRegistry {
  private readonly claimed = new Set<SurfaceName>();

  claim(surface: SurfaceName): void {
    this.claimed.add(surface);
  }

  /** Problems for config.yaml: enabled surfaces nobody provides, and unsafe ways of enabling them. */
  problems(settings: Settings, where: Pick<ParsedYaml, 'file' | 'locate'>): ConfigProblem[] {
    const out: ConfigProblem[] = [];
    const at = (path: readonly PathSegment[], message: string): void => {
      out.push({ file: where.file, ...where.locate(path), field: path.join('.'), message });
    };
    for (const [name, s] of Object.entries(SWITCHES) as [SurfaceName, SurfaceSwitch][]) {
      if (valueAt(settings, s.path) !== true || this.claimed.has(name)) continue;
      at(s.path, `${s.what} is switched on, but no enabled plugin provides it (plugin '${s.provider}'); refusing to start without it. Enable that plugin or set this to false.`);
    }
    const admin = settings.aggregator.admin;
    if (admin.enabled && !isLoopback(admin.bindAddress) && !admin.allowNonLoopback) {
      at(['aggregator', 'admin', 'bindAddress'], `the admin UI has no authentication and would listen on ${admin.bindAddress}; bind it to 127.0.0.1, or set aggregator.admin.allowNonLoopback: true to accept the exposure`);
    }
    return out;
  }
}
