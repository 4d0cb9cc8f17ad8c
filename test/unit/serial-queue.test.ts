import { expect } from 'chai';
import { SerialQueue } from '../../kernel/serial-queue.js';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('SerialQueue: operations one at a time, in the order asked', () => {
  it('starts an operation only after the one before it has settled', async () => {
    const q = new SerialQueue();
    const seen: string[] = [];
    let release!: () => void;
    const first = q.run(async () => {
      seen.push('first starts');
      await new Promise<void>((r) => (release = r));
      seen.push('first ends');
      return 1;
    });
    const second = q.run(() => {
      seen.push('second runs');
      return 2;
    });
    await tick();
    expect(seen).to.deep.equal(['first starts']);
    expect(q.pending).to.equal(2);
    release();
    expect(await first).to.equal(1);
    expect(await second).to.equal(2);
    expect(seen).to.deep.equal(['first starts', 'first ends', 'second runs']);
    expect(q.pending).to.equal(0);
  });

  it('gives a failure to its own caller only, and runs the next operation anyway', async () => {
    const q = new SerialQueue();
    const failed = q.run(() => Promise.reject(new Error('no')));
    const after = q.run(() => 'still runs');
    const err = await failed.catch((e: unknown) => e);
    expect((err as Error).message).to.equal('no');
    expect(await after).to.equal('still runs');
  });

  it('idle() waits for everything queued so far and never rejects', async () => {
    const q = new SerialQueue();
    let done = false;
    void q.run(async () => {
      await tick();
      done = true;
    });
    q.run(() => Promise.reject(new Error('ignored by idle'))).catch(() => undefined);
    await q.idle();
    expect(done).to.equal(true);
    expect(q.pending).to.equal(0);
  });
});
