/**
 * Cluster mode's per-caller session limit: each caller's sessions (a signed-in person's, else
 * a client address's, as trusted proxies report it) counted across replicas by the
 * `session-counter` service. A session is admitted before it opens (refused
 * with SESSION_LIMIT like the single-process limit), released when it closes, and its lease
 * renewed while this replica holds it, so sessions of a replica that died stop counting.
 */
import { SessionLimitError, type CountedSession, type KernelApi, type Logger, type Session, type SessionCounter } from '../../kernel/index.js';
import { callerOf, countedAcrossReplicas } from './session-callers.js';

export class SessionLeases {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly kernel: KernelApi,
    private readonly counter: SessionCounter,
    private readonly log: Logger,
    /** Whether client addresses come from trusted proxies (else they may all be the balancer's). */
    private readonly addressesAreClients: () => boolean,
  ) {}

  private counted(session: Session): CountedSession | undefined {
    const caller = callerOf(session);
    return caller && countedAcrossReplicas(caller, this.addressesAreClients()) ? { caller: caller.key, sessionId: session.id } : undefined;
  }

  async admit(session: Session, limit: number): Promise<void> {
    // Taken up from another replica: counted when it opened, and its lease renewed from here on.
    if (limit <= 0 || session.resumed) return;
    const counted = this.counted(session);
    if (!counted) return;
    if (!(await this.counter.admit(counted, limit))) throw new SessionLimitError(limit, callerOf(session)?.shown);
  }

  release(session: Session): void {
    const counted = this.counted(session);
    if (!counted) return;
    this.counter.release(counted).catch((err: unknown) => {
      this.log.warn(`session ${session.id} could not be released from the shared count (${(err as Error).message}); it stops counting when its lease lapses`);
    });
  }

  start(): void {
    this.timer = setInterval(() => {
      const held = [...this.kernel.sessions.all()].flatMap((s) => this.counted(s) ?? []);
      this.counter.keepAlive(held).catch((err: unknown) => {
        this.log.warn(
          `the leases of this replica's sessions could not be renewed (${(err as Error).message}); retried in ${this.counter.renewEveryMs / 1000} s`,
        );
      });
    }, this.counter.renewEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
