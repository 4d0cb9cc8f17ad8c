/**
 * Each server as the calling session sees it: connected, auth_required (a core_auth_login
 * would unlock it) or disconnected, and whether it is suspended. The `auth://status`
 * resource shows it whole; list_tools' servers_requiring_auth is its auth_required part.
 */
import { coreToolName, ownerOf, type KernelApi, type Session } from '../../kernel/index.js';

export const AUTH_STATUS_URI = 'auth://status';

/** Switchboard's own resource, listed before the servers' and never narrowed by a toolset. */
export const AUTH_STATUS_RESOURCE = {
  uri: AUTH_STATUS_URI,
  name: 'auth-status',
  mimeType: 'application/json',
  description: 'Sign-in status of every registered server for this session (connected, auth_required, disconnected; suspended).',
} as const;

export interface ServerAuthStatus {
  name: string;
  status: 'connected' | 'auth_required' | 'disconnected';
  suspended: boolean;
  auth_tool?: string;
}

export function authStatus(kernel: KernelApi, session: Session): ServerAuthStatus[] {
  const upstreams = kernel.services.find('upstreams');
  if (!upstreams) return [];
  const owner = ownerOf(session);
  const authTool = coreToolName(kernel.settings().aggregator.servicePrefix, 'core_auth_login');
  return upstreams.list().map((s) => {
    const entry: ServerAuthStatus = { name: s.name, status: upstreams.statusFor(s.name, owner), suspended: s.metadata.suspended === true };
    if (entry.status === 'auth_required') entry.auth_tool = authTool;
    return entry;
  });
}

/** resources/read of auth://status. */
export function readAuthStatus(kernel: KernelApi, session: Session): { contents: { uri: string; mimeType: string; text: string }[] } {
  return { contents: [{ uri: AUTH_STATUS_URI, mimeType: AUTH_STATUS_RESOURCE.mimeType, text: JSON.stringify({ servers: authStatus(kernel, session) }) }] };
}
