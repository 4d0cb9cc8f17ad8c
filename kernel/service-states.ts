/**
 * The words a service's state is reported in. A stdio server is a process Switchboard runs:
 * `running`, `stopped`. A remote server (streamable-http, sse) is an endpoint it connects
 * to: `connected`, `disconnected` (reference-behaviour §8; decisions.md "States"). The
 * lifecycle underneath is the same; only the two resting states are named for what they
 * are, so code that asks "is it up?" asks isActiveState, never compares with `running`.
 */
import type { LifecycleState, ServiceState } from './contracts/lifecycle.js';
import { coreToolName } from './tools.js';

/** The reported state of a server of `type` whose connection is in `state`. */
export function reportedState(type: string, state: LifecycleState): ServiceState {
  if (type === 'stdio') return state;
  if (state === 'running') return 'connected';
  if (state === 'stopped') return 'disconnected';
  return state;
}

/** Up and serving: `running` or `connected`. */
export function isActiveState(state: ServiceState): boolean {
  return state === 'running' || state === 'connected';
}

/** Not up and not trying: `stopped` or `disconnected`. */
export function isStoppedState(state: ServiceState): boolean {
  return state === 'stopped' || state === 'disconnected';
}

const SHARED = ['starting', 'stopping', 'failed', 'unreachable', 'auth_required'] as const;

/** Every state a server of each kind of transport can report, for gauges that report each one. */
export const STATES_BY_TRANSPORT: { readonly local: readonly ServiceState[]; readonly remote: readonly ServiceState[] } = {
  local: ['stopped', 'running', ...SHARED],
  remote: ['disconnected', 'connected', ...SHARED],
};

/**
 * How a server suspended in its definition is resumed, said wherever it shows as down (the
 * ready line, list_servers, a call to one of its tools): stopped alone does not tell a
 * person it will stay so until they act.
 */
export function resumeAdvice(servicePrefix: string, name: string): string {
  return `resume with ${coreToolName(servicePrefix, 'core_mcpserver_update')} ${JSON.stringify({ name, suspended: false })}, or remove 'suspended: true' from its file`;
}
