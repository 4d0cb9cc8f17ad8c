/**
 * Redis' maxmemory-policy, checked at startup and on every reconnect (a restarted or failed-over
 * server may come back configured otherwise). Anything but `noeviction` lets Redis drop
 * sessions, tasks, executions, events, counters and liveness keys under memory pressure
 * without a word (issue 36, finding 5), so /health says `degraded`, naming the policy and
 * the fix.
 *
 * Read with CONFIG GET; where CONFIG is disabled or renamed (managed services often do), from
 * INFO memory's `maxmemory_policy`. Where neither answers the policy is `unknown`: a warning in
 * the log, and /health stays as it is, since an operator who cannot read the setting often
 * cannot change it either and a permanent `degraded` would hide real trouble
 * (docs/scale-out.md, "Memory and eviction").
 */
import type { HealthContribution, Logger } from '../../kernel/index.js';
import type { RedisConnection } from '../../lib/redis/connection.js';

export type EvictionPolicy =
  | { readonly kind: 'unchecked' }
  | { readonly kind: 'safe' }
  | { readonly kind: 'evicting'; readonly policy: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/** The policy this deployment needs. */
const SAFE = 'noeviction';

export class EvictionPolicyCheck {
  private state: EvictionPolicy = { kind: 'unchecked' };
  private stopListening: (() => void) | undefined;
  /** The last check started: a reconnect during one starts another, and only the newest counts. */
  private generation = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly log: Logger,
  ) {}

  /** Checks now, and again whenever both connections are ready after a loss. */
  async start(): Promise<void> {
    this.stopListening = this.redis.onHealthChange((healthy) => {
      if (healthy) void this.check();
    });
    await this.check();
  }

  stop(): void {
    this.stopListening?.();
  }

  get policy(): EvictionPolicy {
    return this.state;
  }

  /** For /health: a field read. */
  health(): HealthContribution {
    if (this.state.kind !== 'evicting') return { status: 'healthy' };
    return {
      status: 'degraded',
      reason:
        `Redis maxmemory-policy is ${this.state.policy}: under memory pressure Redis evicts sessions, tasks, executions and events without notice; ` +
        `set maxmemory-policy noeviction (redis.conf, or CONFIG SET maxmemory-policy noeviction) and give Redis the memory it needs`,
    };
  }

  async check(): Promise<EvictionPolicy> {
    const mine = ++this.generation;
    const next = await this.read();
    if (mine !== this.generation) return this.state;
    const before = this.state;
    this.state = next;
    if (next.kind === 'evicting' && (before.kind !== 'evicting' || before.policy !== next.policy)) {
      this.log.warn(
        `Redis maxmemory-policy is ${next.policy}, not ${SAFE}: it may evict shared records under memory pressure; /health says degraded until it is ${SAFE}`,
      );
    } else if (next.kind === 'unknown' && before.kind !== 'unknown') {
      this.log.warn(`Redis maxmemory-policy cannot be read (${next.reason}); make sure it is ${SAFE}, or Redis may evict shared records under memory pressure`);
    } else if (next.kind === 'safe' && before.kind === 'evicting') {
      this.log.info(`Redis maxmemory-policy is ${SAFE} now`);
    }
    return next;
  }

  private async read(): Promise<EvictionPolicy> {
    let configProblem: string;
    try {
      const answer: unknown = await this.redis.client.call('CONFIG', 'GET', 'maxmemory-policy');
      const policy: unknown = Array.isArray(answer) ? answer[1] : undefined;
      if (typeof policy === 'string' && policy !== '') return classify(policy);
      configProblem = 'CONFIG GET maxmemory-policy answered nothing';
    } catch (err) {
      configProblem = `CONFIG GET: ${(err as Error).message}`;
    }
    try {
      const info = await this.redis.client.info('memory');
      const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
      if (policy) return classify(policy);
      return { kind: 'unknown', reason: `${configProblem}; INFO memory names no maxmemory_policy` };
    } catch (err) {
      return { kind: 'unknown', reason: `${configProblem}; INFO memory: ${(err as Error).message}` };
    }
  }
}

function classify(policy: string): EvictionPolicy {
  return policy === SAFE ? { kind: 'safe' } : { kind: 'evicting', policy };
}
