/**
 * Which Switchboard a command talks to (or `connect` writes), one rule for every command:
 * `--endpoint URL`, then `--port N`, then $SWITCHBOARD_ENDPOINT, then the run file a running
 * `serve` of this configuration directory wrote (run-file.ts), then config.yaml (with
 * $SWITCHBOARD_HOST/$SWITCHBOARD_PORT over it, as serve applies them), then the default.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../kernel/paths.js';
import { readRunFile } from './run-file.js';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:8090/mcp';

const WILDCARD = new Set(['0.0.0.0', '::', '']);

export function endpointFor(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  // A wildcard bind is reached on loopback from the same machine.
  const reach = WILDCARD.has(host) ? '127.0.0.1' : host;
  return `${scheme}://${reach.includes(':') ? `[${reach}]` : reach}:${port}/mcp`;
}

/** From config.yaml in `configPath`, with the overrides `serve` would apply; the default when it cannot be read. */
export async function configuredEndpoint(configPath: string, overrides: { host?: string; port?: number } = {}): Promise<string> {
  // No config.yaml means all defaults (readSettings): the schema's own, read from it, without
  // the pipeline, whose validators and YAML parser cost 0.3 s of CPU to load, a third of a
  // client command's start.
  if (!existsSync(join(configPath, 'config.yaml'))) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'config.schema.json'), 'utf8')) as {
      properties: { aggregator: { properties: { host: { default: string }; port: { default: number } } } };
    };
    const defaults = schema.properties.aggregator.properties;
    return endpointFor(overrides.host ?? defaults.host.default, overrides.port ?? defaults.port.default);
  }
  // Loaded here, not at the top, for the same reason: a client command given --endpoint or
  // SWITCHBOARD_ENDPOINT never needs it.
  const { readSettings } = await import('../../kernel/config/pipeline.js');
  try {
    const { settings } = await readSettings(configPath);
    const a = settings.aggregator;
    return endpointFor(overrides.host ?? a.host, overrides.port ?? a.port, a.tls ? 'https' : 'http');
  } catch {
    return DEFAULT_ENDPOINT;
  }
}

export type EndpointSource = '--endpoint' | '--port' | 'SWITCHBOARD_ENDPOINT' | 'run file' | 'config.yaml';

export interface EndpointChoice {
  url: string;
  from: EndpointSource;
}

export interface EndpointRequest {
  configPath: string;
  endpoint?: string;
  port?: number;
  /** SWITCHBOARD_HOST/PORT as parseArgs read them: what serve would apply over config.yaml. */
  host?: string;
  envPort?: number;
  env: NodeJS.ProcessEnv;
  /** Told when a run file is passed over, and why. */
  note: (line: string) => void;
}

export async function resolveEndpoint(r: EndpointRequest): Promise<EndpointChoice> {
  if (r.endpoint) return { url: r.endpoint, from: '--endpoint' };
  if (r.port !== undefined) {
    // The port of a local serve: its host is config.yaml's (or SWITCHBOARD_HOST), the port the flag's.
    return { url: await configuredEndpoint(r.configPath, { ...(r.host ? { host: r.host } : {}), port: r.port }), from: '--port' };
  }
  if (r.env.SWITCHBOARD_ENDPOINT) return { url: r.env.SWITCHBOARD_ENDPOINT, from: 'SWITCHBOARD_ENDPOINT' };
  const run = readRunFile(r.configPath);
  if (run.state === 'live') return { url: run.record.url, from: 'run file' };
  const configured = await configuredEndpoint(r.configPath, { ...(r.host ? { host: r.host } : {}), ...(r.envPort !== undefined ? { port: r.envPort } : {}) });
  if (run.state === 'stale')
    r.note(
      `switchboard: ignoring ${run.file}: the Switchboard that wrote it (pid ${run.record.pid}, started ${run.record.startedAt}) is not running; using ${configured} from config.yaml`,
    );
  if (run.state === 'unreadable') r.note(`switchboard: ignoring ${run.file} (${run.reason}); using ${configured} from config.yaml`);
  return { url: configured, from: 'config.yaml' };
}
