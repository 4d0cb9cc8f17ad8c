/**
 * Each server as the calling session sees it: connected, auth_required (a core_auth_login
 * would unlock it) or disconnected, and whether it is suspended. The `auth://status`
 * resource shows it whole; list_tools' servers_requiring_auth is its auth_required part.
 */
import { ownerOf } from '../../kernel/contracts/sign-in.js';
import type { KernelApi } from '../../kernel/kernel-api.js';
import type { Session } from '../../kernel/sessions.js';
import { coreToolName } from '../../kernel/tools.js';

export const AUTH_STATUS_URI = 'auth://status';

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
