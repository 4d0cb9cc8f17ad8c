/**
 * The calling client, for what an upstream asks or logs during one call
 * (shared/client-channel.ts). One object per call: no closures made for calls that never use it.
 */
import type { Server } from '#mcp-sdk/server/index.js';
import type { LoggingLevel } from '#mcp-sdk/types.js';
import type { Session } from '../../sessions.js';
import { logLevelPasses, type ClientChannel, type LogMessage } from '../shared/client-channel.js';
import { PASSTHROUGH } from '../shared/passthrough.js';

export type RequestHandlerExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

export class ChannelTo implements ClientChannel {
  constructor(
    private readonly session: Session,
    private readonly extra: RequestHandlerExtra,
  ) {}

  capabilities(): ReturnType<ClientChannel['capabilities']> {
    return this.session.server.getClientCapabilities();
  }

  request(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
    return this.extra.sendRequest({ method, ...(params ? { params } : {}) }, PASSTHROUGH, {
      signal,
    });
  }

  notify(method: string, params: Record<string, unknown>): Promise<void> {
    // The session's own channel (the standalone stream over HTTP): the call's stream may be closed by now.
    return this.session.server.notification({ method, params });
  }

  logLevel(): LoggingLevel {
    return this.session.logLevel ?? 'debug';
  }

  async log(message: LogMessage): Promise<void> {
    if (!logLevelPasses(message.level, this.session.logLevel)) return;
    await this.extra.sendNotification({ method: 'notifications/message', params: message });
  }
}
