/** An upstream connection as the lifecycle reports it (core-tools, admin pages, events, the Kubernetes status). */
import { commandLine, redactUrl, reportedState, type ServiceStatus } from '../../kernel/index.js';
import type { UpstreamConnection } from './connection.js';

export function serviceStatus(conn: UpstreamConnection): ServiceStatus {
  const s: ServiceStatus = {
    name: conn.name,
    service_type: 'MCPServer',
    state: reportedState(conn.def.type, conn.state),
    health: conn.health,
    metadata: {
      type: conn.def.type,
      autoStart: conn.def.autoStart,
      suspended: conn.def.suspended,
      tools: conn.state === 'running' ? conn.tools.length : 0,
      ...(conn.def.command ? { command: commandLine(conn.def) } : {}),
      ...(conn.def.url ? { url: redactUrl(conn.def.url) } : {}),
      ...(conn.pid !== undefined ? { pid: conn.pid } : {}),
      ...(conn.protocolVersion !== undefined ? { protocolVersion: conn.protocolVersion } : {}),
    },
  };
  if (conn.error) s.error = conn.error;
  if (conn.nextRetryAt) s.nextRetryAfter = conn.nextRetryAt.toISOString();
  if (conn.lastRestartedAt) s.lastRestartedAt = conn.lastRestartedAt;
  return s;
}
