import { expect } from 'chai';
import { Cancellation } from '../../kernel/cancellation.js';

describe("Cancellation: a call's cancellation with its AbortSignal made on first read", () => {
  it('calls its listeners once with the reason, and not those that stopped listening', () => {
    const c = new Cancellation();
    const heard: unknown[] = [];
    c.listen((r) => heard.push(`a:${String(r)}`));
    const stop = c.listen((r) => heard.push(`b:${String(r)}`));
    stop();
    c.abort('enough');
    c.abort('again');
    expect(heard).to.deep.equal(['a:enough']);
    expect(c.aborted).to.equal(true);
    expect(c.reason).to.equal('enough');
  });

  it('hands out a signal that fires with it, or has fired already when read late', () => {
    const early = new Cancellation();
    const signal = early.signal;
    expect(signal.aborted).to.equal(false);
    early.abort('early');
    expect(signal.aborted).to.equal(true);
    expect(signal.reason).to.equal('early');

    const late = new Cancellation();
    late.abort();
    expect(late.signal.aborted).to.equal(true);
    expect((late.signal.reason as DOMException).name).to.equal('AbortError');
  });

  it('calls a listener added after it fired at once', () => {
    const c = new Cancellation();
    c.abort('gone');
    const heard: unknown[] = [];
    c.listen((r) => heard.push(r));
    expect(heard).to.deep.equal(['gone']);
  });

  it('follows an AbortSignal, and a child follows its parent until released', () => {
    const ctl = new AbortController();
    const followed = Cancellation.following(ctl.signal);
    const { cancellation: child, release } = followed.child();
    const { cancellation: released, release: releaseEarly } = followed.child();
    releaseEarly();
    ctl.abort('client cancelled');
    expect(followed.reason).to.equal('client cancelled');
    expect(child.aborted).to.equal(true);
    expect(released.aborted).to.equal(false);
    release();

    const own = new Cancellation().child();
    own.cancellation.abort('workflow shut down');
    expect(own.cancellation.aborted).to.equal(true);
  });
});
