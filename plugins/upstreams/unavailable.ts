/**
 * What a call to a server that is not running says: which server, in which state, why,
 * when it retries by itself, and the core tool call that starts it now. A person (or an
 * agent) reading it knows what to do next. A stopped server is "server not found: <server>",
 * the words clients of the reference match on (reference-behaviour §8), with the same advice.
 */
import { coreToolName, reportedState, resumeAdvice, ServerUnavailableError, type LifecycleState } from '../../kernel/index.js';

export interface UnavailableFacts {
  name: string;
  /** The transport, which names the state reported in the details (a remote server is `disconnected`, not `stopped`). */
  type: string;
  state: LifecycleState;
  error?: string | undefined;
  nextRetryAt?: Date | undefined;
  suspended: boolean;
  /** Down for a reason no retry heals: the error says what to change (lasting-failure.ts). */
  lasting?: boolean;
}

export function unavailable(facts: UnavailableFacts, servicePrefix: string): ServerUnavailableError {
  const { name, state } = facts;
  const args = JSON.stringify({ name });
  const next = facts.nextRetryAt?.toISOString();
  const start = `${coreToolName(servicePrefix, 'core_service_start')} ${args}`;
  // A remote server that is down is down at its end: restarting the connection here cannot help.
  const remote = facts.type !== 'stdio';
  let advice: string;
  if (facts.suspended) advice = `it is suspended in its definition; ${resumeAdvice(servicePrefix, name)}`;
  else if (state === 'stopped') advice = `start it with ${start}`;
  else if (state === 'starting') advice = 'it is starting; call again in a moment';
  else if (facts.lasting) advice = `after that change, ${start} tries again`;
  else if (remote && next) advice = `it reconnects by itself at ${next}, once the remote server answers`;
  else if (next) advice = `it reconnects by itself at ${next}, or now with ${coreToolName(servicePrefix, 'core_service_restart')} ${args}`;
  else if (remote) advice = `the remote server is not answering; ${start} tries again`;
  else advice = `restart it with ${coreToolName(servicePrefix, 'core_service_restart')} ${args}`;
  const reason = `${state}${facts.error ? ` (${facts.error})` : ''}; ${advice}`;
  const details = { state: reportedState(facts.type, state), ...(next ? { nextRetryAfter: next } : {}) };
  if (state === 'stopped') return new ServerUnavailableError(name, reason, details, `server not found: ${name} (${reason})`);
  return new ServerUnavailableError(name, reason, details);
}
