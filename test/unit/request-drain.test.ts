import { expect } from 'chai';
import { RequestDrain } from '../../plugins/upstreams/request-drain.js';

/** A request the test answers when it likes. */
function pending(): { promise: Promise<string>; answer: (v: string) => void } {
  let answer!: (v: string) => void;
  const promise = new Promise<string>((resolve) => (answer = resolve));
  return { promise, answer };
}

describe('upstreams: requests in flight across a renewal (request-drain)', () => {
  it('counts a request until it is answered or fails', async () => {
    const drain = new RequestDrain();
    const a = pending();
    const answered = drain.track(a.promise);
    const failed = drain.track(Promise.reject(new Error('refused')));
    expect(drain.count).to.equal(2);
    await failed.catch(() => undefined);
    expect(drain.count).to.equal(1);
    a.answer('ok');
    expect(await answered).to.equal('ok');
    expect(drain.count).to.equal(0);
  });

  it('restarts only once the requests in flight have ended, holding new ones until it has', async () => {
    const drain = new RequestDrain();
    const inFlight = pending();
    const tracked = drain.track(inFlight.promise);
    const order: string[] = [];
    const renewal = drain.holdFor(60_000, async () => {
      order.push('restart');
    });
    expect(drain.held, 'new requests are held').to.be.instanceOf(Promise);
    const heldRequest = drain.held!.then(() => order.push('held request sent'));
    await new Promise((r) => setImmediate(r));
    expect(order, 'nothing restarts while a request is in flight').to.deep.equal([]);
    inFlight.answer('done');
    await tracked;
    await renewal;
    await heldRequest;
    expect(order).to.deep.equal(['restart', 'held request sent']);
    expect(drain.held).to.equal(undefined);
  });

  it('restarts after the wait even when a request is still in flight, and a second renewal meanwhile is a no-op', async () => {
    const drain = new RequestDrain();
    void drain.track(pending().promise);
    let restarts = 0;
    const first = drain.holdFor(30, async () => {
      restarts++;
    });
    await drain.holdFor(30, async () => {
      restarts++;
    });
    await first;
    expect(restarts).to.equal(1);
    expect(drain.count, 'the request outlasted the wait').to.equal(1);
  });

  it('stopped while it waits: the wait ends at once, and the held requests go', async () => {
    const drain = new RequestDrain();
    void drain.track(pending().promise);
    let ran = false;
    const renewal = drain.holdFor(60_000, async () => {
      ran = true;
    });
    const held = drain.held!;
    drain.stopWaiting();
    await renewal;
    await held;
    expect(ran, 'the restart step runs (and finds its epoch gone)').to.equal(true);
    expect(drain.held).to.equal(undefined);
  });

  it('lets held requests go when the restart fails', async () => {
    const drain = new RequestDrain();
    const renewal = drain.holdFor(0, () => Promise.reject(new Error('spawn failed')));
    const held = drain.held!;
    await renewal.catch(() => undefined);
    await held;
    expect(drain.held).to.equal(undefined);
  });
});
