/**
 * limits: what one client may ask of a shared gateway. A session limit (refused at
 * initialize with 503, in all and per caller), the size of a tool call's arguments, and a per-session rate limit
 * on call_tool/call_tools (a RATE_LIMITED result saying when to retry, like HTTP 429), and a
 * nesting depth for every meta-tool's arguments (deeper ones would overflow recursive code).
 * In cluster mode (a `rate-limiter` service) the rate limit is per caller, counted across replicas.
 * Settings live in `aggregator.limits` and apply live on reload.
 */
import {
  definePlugin,
  RateLimitedError,
  SessionLimitError,
  TooDeepError,
  TooLargeError,
  type AggregatorLimits,
  type RequestContext,
  type Session,
} from '../../kernel/index.js';
import { exceedsDepth } from './json-depth.js';
import { callerOf, countedAcrossReplicas, countOf } from './session-callers.js';
import { SessionLeases } from './session-leases.js';
import { TokenBucket } from '../../lib/limits/token-bucket.js';

const BUCKET = Symbol('limits:bucket');

/** The arguments each call of this request would run with, for the meta-tools that run tools. */
function callArguments(request: RequestContext): unknown[] {
  const args = request.arguments ?? {};
  if (request.metaTool === 'call_tool') return [args.arguments ?? {}];
  if (request.metaTool === 'call_tools' && Array.isArray(args.calls)) return args.calls.map((c: { arguments?: unknown } | null) => c?.arguments ?? {});
  return [];
}

export default definePlugin({
  name: 'limits',
  description: 'Session limit, tool-argument size limit and per-session rate limit on tool calls.',
  provides: [],
  // cluster-redis, in cluster mode: rate limits counted across replicas.
  uses: ['rate-limiter', 'session-counter'],
  setup({ kernel, log }) {
    const limits = () => kernel.settings().aggregator.limits;

    const sessionCounter = kernel.services.find('session-counter');
    // Client addresses are the clients' own only when trusted proxies say so (X-Forwarded-For).
    const addressesAreClients = (): boolean => kernel.settings().aggregator.oauth.server.trustedProxyCIDRs.length > 0;
    const lease = sessionCounter ? new SessionLeases(kernel, sessionCounter, log, addressesAreClients) : undefined;

    kernel.hooks.onSessionOpen.tap('limits', (session: Session) => {
      // A session another replica opened, taken up here, is no new session: it was counted when it opened.
      if (session.resumed) return;
      const { maxSessions, maxSessionsPerPrincipal } = limits();
      if (maxSessions > 0 && kernel.sessions.size >= maxSessions) throw new SessionLimitError(maxSessions);
      if (maxSessionsPerPrincipal > 0) {
        const caller = callerOf(session);
        // Cluster mode counts every caller's sessions across replicas (onSessionAdmit); one process counts here.
        if (lease && caller && countedAcrossReplicas(caller, addressesAreClients())) return;
        // Counted afresh (initialize is rare): no counter to drift when a later tap refuses the session.
        if (caller && countOf(kernel.sessions.all(), caller) >= maxSessionsPerPrincipal) throw new SessionLimitError(maxSessionsPerPrincipal, caller.shown);
      }
    });

    if (lease) {
      kernel.hooks.onSessionAdmit.tapPromise('limits', (session) => lease.admit(session, limits().maxSessionsPerPrincipal));
      // Only a real end frees a place: a copy dropped here (idle here, this replica stopping) is still a session elsewhere.
      kernel.hooks.onSessionClose.tap('limits', (session) => {
        if (!session.continuesElsewhere) lease.release(session);
      });
    }

    /** The size and depth checks every process makes; returns how many calls the request runs. */
    const checkArguments = (request: RequestContext, { maxArgumentBytes, maxArgumentDepth }: AggregatorLimits): number => {
      if (request.arguments && exceedsDepth(request.arguments, maxArgumentDepth))
        throw new TooDeepError(`The arguments of ${request.metaTool ?? 'this request'}`, maxArgumentDepth);
      const calls = callArguments(request);
      for (const args of calls) {
        const bytes = Buffer.byteLength(JSON.stringify(args));
        if (bytes > maxArgumentBytes) throw new TooLargeError("The tool call's arguments", bytes, maxArgumentBytes);
      }
      return calls.length;
    };

    const counted = kernel.services.find('rate-limiter');
    if (counted) {
      // Cluster mode: one caller's calls counted across replicas (the person when signed in,
      // else the session: behind a balancer every client shares the balancer's address).
      // One Redis round trip per metered request, none when no rate limit is set.
      kernel.hooks.onRequest.tapPromise('limits', async (request) => {
        const current = limits();
        const calls = checkArguments(request, current);
        const { rateLimit } = current;
        if (calls === 0 || rateLimit.callsPerSecond <= 0) return;
        // A 2026-07-28 request has no session that lasts: an anonymous one is counted by its address.
        const session = request.session;
        const caller =
          request.identity?.subject !== undefined
            ? `sub:${request.identity.subject}`
            : session.stateless
              ? `addr:${session.clientAddress ?? session.peer ?? ''}`
              : `session:${session.id}`;
        const wait = await counted.take(caller, Math.min(calls, rateLimit.burst), rateLimit);
        if (wait > 0) throw new RateLimitedError(rateLimit.callsPerSecond, rateLimit.burst, wait, 'caller');
      });
      return lease && { start: () => lease.start(), stop: () => lease.stop() };
    }

    // Synchronous: nothing here waits, and a sync tap costs the per-call hook chain no promise of its own.
    kernel.hooks.onRequest.tap('limits', (request) => {
      const current = limits();
      const calls = checkArguments(request, current);
      const { rateLimit } = current;
      if (calls === 0 || rateLimit.callsPerSecond <= 0) return;
      const slots = request.session.slots;
      let bucket = slots.get(BUCKET) as TokenBucket | undefined;
      if (!bucket) {
        bucket = new TokenBucket(rateLimit.callsPerSecond, rateLimit.burst, Date.now());
        slots.set(BUCKET, bucket);
      }
      // A batch larger than the bucket could never pass; it costs the whole bucket instead.
      const wait = bucket.take(Math.min(calls, rateLimit.burst), Date.now());
      if (wait > 0) throw new RateLimitedError(rateLimit.callsPerSecond, rateLimit.burst, wait);
    });
    return lease && { start: () => lease.start(), stop: () => lease.stop() };
  },
});
