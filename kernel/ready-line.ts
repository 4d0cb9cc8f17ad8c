/**
 * The line that says Switchboard is ready. It is what a first-time user reads, so it names
 * the directory that was read and, when there is nothing to serve yet, the next step; servers
 * that could not connect are counted apart from the ones that serve tools.
 */
import type { ServiceStatus } from './contracts/lifecycle.js';

export interface ReadyFacts {
  tools: number;
  /** Every MCP server definition's status; undefined when no plugin manages upstreams. */
  servers: readonly Pick<ServiceStatus, 'name' | 'state'>[] | undefined;
  configPath: string;
  /** Whether the directory existed when Switchboard started (a plugin may have made it since). */
  configExisted: boolean;
}

/** Enough names to find the culprits; the admin page and list_servers have the rest. */
const NAMED = 5;

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function readyLine(f: ReadyFacts): string {
  const servers = f.servers ?? [];
  const running = servers.filter((s) => s.state === 'running').length;
  // Stopped: suspended, or started on first use. Anything else not running was meant to be
  // connected by now and is not: failed, unreachable, waiting for a sign-in, or retrying.
  const idle = servers.filter((s) => s.state === 'stopped').length;
  const failed = servers.filter((s) => s.state !== 'running' && s.state !== 'stopped');
  const notes: string[] = [];
  if (idle) notes.push(`${idle} not started`);
  if (failed.length) {
    const names = failed.slice(0, NAMED).map((s) => `${s.name} (${s.state})`);
    notes.push(`${failed.length} not connected: ${names.join(', ')}${failed.length > NAMED ? ', ...' : ''}`);
  }
  let line = `ready: ${plural(f.tools, 'tool')} from ${plural(running, 'server')}${notes.length ? ` (${notes.join('; ')})` : ''}; config ${f.configPath}`;
  if (servers.length === 0) {
    line += f.configExisted
      ? ` has no MCP servers yet: add one with 'switchboard import FILE' or a file in mcpservers/, then 'switchboard connect CLIENT' for your IDE`
      : ` does not exist yet: 'switchboard init --config-path ${f.configPath}' creates it with an example; then 'switchboard import FILE' and 'switchboard connect CLIENT'`;
  }
  return line;
}
