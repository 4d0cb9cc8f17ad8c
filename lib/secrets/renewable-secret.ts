/**
 * A credential the operator keeps outside Switchboard (`{fromFile: path}`, `${NAME}` from
 * secrets.env) that Switchboard shows to another party (an embeddings endpoint, an identity
 * provider): resolved at start, and again when that party refuses it. A key renewed where it
 * is kept then takes effect at the first refusal, with no restart and nothing read on the
 * request path while the key in use is accepted.
 */
import { resolveSecretValue, type ResolveContext, type SecretValue } from '../../kernel/index.js';
import { referenceEnvironment } from './secrets-env.js';

/** At most one read again per this many milliseconds, however many requests are refused. */
const RENEW_AT_MOST_EVERY_MS = 1000;

export class RenewableSecret {
  private value: string;
  private readAt = 0;
  /** The read in progress: refusals within its second wait for it rather than answer with the old value. */
  private reading: Promise<void> | undefined;

  /**
   * `first`: the value in use now; `reread` reads the reference again (and reports the value for
   * scrubbing), throwing or rejecting when it cannot. `RenewableSecret.of` for a reference read
   * the same way at start.
   */
  constructor(
    first: string,
    private readonly reread: () => string | Promise<string>,
    private readonly now: () => number = Date.now,
  ) {
    this.value = first;
  }

  /** Resolved now (a reference that cannot be resolved fails the start) and again at each renewal. */
  static of(resolve: () => string, now?: () => number): RenewableSecret {
    return new RenewableSecret(resolve(), resolve, now);
  }

  get current(): string {
    return this.value;
  }

  /**
   * `sent` was refused: reads the reference again and answers whether the value in use now
   * differs from `sent`, so that the refused request is worth sending once more with it.
   * Requests refused together (sent before the renewal) all retry with the new value, whichever
   * of them read it: the read is throttled, the comparison is not.
   */
  async refused(sent: string): Promise<boolean> {
    await this.renew();
    return this.value !== sent;
  }

  /**
   * The value, read again when the last read is a second old or more: for a secret presented to
   * Switchboard (a broker client's), compared at each use, so a renewed one is accepted within
   * a second of being written, and an unknown one costs at most one read a second.
   */
  async fresh(): Promise<string> {
    await this.renew();
    return this.value;
  }

  /**
   * Reads it again (at most once a second). A reference that no longer resolves or reads empty
   * (a file caught halfway through a save) keeps the value in use.
   */
  private renew(): Promise<void> {
    const now = this.now();
    if (this.reading && now - this.readAt < RENEW_AT_MOST_EVERY_MS) return this.reading;
    this.readAt = now;
    this.reading = (async () => {
      try {
        const fresh = await this.reread();
        if (fresh !== '') this.value = fresh;
      } catch {
        // Unreadable now: the value in use stays.
      }
    })();
    return this.reading;
  }
}

/**
 * `value` (a literal, `${NAME}` or `{fromFile}`) for `field`, resolved now and again at each
 * renewal: `${NAME}` reads Switchboard's environment, then the configuration's secrets.env.
 */
export function renewableReference(value: SecretValue, field: string, ctx: ResolveContext): RenewableSecret {
  return RenewableSecret.of(() => resolveSecretValue(value, field, { ...ctx, env: referenceEnvironment(ctx.configPath, ctx.env) }));
}
