/**
 * The way back to the client whose call is running. An upstream tool may ask that client
 * something during the call (sampling/createMessage, elicitation/create, roots/list) or log
 * to it; the upstreams plugin finds the call the upstream's message belongs to and goes
 * through this channel, so the question reaches the right person and the answer returns.
 */
import type { ClientCapabilities, LoggingLevel } from '#mcp-sdk/types.js';

/** The MCP log levels, least severe first (RFC 5424 order, as the specification lists them). */
export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export interface LogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

export interface ClientChannel {
  /** What the client declared in initialize (sampling, elicitation, roots...). */
  capabilities(): ClientCapabilities | undefined;
  /** A request to the client, tied to the running call (on its response stream); resolves to the raw result. */
  request(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** A log message, delivered when it is at or above the session's level (logging/setLevel). */
  log(message: LogMessage): Promise<void>;
  /**
   * The least severe level the caller hears now, undefined when it hears none: a legacy
   * session's logging/setLevel ('debug' until it sets one), a 2026-07-28 request's `_meta`
   * logLevel (none without it). A 2026-07-28 upstream logs only at the level its request
   * names, so this is what is passed on to one. Absent: the caller hears none.
   */
  logLevel?(): LoggingLevel | undefined;
  /**
   * A notification to the client's session, not tied to the call: it may come after the call
   * ended (a URL-mode elicitation's notifications/elicitation/complete).
   */
  notify(method: string, params: Record<string, unknown>): Promise<void>;
}

/** Whether `level` passes a session whose threshold is `threshold` (none set: everything passes). */
export function logLevelPasses(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold === undefined || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
