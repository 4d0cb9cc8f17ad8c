/**
 * The secrets a server's definition references (`{fromFile: ...}`, `${NAME}` from secrets.env),
 * read again while the server is wanted, so that a credential renewed where it is kept takes
 * effect without anyone touching Switchboard: a token a sidecar renews (Vault agent), a
 * projected service-account token the kubelet rotates, a file created after the server failed
 * for want of it, a key changed in secrets.env.
 *
 * Polled, not watched: a Kubernetes Secret volume renews a file by swapping a symlink two levels
 * up, a network filesystem sends no events, and a read of a few small files per server every
 * few seconds costs nothing a call would feel (the call path never reads them).
 *
 * What a change does depends on where the value goes. A remote server's headers are read by
 * its transport at each request: they are updated in place and the next request carries them,
 * with no new session and no call in flight lost. A stdio server's environment is fixed when
 * its process starts, and a `type: sse` transport takes its headers once: those connect again,
 * as an edit of the definition would make them. A server waiting for credentials
 * (auth_required after a 401, failed on a 403 or an unresolvable reference) connects again as
 * soon as what its references resolve to changes.
 */
import { isReference, type McpServerDefinition } from '../../kernel/index.js';
import { resolvedSecrets } from './resolved-secrets.js';

/** Default of the upstreams option `secretPollSeconds`. */
export const SECRET_POLL_SECONDS = 10;

export interface ResolvedSecrets {
  env: Record<string, string>;
  headers: Record<string, string>;
}

/** What a look at the references found. */
export type SecretLook =
  | { kind: 'same' }
  /** Unreadable now: nothing is changed (the next connect says why, if it comes to that). */
  | { kind: 'unresolved' }
  /** A value turned empty (a file caught halfway through a save, a broken renewal): the one in use stays. `fields`: those not said yet. */
  | { kind: 'empty'; fields: string[] }
  /** Headers only, and the transport reads them at each request: `apply` updates them there. */
  | { kind: 'headers'; fields: string[]; apply(): void }
  /** What changed is fixed for the connection's life (or it is waiting for credentials). */
  | { kind: 'reconnect'; fields: string[] };

/** True when some value of `env` or `headers` comes from a file or a variable. */
export function hasReferences(def: Pick<McpServerDefinition, 'env' | 'headers'>): boolean {
  return Object.values(def.env).some(isReference) || Object.values(def.headers).some(isReference);
}

/** The value of `env.NAME` or `headers.NAME`. */
function valueOf(resolved: ResolvedSecrets, field: string): string | undefined {
  const dot = field.indexOf('.');
  return resolved[field.slice(0, dot) as keyof ResolvedSecrets][field.slice(dot + 1)];
}

/** The names (never the values) of the fields whose value differs. */
function changedFields(before: ResolvedSecrets | undefined, after: ResolvedSecrets): string[] {
  const changed: string[] = [];
  for (const part of ['env', 'headers'] as const) {
    const names = new Set([...Object.keys(before?.[part] ?? {}), ...Object.keys(after[part])]);
    for (const name of names) if (before?.[part][name] !== after[part][name]) changed.push(`${part}.${name}`);
  }
  return changed;
}

/** What the log says of a look (names of fields only, never a value); undefined: nothing to say. */
export function rotationLine(found: SecretLook): { level: 'info' | 'warn'; text: string } | undefined {
  if (found.kind === 'same' || found.kind === 'unresolved' || found.fields.length === 0) return undefined;
  const [names, one] = [found.fields.join(', '), found.fields.length === 1];
  const where = `where ${one ? 'it is' : 'they are'} kept`;
  if (found.kind === 'empty') return { level: 'warn', text: `${names} ${one ? 'reads' : 'read'} empty ${where}: the value in use stays until it is renewed` };
  const then = found.kind === 'headers' ? 'the next requests carry the new value' : 'connecting again';
  return { level: 'info', text: `${names} changed ${where}: ${then}` };
}

export class SecretRotation {
  /** What the connection was made with, as resolved (undefined: resolving failed, or not yet made). */
  private used: ResolvedSecrets | undefined;
  /** The headers object the transport reads at each request, for a streamable-HTTP server. */
  private live: Record<string, string> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Fields found empty and said so, until they are not. */
  private saidEmpty = new Set<string>();

  /** Calls `look` every `ms` until stopped (a timer that keeps no process alive). */
  poll(ms: number, look: () => void): void {
    if (this.timer || ms <= 0) return;
    this.timer = setInterval(look, ms);
    this.timer.unref();
  }

  stopPolling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A connection was made with `resolved`; `liveHeaders`: the object its transport reads per request. */
  madeWith(resolved: ResolvedSecrets, liveHeaders?: Record<string, string>): void {
    this.used = { env: { ...resolved.env }, headers: { ...resolved.headers } };
    this.live = liveHeaders;
  }

  /** Resolving failed at connect: any value that resolves later is a change. */
  unresolved(): void {
    this.used = undefined;
    this.live = undefined;
  }

  /**
   * Resolves `def`'s references again and says what should happen. `updatable`: the connection
   * is up and its transport reads headers per request. `onSecret` hears every value read, so a
   * new one is scrubbed from logs and results before it is used.
   */
  look(def: McpServerDefinition, configPath: string, updatable: boolean, onSecret: (value: string) => void): SecretLook {
    let fresh: ResolvedSecrets;
    const read: string[] = [];
    try {
      fresh = resolvedSecrets(def, configPath, (value) => read.push(value));
    } catch {
      return { kind: 'unresolved' };
    }
    const fields = changedFields(this.used, fresh);
    const emptied = fields.filter((f) => valueOf(fresh, f) === '');
    const unsaid = emptied.filter((f) => !this.saidEmpty.has(f));
    this.saidEmpty = new Set(emptied);
    if (emptied.length) return { kind: 'empty', fields: unsaid };
    if (fields.length === 0) return { kind: 'same' };
    for (const value of read) onSecret(value);
    const live = this.live;
    if (updatable && live && this.used && fields.every((f) => f.startsWith('headers.'))) {
      return {
        kind: 'headers',
        fields,
        apply: () => {
          for (const f of fields) {
            const header = f.slice('headers.'.length);
            // The same names as when connected: only an edit of the definition changes them, and that connects again.
            const value = fresh.headers[header];
            if (value !== undefined) live[header] = value;
          }
          this.used = { env: { ...fresh.env }, headers: { ...fresh.headers } };
        },
      };
    }
    return { kind: 'reconnect', fields };
  }
}
