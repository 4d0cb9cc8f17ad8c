/**
 * What a 2026-07-28 upstream's results are to Switchboard: judged as the v2 client would judge
 * them, relayed without what that revision adds about the upstream itself.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { ResultSink } from '../../../kernel/index.js';

type Raw = Record<string, unknown>;

/**
 * The result of a call that goes through the v2 client (one with progress to forward; every
 * other call is direct, judged by `outcome`) is relayed as a legacy upstream's is: unparsed,
 * the caller's side checks and limits it. The v2 client's own result schema would parse every
 * answer with zod, after a probe parse of `undefined` that builds and prints a zod error per
 * request: about a tenth of Switchboard's CPU on a call to a modern upstream (a profile of
 * 6,000 calls). The codec still tells `input_required` apart before this runs.
 */
export const RELAYED_RESULT: StandardSchemaV1<unknown, Raw> = {
  '~standard': {
    version: 1,
    vendor: 'switchboard',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Raw }
        : { issues: [{ message: 'a tools/call result must be an object' }] },
  },
};

/** The upstream's own identity in a result's `_meta` (2026-07-28): Switchboard is the caller's server, not it. */
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/**
 * A result as Switchboard relays it to a caller of either era: without what 2026-07-28 adds
 * about the upstream itself (its serverInfo in `_meta`, the `ttlMs` and `cacheScope` of its
 * answer, `resultType`). A 2025-11-25 caller has no use for them, and a 2026-07-28 caller gets
 * Switchboard's own. The result is the one just parsed from the wire: changed in place.
 */
export function withoutEnvelope<T extends Raw>(result: T): T {
  const meta = result._meta as Raw | undefined;
  if (meta && SERVER_INFO_META_KEY in meta) {
    const { [SERVER_INFO_META_KEY]: _upstream, ...rest } = meta;
    if (Object.keys(rest).length === 0) delete result._meta;
    else (result as Raw)._meta = rest;
  }
  delete result.ttlMs;
  delete result.cacheScope;
  delete result.resultType;
  return result;
}

/**
 * What a ResultSink gets of a direct call's result as it is taken: a complete one, as callTool
 * returns it (`outcome` passes it, `withoutEnvelope` strips it); an `input_required` one goes
 * on to its next round, anything else to `outcome`'s error. A copy: the call's own result is
 * still to be judged, unchanged.
 */
export function earlyComplete(sink: ResultSink): (result: Raw) => void {
  return (result) => {
    if (result.resultType === 'complete') sink(withoutEnvelope({ ...result }) as CallToolResult);
  };
}

/**
 * A tools/call result taken off the wire directly, judged as the v2 client judges one
 * (`decodeResult`): an object naming its `resultType` (2026-07-28 requires it), `complete` or
 * `input_required`, the latter carrying inputRequests or a requestState. The content itself is
 * checked and limited on the caller's side, as a legacy upstream's is.
 */
export function outcome(value: unknown): Raw {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('Invalid result for tools/call: not an object');
  const result = value as Raw;
  const type = result.resultType;
  if (type === 'complete') return result;
  if (type === undefined) throw new Error('Invalid result for tools/call: missing required resultType (a 2026-07-28 server must include it)');
  if (type !== 'input_required') throw new Error(`Unsupported result type ${JSON.stringify(type)} for tools/call`);
  const requests = result.inputRequests;
  const asks = typeof requests === 'object' && requests !== null && Object.keys(requests).length > 0;
  if (!asks && typeof result.requestState !== 'string')
    throw new Error('Invalid result for tools/call: input_required carries neither inputRequests nor requestState');
  return result;
}
