/**
 * A 2026-07-28 upstream's tools/call result as Switchboard's direct path takes it
 * (plugins/upstreams/client/modern-results.ts): judged as the v2 client judges one, so that a
 * server the v2 client would refuse is refused here too, naming what is wrong.
 */
import { expect } from 'chai';
import { outcome, withoutEnvelope } from '../../plugins/upstreams/client/modern-results.js';

describe("a modern upstream's tools/call result on the direct path", () => {
  it('passes a complete result and an input_required one that asks or carries state', () => {
    const done = { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] };
    expect(outcome(done)).to.equal(done);
    const asks = { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: {} } } };
    expect(outcome(asks)).to.equal(asks);
    const state = { resultType: 'input_required', requestState: 'opaque' };
    expect(outcome(state)).to.equal(state);
  });

  it('refuses a result without resultType (2026-07-28 requires it), of another type, or not an object', () => {
    expect(() => outcome({ content: [] })).to.throw(/missing required resultType/);
    expect(() => outcome({ resultType: 'task', content: [] })).to.throw(/Unsupported result type "task"/);
    expect(() => outcome({ resultType: 7 })).to.throw(/Unsupported result type 7/);
    expect(() => outcome([{ resultType: 'complete' }])).to.throw(/not an object/);
    expect(() => outcome(null)).to.throw(/not an object/);
  });

  it('refuses an input_required result that neither asks nor carries state: a retry could never differ', () => {
    expect(() => outcome({ resultType: 'input_required', inputRequests: {} })).to.throw(/neither inputRequests nor requestState/);
  });

  it("is relayed without the upstream's serverInfo, ttlMs, cacheScope and resultType, keeping the rest of _meta", () => {
    const result = {
      resultType: 'complete',
      ttlMs: 5,
      cacheScope: 'public',
      content: [],
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'up', version: '1' }, trace: 'x' },
    };
    expect(withoutEnvelope(result)).to.deep.equal({ content: [], _meta: { trace: 'x' } });
  });
});
