/**
 * The EventJournal contract (kernel/contracts/events.ts), as one suite against each journal:
 * the events plugin's own (memory, and a file in file mode) and cluster-redis's stream on a
 * real redis-server. "Another" is a second journal over the same place: a restart for the
 * file, another replica for Redis (which it is at the same time as the first).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { EventJournal, EventRetention, SwitchboardEvent } from '../../kernel/contracts/events.js';
import { FileEventJournal } from '../../plugins/events/file-journal.js';
import { RedisEventJournal } from '../../plugins/cluster-redis/event-journal.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { createLogger } from '../../kernel/log.js';
import { eventually } from '../support/harness.js';
import { useRedisServer } from '../support/redis-server.js';

/** What a journal promises beyond the common contract: a test of a promise it does not make is not registered. */
interface Capabilities {
  /** Several journals write the same log at once (replicas). */
  concurrent: boolean;
  /** Another journal reads what the first kept (a restart, a replica). */
  persistent: boolean;
  /** Aged events are left out of every answer (the single-process log drops the oldest run of them when it prunes, at open or past the count). */
  agesOnQuery: boolean;
  /** Keeps exactly maxEvents (else up to 10 % more between prunes). */
  exactCount: boolean;
}

interface Subject {
  /** A journal over the same place each time, opened. */
  open(retention: EventRetention): Promise<EventJournal>;
  cleanup(): Promise<void>;
}

const RETENTION: EventRetention = { maxEvents: 1000, maxAgeHours: 1 };

function event(i: number, more: Partial<SwitchboardEvent> = {}): Omit<SwitchboardEvent, 'id'> {
  return {
    time: new Date().toISOString(),
    type: i % 3 === 0 ? 'Warning' : 'Normal',
    reason: `Reason${i}`,
    resource: { type: 'MCPServer', name: i % 2 === 0 ? 'even' : 'odd' },
    message: `event ${i}`,
    ...(i % 4 === 0 ? { actor: { key: 'person:ann', name: 'ann@example.com' } } : {}),
    ...more,
  };
}

function contract(label: string, can: Capabilities, make: () => Promise<Subject>): void {
  describe(`EventJournal contract: ${label}`, function () {
    this.timeout(60_000);
    let s: Subject;
    const opened: EventJournal[] = [];
    const open = async (retention = RETENTION) => {
      const j = await s.open(retention);
      opened.push(j);
      return j;
    };
    beforeEach(async () => {
      s = await make();
    });
    afterEach(async () => {
      for (const j of opened.splice(0)) await j.close();
      await s.cleanup();
    });

    it('numbers events in increasing order and answers newest first, filtered, limited, with the total', async () => {
      const j = await open();
      for (let i = 1; i <= 12; i++) j.append(event(i));
      const all = await j.query({ limit: 100 });
      expect(all.total).to.equal(12);
      expect(all.events.map((e) => e.reason)).to.deep.equal(Array.from({ length: 12 }, (_, k) => `Reason${12 - k}`));
      for (let i = 1; i < all.events.length; i++) expect(all.events[i - 1]!.id).to.be.greaterThan(all.events[i]!.id);
      expect(all.events.at(-1)).to.deep.include({ ...event(1), time: all.events.at(-1)!.time });

      const warnings = await j.query({ limit: 2, type: 'Warning' });
      expect(warnings.total).to.equal(4);
      expect(warnings.events.map((e) => e.reason)).to.deep.equal(['Reason12', 'Reason9']);
      const even = await j.query({ limit: 100, resourceType: 'MCPServer', resourceName: 'even' });
      expect(even.total).to.equal(6);
      expect(await j.query({ limit: 5, since: new Date(Date.now() + 60_000).toISOString() })).to.deep.equal({ events: [], total: 0 });
    });

    it('keeps execution_id, files runs under their workflow and answers WorkflowExecution by that id; an unknown type matches nothing', async () => {
      const j = await open();
      const run = (i: number, id: string) => event(i, { resource: { type: 'Workflow', name: 'deploy' }, execution_id: id });
      j.append(run(1, 'run-a'));
      j.append(run(2, 'run-b'));
      j.append(run(3, 'run-a'));
      // An audit entry about a run names only the run.
      j.append(event(4, { resource: { type: 'WorkflowExecution', name: 'run-a' } }));
      j.append(event(5));
      const a = await j.query({ limit: 100, resourceType: 'WorkflowExecution', resourceName: 'run-a' });
      expect(a.events.map((e) => e.reason)).to.deep.equal(['Reason4', 'Reason3', 'Reason1']);
      expect(a.events[1]).to.deep.include({ execution_id: 'run-a', resource: { type: 'Workflow', name: 'deploy' } });
      expect((await j.query({ limit: 100, resourceType: 'WorkflowExecution' })).total).to.equal(4);
      expect((await j.query({ limit: 100, resourceType: 'Workflow', resourceName: 'deploy' })).total).to.equal(3);
      expect(await j.query({ limit: 100, resourceType: 'Pod' })).to.deep.equal({ events: [], total: 0 });
      expect(await j.query({ limit: 100, type: 'Critical' })).to.deep.equal({ events: [], total: 0 });
    });

    it('applies `visible` before the limit: the total and the page hold only what the asker may read', async () => {
      const j = await open();
      for (let i = 1; i <= 12; i++) j.append(event(i));
      const mine = await j.query({ limit: 2, visible: (e) => e.actor?.key === 'person:ann' });
      expect(mine.total).to.equal(3);
      expect(mine.events.map((e) => e.reason)).to.deep.equal(['Reason12', 'Reason8']);
    });

    it('keeps the newest maxEvents and drops events older than maxAgeHours', async () => {
      const j = await open({ maxEvents: 10, maxAgeHours: 1 });
      for (let i = 1; i <= 40; i++) j.append(event(i));
      const kept = await j.query({ limit: 1000 });
      if (can.exactCount) expect(kept.total).to.equal(10);
      else expect(kept.total).to.be.within(10, 11);
      expect(kept.events[0]!.reason).to.equal('Reason40');
      const aged = await open({ maxEvents: 10, maxAgeHours: 1 });
      aged.append(event(41, { time: new Date(Date.now() - 2 * 3_600_000).toISOString(), reason: 'Ancient' }));
      aged.append(event(42));
      await aged.flush();
      if (!can.agesOnQuery) return;
      const after = await aged.query({ limit: 1000 });
      expect(after.events.map((e) => e.reason)).to.not.include('Ancient');
      expect(after.events[0]!.reason).to.equal('Reason42');
    });

    it('tells a subscriber each new event, in order, until it unsubscribes', async () => {
      const j = await open();
      j.append(event(1));
      await j.flush();
      const seen: SwitchboardEvent[] = [];
      const stop = j.subscribe((e) => seen.push(e));
      j.append(event(2));
      j.append(event(3));
      await eventually(
        () => Promise.resolve(seen.length),
        (n) => n >= 2,
        15_000,
      );
      expect(seen.map((e) => e.reason)).to.deep.equal(['Reason2', 'Reason3']);
      stop();
      const page = await j.query({ limit: 2 });
      expect(seen).to.deep.equal([...page.events].reverse());
    });

    if (can.persistent)
      it('another journal over the same place continues the numbering and answers the same history', async () => {
        const a = await open();
        a.append(event(1));
        a.append(event(2));
        await a.flush();
        if (!can.concurrent) await a.close();
        const b = await open();
        b.append(event(3));
        await b.flush();
        const fromB = await b.query({ limit: 10 });
        expect(fromB.events.map((e) => e.reason)).to.deep.equal(['Reason3', 'Reason2', 'Reason1']);
        expect(fromB.events[0]!.id).to.be.greaterThan(fromB.events[1]!.id);
        if (can.concurrent) expect(await a.query({ limit: 10 })).to.deep.equal(fromB);
      });

    if (can.concurrent)
      it('replicas appending at once get distinct ids in one order every replica answers, and each follower sees the others’ events', async () => {
        const a = await open();
        const b = await open();
        const seenByA: SwitchboardEvent[] = [];
        const stop = a.subscribe((e) => seenByA.push(e));
        for (let i = 1; i <= 50; i++) (i % 2 ? a : b).append(event(i));
        await Promise.all([a.flush(), b.flush()]);
        const fromA = await a.query({ limit: 100 });
        const fromB = await b.query({ limit: 100 });
        expect(fromA).to.deep.equal(fromB);
        expect(fromA.total).to.equal(50);
        expect(new Set(fromA.events.map((e) => e.id)).size).to.equal(50);
        await eventually(
          () => Promise.resolve(seenByA.length),
          (n) => n >= 50,
          15_000,
        );
        stop();
        expect(seenByA).to.deep.equal([...fromA.events].reverse());
      });
  });
}

contract('memory (no file)', { concurrent: false, persistent: false, agesOnQuery: false, exactCount: false }, () =>
  Promise.resolve({
    open: async (retention) => {
      const j = new FileEventJournal(undefined, retention, () => undefined);
      await j.open();
      return j;
    },
    cleanup: () => Promise.resolve(),
  }),
);

contract('file (state/events.jsonl)', { concurrent: false, persistent: true, agesOnQuery: false, exactCount: false }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'event-journal-'));
  return {
    open: async (retention) => {
      const j = new FileEventJournal(join(dir, 'state', 'events.jsonl'), retention, () => undefined);
      await j.open();
      return j;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('EventJournal contract: Redis stream (cluster-redis)', function () {
  const redis = useRedisServer();
  let round = 0;
  contract('Redis stream (cluster-redis)', { concurrent: true, persistent: true, agesOnQuery: true, exactCount: true }, () => {
    // A fresh key prefix per test: each starts with an empty log.
    const settings = { url: redis().url, keyPrefix: `journal-${++round}:`, connectTimeoutSeconds: 10 };
    const connections: RedisConnection[] = [];
    const log = createLogger({ level: 'error' });
    return Promise.resolve({
      open: async (retention) => {
        const connection = await openRedis(settings, log);
        connections.push(connection);
        const j = new RedisEventJournal(connection, retention, log);
        await j.open();
        const close = j.close.bind(j);
        return Object.assign(j, {
          close: async () => {
            await close();
            await connection.close();
          },
        });
      },
      cleanup: async () => {
        await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
      },
    });
  });
});
