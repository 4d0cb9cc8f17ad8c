import { expect } from 'chai';
import { SerialQueue } from '../../kernel/serial-queue.js';

/** A task that finishes when told to, recording when it started and ended. */
function gate(log: string[], name: string): { task: () => Promise<string>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return {
    task: async () => {
      log.push(`${name} start`);
      await opened;
      log.push(`${name} end`);
      return name;
    },
    open: () => open(),
  };
}

describe('SerialQueue: one task at a time, in order', () => {
  it('starts a task only after the one before it has finished', async () => {
    const q = new SerialQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const ra = q.run(a.task);
    const rb = q.run(b.task);
    await new Promise((r) => setImmediate(r));
    expect(log).to.deep.equal(['a start']);
    b.open();
    await new Promise((r) => setImmediate(r));
    expect(log).to.deep.equal(['a start'], 'b is ready but waits for a');
    a.open();
    expect(await ra).to.equal('a');
    expect(await rb).to.equal('b');
    expect(log).to.deep.equal(['a start', 'a end', 'b start', 'b end']);
  });

  it('gives each caller its own outcome, and a failure does not stop the tasks after it', async () => {
    const q = new SerialQueue();
    const failed = q.run(() => Promise.reject(new Error('first failed')));
    const next = q.run(async () => 'second ran');
    const error: unknown = await failed.catch((err: unknown) => err);
    expect((error as Error).message).to.equal('first failed');
    expect(await next).to.equal('second ran');
  });

  it('settles once everything queued so far has settled, failures included', async () => {
    const q = new SerialQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    void q.run(a.task);
    void q.run(() => Promise.reject(new Error('ignored'))).catch(() => undefined);
    let settled = false;
    const done = q.settled().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).to.equal(false);
    a.open();
    await done;
    expect(log).to.deep.equal(['a start', 'a end']);
  });
});
