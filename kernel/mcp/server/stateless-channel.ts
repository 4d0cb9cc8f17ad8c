/**
 * The way back to a 2026-07-28 client during one stateless call. There is no session to ask
 * through: an upstream's question becomes an `input_required` result of the client's request
 * (input-rounds.ts), so the channel declares what the client declared in its envelope when
 * the call runs as rounds (`asker`), and none of sampling, elicitation and roots otherwise:
 * the upstreams plugin then refuses the question to the upstream by name, as it does for a
 * legacy client that lacks them.
 */
import type { ClientCapabilities, JSONRPCNotification } from '#mcp-sdk/types.js';
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { logLevelPasses, type ClientChannel, type LogMessage } from '../shared/client-channel.js';
import type { RequestEnvelope } from '../shared/modern-protocol.js';
import type { RoundChannel } from './input-rounds.js';

export class StatelessChannel implements ClientChannel {
  /** Worked out at the first `capabilities()`: a plain call never asks, and this ran per request. */
  private declared: ClientCapabilities | undefined;

  constructor(
    private readonly envelope: RequestEnvelope,
    private readonly notifyClient: (message: JSONRPCNotification) => void,
    private readonly asker?: RoundChannel,
  ) {}

  capabilities(): ClientCapabilities {
    if (this.declared) return this.declared;
    const declared = this.envelope.clientCapabilities;
    if (this.asker) return (this.declared = declared);
    const { sampling: _sampling, elicitation: _elicitation, roots: _roots, ...rest } = declared;
    return (this.declared = rest);
  }

  /** Asked as an input_required round (input-rounds.ts); without rounds never reached (capabilities() declares nothing to ask with). */
  request(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (this.asker) return this.asker.ask(method, params ?? {}, signal);
    return Promise.reject(
      new McpError(ErrorCode.InvalidRequest, `'${method}' cannot reach a 2026-07-28 client yet: Switchboard does not translate it to an input_required result`),
    );
  }

  logLevel(): RequestEnvelope['logLevel'] {
    return this.envelope.logLevel;
  }

  /** 2026-07-28: no log message unless the request set `_meta` logLevel, then those at or above it, on the request's own stream. */
  async log(message: LogMessage): Promise<void> {
    const level = this.envelope.logLevel;
    if (level === undefined || !logLevelPasses(message.level, level)) return;
    this.notifyClient({ jsonrpc: '2.0', method: 'notifications/message', params: { ...message } });
  }

  /**
   * A notification outside the call (a URL elicitation's completion): 2026-07-28 has no
   * channel for it (the client learns the outcome by retrying), so there is nothing to send.
   */
  async notify(): Promise<void> {}
}
