/**
 * The lifecycle of managed services, as core_service_* and list_servers see it. The
 * upstreams plugin provides one ManagedService per MCP server definition.
 */
import type { Icon } from '../tools.js';
import type { Owner, SignInTargets } from './sign-in.js';

/** What a connection to an MCP server goes through, whatever its transport. */
export type LifecycleState = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed' | 'unreachable' | 'auth_required';
/**
 * The state a service reports (kernel/service-states.ts): a remote server says `connected`
 * and `disconnected` where a stdio one says `running` and `stopped`.
 */
export type ServiceState = LifecycleState | 'connected' | 'disconnected';
export type ServiceHealth = 'unknown' | 'healthy' | 'unhealthy';

export interface ServiceStatus {
  name: string;
  service_type: 'Aggregator' | 'MCPServer';
  state: ServiceState;
  health: ServiceHealth;
  metadata: Record<string, unknown>;
  /** Why the service is not running, when it is not. */
  error?: string;
  /** RFC 3339 time of the next reconnect attempt while backing off. */
  nextRetryAfter?: string;
  lastRestartedAt?: string;
}

export interface UpstreamRegistry extends UpstreamContent, SignInTargets {
  list(): ServiceStatus[];
  status(name: string): ServiceStatus | undefined;
  start(name: string): Promise<ServiceStatus>;
  stop(name: string): Promise<ServiceStatus>;
  restart(name: string): Promise<ServiceStatus>;
  /** Number of servers currently connected. */
  connectedCount(): number;
  /** Tools the server contributes right now (0 when not connected; switched-off tools not counted). */
  toolCount(name: string): number;
  /** Every tool the server listed last, under its own name, switched-off ones included and marked (the admin UI's switches). */
  listedTools(name: string): ListedTool[];
  /** The last lines a stdio server wrote on stderr (bounded), oldest first; empty for a remote server. */
  stderrTail(name: string): string[];
}

/** A tool as its server lists it, and whether the definition switches it off (`disabledTools`). */
export interface ListedTool {
  name: string;
  description: string;
  disabled: boolean;
}

/** A resource an upstream serves, with the server it came from. */
export interface UpstreamResource {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
}

/** A prompt an upstream serves, under its catalogue name `x_<server>_<prompt>`. */
export interface UpstreamPrompt {
  name: string;
  server: string;
  originalName: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  icons?: Icon[];
}

/** A resource template an upstream serves (RFC 6570 `uriTemplate`), with the server it came from. */
export interface UpstreamResourceTemplate {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
}

export type ContentChange = { type: 'list' } | { type: 'updated'; server: string; uri: string };

/**
 * What the servers offer besides tools. `owner` (kernel/contracts/sign-in.ts): whose view, for
 * servers used with each caller's own sign-in; without it, those servers offer nothing.
 */
export interface UpstreamContent {
  resources(owner?: Owner): UpstreamResource[];
  resourceTemplates(owner?: Owner): UpstreamResourceTemplate[];
  readResource(server: string, uri: string, owner?: Owner): Promise<Record<string, unknown>>;
  subscribe(server: string, uri: string): Promise<void>;
  unsubscribe(server: string, uri: string): Promise<void>;
  prompts(owner?: Owner): UpstreamPrompt[];
  getPrompt(name: string, args: Record<string, string>, owner?: Owner): Promise<Record<string, unknown>>;
  /** completion/complete on the server that owns the prompt or resource (params as the client sent them, ref rewritten). */
  complete(server: string, params: Record<string, unknown>, owner?: Owner): Promise<Record<string, unknown>>;
  /** Called when what the servers offer changes, and when a subscribed resource is updated. */
  watch(listener: (change: ContentChange) => void): void;
}
