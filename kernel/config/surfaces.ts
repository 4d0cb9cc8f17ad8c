/**
 * Fail closed. A setting that switches on a surface (OAuth protection, the admin UI, the
 * OAuth client, orchestrator mode) is a promise to the operator; when no enabled plugin
 * claims that surface, Switchboard refuses to start rather than serve without it. The
 * same check runs in `switchboard check` and on every reload (which then keeps the last
 * good configuration). A plugin that provides a surface calls `claim` in its setup.
 * The MCP endpoint itself is such a promise too: without OAuth protection it stays on
 * loopback unless the operator accepts the exposure by name.
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

/**
 * The non-loopback address the MCP endpoint would listen on with nobody signing callers in,
 * or undefined when it would not (loopback, OAuth protection on, no network listener). The
 * one rule behind the refusal, the startup warning and core_config_update_aggregator.
 */
export function unauthenticatedNetworkHost(settings: Settings): string | undefined {
  const a = settings.aggregator;
  if (!a.enabled || a.transport === 'stdio' || a.oauth.server.enabled || isLoopback(a.host)) return undefined;
  return a.host;
}

/** Where settings came from besides config.yaml: `--host` or SWITCHBOARD_HOST, which a refusal must name. */
export interface SettingsOrigin {
  hostFrom?: 'flag' | 'env';
}

const HOST_ORIGINS = {
  flag: { bind: '--host on the command line', fix: 'pass --host 127.0.0.1' },
  env: { bind: 'SWITCHBOARD_HOST in the environment', fix: 'set SWITCHBOARD_HOST=127.0.0.1' },
} as const;

/**
 * OAuth off means loopback only: a wider bind without OAuth protection is refused unless
 * `aggregator.allowUnauthenticatedNetwork` accepts it on purpose. One problem, or none.
 */
export function networkExposureProblems(settings: Settings, where: Pick<ParsedYaml, 'file' | 'locate'>, origin: SettingsOrigin = {}): ConfigProblem[] {
  const host = unauthenticatedNetworkHost(settings);
  if (host === undefined || settings.aggregator.allowUnauthenticatedNetwork) return [];
  const path = ['aggregator', 'host'];
  const from = origin.hostFrom ? HOST_ORIGINS[origin.hostFrom] : undefined;
  const bind = from ? `${host} (${from.bind})` : host;
  const fix = from ? from.fix : 'bind to 127.0.0.1';
  return [
    {
      file: where.file,
      ...where.locate(path),
      field: path.join('.'),
      message: `the MCP endpoint would listen on ${bind} without OAuth protection, open to every caller that reaches it; set aggregator.oauth.server.enabled, ${fix}, or set aggregator.allowUnauthenticatedNetwork: true to accept it`,
    },
  ];
}

/** The startup warning when allowUnauthenticatedNetwork accepted such a bind; undefined otherwise. */
export function networkExposureWarning(settings: Settings, bound?: { host: string; port: number }): string | undefined {
  const host = unauthenticatedNetworkHost(settings);
  if (host === undefined || !settings.aggregator.allowUnauthenticatedNetwork) return undefined;
  const at = bound ? `${bound.host.includes(':') ? `[${bound.host}]` : bound.host}:${bound.port}` : host;
  return `THE MCP ENDPOINT HAS NO AUTHENTICATION and listens on ${at} (aggregator.allowUnauthenticatedNetwork: true): every caller that reaches that address can use the endpoint as an anonymous non-administrator (discover and call tools and workflows; not create servers or change the configuration). Turn on aggregator.oauth.server to know who calls.`;
}

export class SurfaceRegistry {
  private readonly claimed = new Set<SurfaceName>();

  claim(surface: SurfaceName): void {
    this.claimed.add(surface);
  }

  /** Problems for config.yaml: enabled surfaces nobody provides, and unsafe ways of enabling them. */
  problems(settings: Settings, where: Pick<ParsedYaml, 'file' | 'locate'>, origin: SettingsOrigin = {}): ConfigProblem[] {
    const out: ConfigProblem[] = [];
    const at = (path: readonly PathSegment[], message: string): void => {
      out.push({ file: where.file, ...where.locate(path), field: path.join('.'), message });
    };
    for (const [name, s] of Object.entries(SWITCHES) as [SurfaceName, SurfaceSwitch][]) {
      if (valueAt(settings, s.path) !== true || this.claimed.has(name)) continue;
      at(
        s.path,
        `${s.what} is switched on, but no enabled plugin provides it (plugin '${s.provider}'); refusing to start without it. Enable that plugin or set this to false.`,
      );
    }
    const admin = settings.aggregator.admin;
    if (admin.enabled && !isLoopback(admin.bindAddress) && !admin.allowNonLoopback) {
      at(
        ['aggregator', 'admin', 'bindAddress'],
        `the admin UI has no authentication and would listen on ${admin.bindAddress}; bind it to 127.0.0.1, or set aggregator.admin.allowNonLoopback: true to accept the exposure`,
      );
    }
    out.push(...networkExposureProblems(settings, where, origin));
    return out;
  }
}
