/**
 * What a call to a server that is not running says: which server, in which state, why,
 * when it retries by itself, and the core tool call that starts it now. A person (or an
 * agent) reading it knows what to do next.
 */
import type { ServiceState } from '../../kernel/contracts/lifecycle.js';
import { ServerUnavailableError } from '../../kernel/errors.js';
import { coreToolName } from '../../kernel/tools.js';

export interface UnavailableFacts {
  name: string;
  state: ServiceState;
  error?: string | undefined;
  nextRetryAt?: Date | undefined;
  suspended: boolean;
}

export function unavailable(facts: UnavailableFacts, servicePrefix: string): ServerUnavailableError {
  const { name, state } = facts;
  const args = JSON.stringify({ name });
  const next = facts.nextRetryAt?.toISOString();
  let advice: string;
  if (facts.suspended)
    advice = `it is suspended in its definition; resume it with ${coreToolName(servicePrefix, 'core_mcpserver_update')} ${JSON.stringify({ name, suspended: false })}`;
  else if (state === 'stopped') advice = `start it with ${coreToolName(servicePrefix, 'core_service_start')} ${args}`;
  else if (next) advice = `it reconnects by itself at ${next}, or now with ${coreToolName(servicePrefix, 'core_service_restart')} ${args}`;
  else advice = `restart it with ${coreToolName(servicePrefix, 'core_service_restart')} ${args}`;
  const reason = `${state}${facts.error ? ` (${facts.error})` : ''}; ${advice}`;
  return new ServerUnavailableError(name, reason, { state, ...(next ? { nextRetryAfter: next } : {}) });
}
