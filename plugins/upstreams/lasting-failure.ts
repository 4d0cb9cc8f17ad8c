/**
 * Failures no retry can heal: a command that is not installed, a `${VAR}` that is not set or
 * a referenced file that cannot be read, a package npm does not have, a server that refuses
 * the credentials. Retrying them on the backoff only repeats the same WARN forever; the
 * connection stops in `failed` with a reason that says what to change, and tries again when
 * its definition changes (registry.ts), someone starts or restarts it, or what its references
 * resolve to changes (secret-rotation.ts). Everything else (a
 * refused connection, a crash, a timeout) may heal by itself and keeps backing off.
 */
import { SwitchboardError } from '../../kernel/index.js';
import { HttpStatusError } from './client/http-answer.js';

/** A stdio server's command is not on Switchboard's PATH (build-transport.ts). */
export class CommandNotFoundError extends Error {
  constructor(
    readonly command: string,
    configPath: string,
  ) {
    super(`command '${command}' is not found on Switchboard's PATH (or relative to ${configPath})`);
  }
}

/** What no retry changes, said once at the end of every lasting reason. */
export const NOT_RETRIED = 'not retried until its definition changes or it is started again';

/** npm's words for a package it does not have, as `npx` prints them on stderr. */
const NPM_NOT_FOUND = /\b(?:E404|404 Not Found)\b/;
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/;

/** A 403 at connect, down the cause chain (the SDK may wrap the transport's error). */
function refused(err: unknown): boolean {
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e instanceof HttpStatusError && e.status === 403) return true;
    if (e.constructor.name === 'SseError' && (e as { code?: unknown }).code === 403) return true;
  }
  return false;
}

/** Said of a reference that does not resolve while its references are read again (secret-rotation.ts). */
export const RETRIED_WHEN_RESOLVED = 'tried again as soon as it resolves';

/**
 * The reason with advice when `err` cannot heal by retrying; undefined when it may.
 * `rereadsSecrets`: the connection reads its references again on a timer, so a reference that
 * resolves later (a file created, a secrets.env entry added) connects it without an edit.
 */
export function lastingFailure(err: unknown, rereadsSecrets = false): string | undefined {
  if (err instanceof CommandNotFoundError) return `${err.message}: install it, or change 'command' in the definition; ${NOT_RETRIED}`;
  if (err instanceof SwitchboardError && err.code === 'SECRET_UNRESOLVED') {
    const field = typeof err.details?.field === 'string' ? err.details.field : 'the reference';
    const variable = REFERENCE.exec(err.message)?.[1];
    const fix = variable
      ? `set ${variable} in secrets.env (config directory) or in Switchboard's environment, or change ${field} in the definition`
      : `create the file${rereadsSecrets ? '' : ' (then edit the definition or start the server again)'}, or change ${field} in the definition`;
    return `${err.message}: ${fix}; ${rereadsSecrets ? RETRIED_WHEN_RESOLVED : NOT_RETRIED}`;
  }
  if ((err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' && (err as NodeJS.ErrnoException).syscall?.startsWith('spawn'))
    return `${(err as Error).message}: install the command, or change 'command' in the definition; ${NOT_RETRIED}`;
  if (refused(err)) {
    return rereadsSecrets
      ? `the server refused Switchboard's credentials (HTTP 403): renew the secret its 'headers' reference, or change its 'headers' (or 'auth') in the definition; tried again as soon as either changes`
      : `the server refused Switchboard's credentials (HTTP 403): change its 'headers' (or 'auth') in the definition; ${NOT_RETRIED}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (NPM_NOT_FOUND.test(message)) {
    // The line that names the package ("404 Not Found - GET <url>") rather than npm's code line.
    const lines = message.split(' | ');
    const line = lines.find((l) => l.includes('404 Not Found')) ?? lines.find((l) => NPM_NOT_FOUND.test(l)) ?? message;
    return `npm has no such package (${line.replace(/^.*?last words on stderr: /, '').trim()}): check the package name in 'args'; ${NOT_RETRIED}`;
  }
  return undefined;
}
