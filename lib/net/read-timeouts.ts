/**
 * How long a client may take to send a request. Node's defaults (60 s for headers, 300 s
 * for the whole request, checked every 30 s) let a client that trickles its headers or body
 * hold a connection and its memory for minutes; these come from aggregator.limits instead.
 * They bound reading the request only: a long call or an open event stream is not cut.
 */
import type { AggregatorLimits } from '../../kernel/index.js';

export interface ReadTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  /** How often Node looks for connections past those limits: at most a second late. */
  connectionsCheckingInterval: number;
}

export function readTimeouts(limits: Pick<AggregatorLimits, 'headersTimeoutSeconds' | 'requestTimeoutSeconds'>): ReadTimeouts {
  const requestTimeout = Math.round(limits.requestTimeoutSeconds * 1000);
  // Node refuses a headers limit above the whole request's.
  const headersTimeout = Math.min(Math.round(limits.headersTimeoutSeconds * 1000), requestTimeout);
  return { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout) };
}
