/**
 * The line that says Switchboard is ready. It is what a first-time user reads, so it names
 * the directory that was read and, when there is nothing to serve yet, the next step; servers
 * that could not connect are counted apart from the ones that serve tools.
 */
import type { ServiceState } from './contracts/lifecycle.js';
import { isActiveState, resumeAdvice } from './service-states.js';

/** A server as the ready line tells it. */
export interface ReadyServer {
  name: string;
  state: ServiceState;
  /** Why it is down, when it is (a lasting failure's reason says what to change). */
  error?: string | undefined;
  suspended?: boolean;
}

export interface ReadyFacts {
  tools: number;
  /** Every MCP server definition's status; undefined when no plugin manages upstreams. */
  servers: readonly ReadyServer[] | undefined;
  configPath: string;
  /** Whether the directory existed when Switchboard started (a plugin may have made it since). */
  configExisted: boolean;
  /** aggregator.servicePrefix, for the core tool that resumes a suspended server. */
  servicePrefix?: string;
}

/** Enough names to find the culprits; the admin page and list_servers have the rest. */
const NAMED = 5;
/** A reason quoted in the line is cut here: an npm failure quotes whole stderr lines. */
const REASON_CHARS = 240;

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function notConnected(s: ReadyServer): string {
  if (!s.error) return `${s.name} (${s.state})`;
  const reason = s.error.length > REASON_CHARS ? `${s.error.slice(0, REASON_CHARS)}…` : s.error;
  return `${s.name} (${s.state}: ${reason})`;
}

export function readyLine(f: ReadyFacts): string {
  const servers = f.servers ?? [];
  // Up: a stdio server `running`, a remote one `connected` (service-states.ts).
  const running = servers.filter((s) => isActiveState(s.state)).length;
  const suspended = servers.filter((s) => s.suspended && !isActiveState(s.state));
  // Stopped: started on first use. Anything else not up was meant to be connected by now and
  // is not: failed, unreachable, waiting for a sign-in, or retrying.
  const idle = servers.filter((s) => !s.suspended && (s.state === 'stopped' || s.state === 'disconnected')).length;
  const failed = servers.filter((s) => !s.suspended && !isActiveState(s.state) && s.state !== 'stopped' && s.state !== 'disconnected');
  const notes: string[] = [];
  if (suspended.length) {
    const names = suspended.slice(0, NAMED).map((s) => s.name);
    const advice = resumeAdvice(f.servicePrefix ?? '', suspended.length === 1 ? suspended[0]!.name : 'NAME');
    notes.push(`${suspended.length} suspended: ${names.join(', ')}${suspended.length > NAMED ? ', ...' : ''} (${advice})`);
  }
  if (idle) notes.push(`${idle} not started`);
  if (failed.length) {
    const names = failed.slice(0, NAMED).map(notConnected);
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
