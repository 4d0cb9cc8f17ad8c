/** What an upstream connection tells the registry, and asks of it (connection.ts). */
import type { SecretsApi, ServerUnavailableError, LifecycleState, SwitchboardError } from '../../kernel/index.js';
import type { OutboundPolicy } from '../../lib/net/outbound-policy.js';
import type { UpstreamConnection } from './connection.js';
import type { ToolListLimits } from './tool-limits.js';

export interface ConnectionEvents {
  onContentChange(conn: UpstreamConnection): void;
  onStateChange(conn: UpstreamConnection, previous: LifecycleState): void;
  /** A value resolved for env or headers that must never appear in a log or result. */
  onSecret(value: string): void;
  /**
   * The known secrets. Everything this server says on its own initiative passes through
   * them as it comes in (errors, tool lists, resources, prompts, completions, log and
   * progress notifications): one choke point for upstream ingress. Tool results are the
   * exception, scrubbed once by kernel/invoke.ts for every kind of tool.
   */
  readonly secrets: SecretsApi;
  /** A resource this server was asked to watch changed (resources/subscribe). */
  onResourceUpdated(conn: UpstreamConnection, uri: string): void;
  /** The outbound policy of the current settings (for servers whose URL a caller chose). */
  outbound(): OutboundPolicy;
  /** runtimeServers.allowedEnv of the current settings. */
  allowedEnv(): readonly string[];
  /** The error a call gets while this server is not running (it names the call that starts it). */
  unavailable(conn: UpstreamConnection): ServerUnavailableError;
  /** The limits a tool list is held to, as configured now. */
  toolLimits(): ToolListLimits;
  /** How often the secrets env and headers reference are read again (secret-rotation.ts); absent or 0: never. */
  secretPollMs?: number;
  /** A signed-in connection's server refused its credentials during a call: the error the caller gets. */
  unauthorized?(conn: UpstreamConnection): SwitchboardError;
  /**
   * Set when the server is called with each person's own token (auth.forwardToken,
   * auth.tokenExchange): the shared connection then never connects without one and waits in
   * auth_required with this explanation, and each person gets a connection of their own.
   */
  perPerson?(def: UpstreamConnection['def']): string | undefined;
  /** A signed-in connection's server wants more scope for a call (403 insufficient_scope): the error the caller gets. */
  insufficientScope?(conn: UpstreamConnection, challenge: string): SwitchboardError;
}
