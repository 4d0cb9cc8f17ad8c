/**
 * The MCP URL a local client should use for the Switchboard configured in a directory:
 * what init prints and what connect writes when no --endpoint is given.
 */
import { readSettings } from '../../kernel/config/pipeline.js';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:8090/mcp';

const WILDCARD = new Set(['0.0.0.0', '::', '']);

export function endpointFor(host: string, port: number): string {
  // A wildcard bind is reached on loopback from the same machine.
  const reach = WILDCARD.has(host) ? '127.0.0.1' : host;
  return `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}/mcp`;
}

/** From config.yaml in `configPath`, with the overrides `serve` would apply; the default when it cannot be read. */
export async function configuredEndpoint(configPath: string, overrides: { host?: string; port?: number } = {}): Promise<string> {
  try {
    const { settings } = await readSettings(configPath);
    const a = settings.aggregator;
    return endpointFor(overrides.host ?? a.host, overrides.port ?? a.port);
  } catch {
    return DEFAULT_ENDPOINT;
  }
}
