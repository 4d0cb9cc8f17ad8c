/**
 * A connected upstream as the connection uses it, whatever era it speaks: a 2025-11-25
 * server through the v1 SDK client (upstream-client.ts), a 2026-07-28 one through the v2
 * client (modern-upstream.ts). Which one a server gets is decided once per connection by
 * era-probe.ts.
 */
import type { Transport } from '#mcp-sdk/shared/transport.js';
import type { CallToolResult } from '#mcp-sdk/types.js';
import type { CallContext, JsonObject, ResultSink } from '../../../kernel/index.js';
import type { ListSource, ListWatcher } from '../lists.js';

export interface SessionWatcher extends ListWatcher {
  /** The connection ended (the server went away, or the transport failed for good). */
  closed(): void;
  /** A transport error that did not end the connection. */
  error(err: Error): void;
  /** Notifications may have been missed (the notification stream came back without resuming): lists and watched resources may have changed unheard. */
  missed(): void;
}

/** A transport that can say it may have missed notifications (http-client-transport.ts: its notification stream came back without resuming). */
export interface ResyncingTransport {
  onresync?: () => void;
}

export interface UpstreamSession {
  readonly era: 'legacy' | 'modern';
  /** The protocol revision agreed with the server (initialize's answer, or the modern one discover offered). */
  readonly protocolVersion: string | undefined;
  readonly transport: Transport;
  readonly lists: ListSource;
  /** Once, right after connecting: from then on `watcher` hears of the connection's end and list changes. */
  watch(watcher: SessionWatcher): void;
  /**
   * When the lists should be read again although the server said nothing: a 2026-07-28
   * server that announces no `listChanged` lets its lists be kept `ttlMs`. Undefined: only
   * when the server says so (or never).
   */
  relistAfterMs?(): number | undefined;
  runsToolTasks(): boolean;
  /** `sink`: the caller's answer is this result as it is (kernel/tools.ts, ResultSink). */
  callTool(name: string, args: JsonObject, call: CallContext, timeoutMs: number, sink?: ResultSink): Promise<CallToolResult>;
  callToolTask(name: string, args: JsonObject, call: CallContext, timeoutMs: number): Promise<CallToolResult>;
  readResource(uri: string): Promise<Record<string, unknown>>;
  subscribe(uri: string, on: boolean): Promise<void>;
  complete(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  getPrompt(name: string, args: Record<string, string>): Promise<Record<string, unknown>>;
  /**
   * Whether the server answers an MCP `ping` within `ms` (any answer, an error too: it was
   * heard). Only the legacy era has ping (2026-07-28 dropped it); its session is the one whose
   * answers may all ride a single stream (HTTP+SSE).
   */
  answersWithin?(ms: number): Promise<boolean>;
  close(): Promise<void>;
}
