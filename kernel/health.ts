/**
 * What /health says. The listener plugin answers it; any plugin whose trouble makes the
 * instance degraded without making it dead (a shared store it cannot reach) contributes a
 * probe here, so the listener need not know which plugins exist.
 */

/** One contributor's state: read on every /health request, so it must be a field read, not I/O. */
export type HealthContribution = { readonly status: 'healthy' } | { readonly status: 'degraded'; readonly reason: string };

export interface HealthProblem {
  readonly source: string;
  readonly reason: string;
}

/**
 * `ok`, or `degraded` with every contributor's reason. Degraded still serves what it can
 * (sessions it holds, calls that need nothing shared), so it is not a reason to restart it.
 */
export type HealthReport = { readonly status: 'ok' } | { readonly status: 'degraded'; readonly reason: string; readonly problems: readonly HealthProblem[] };

export class HealthRegistry {
  private readonly probes = new Map<string, () => HealthContribution>();

  /** `source` names the contributor in the report (a plugin's name); a second probe under the same name replaces the first. */
  contribute(source: string, probe: () => HealthContribution): void {
    this.probes.set(source, probe);
  }

  report(): HealthReport {
    const problems: HealthProblem[] = [];
    for (const [source, probe] of this.probes) {
      const state = probe();
      if (state.status === 'degraded') problems.push({ source, reason: state.reason });
    }
    if (problems.length === 0) return { status: 'ok' };
    return { status: 'degraded', reason: problems.map((p) => `${p.source}: ${p.reason}`).join('; '), problems };
  }
}
