/**
 * The bounded backlog of writes Redis cannot take now (cluster-redis write-backlog.ts), on a
 * real redis-server refusing writes (maxmemory reached under noeviction): writes wait in
 * order and land once Redis takes writes again; beyond the bound the oldest are dropped,
 * counted (the kernel hook a metric taps) and reported as one event once writing resumes.
 */
import { expect } from 'chai';
import { createHooks } from '../../kernel/hooks.js';
import type { SharedWriteDrop } from '../../kernel/contracts/observations.js';
import { createLogger } from '../../kernel/log.js';
import { openRedis, type RedisConnection } from '../../lib/redis/connection.js';
import { RedisEventJournals } from '../../plugins/cluster-redis/event-journal.js';
import { WriteBacklog } from '../../plugins/cluster-redis/write-backlog.js';
import { WriteLosses } from '../../plugins/cluster-redis/write-losses.js';
import { eventually } from '../support/harness.js';
import { useRedisServer } from '../support/redis-server.js';

const log = createLogger({ level: 'error' });

describe('cluster-redis: writes Redis refuses wait in a bounded backlog', function () {
  this.timeout(60_000);
  const redis = useRedisServer();
  let connection: RedisConnection;
  let round = 0;
  let prefix = '';

  /** Every denyoom command is refused from now on (a limit below what Redis holds). */
  const full = () => connection.client.config('SET', 'maxmemory', '1');
  const roomAgain = () => connection.client.config('SET', 'maxmemory', '0');

  beforeEach(async () => {
    prefix = `backlog-${++round}:`;
    connection = await openRedis({ url: redis().url, keyPrefix: prefix, connectTimeoutSeconds: 10 }, log);
    await connection.client.config('SET', 'maxmemory-policy', 'noeviction');
  });
  afterEach(async () => {
    await roomAgain();
    await connection.close();
  });

  const push = (backlog: WriteBacklog<number>, n: number, key?: string) =>
    backlog.submit(`write ${n}`, 10, () => connection.client.rpush(connection.key('list'), String(n)).then(() => undefined), n, key);

  it('keeps writes in order while Redis is full, writes them when it has room; beyond the bound drops the oldest, counted and reported once', async () => {
    const drops: number[] = [];
    const reports: number[] = [];
    const backlog = new WriteBacklog<number>(
      connection,
      log,
      'test',
      { onDropped: (n) => drops.push(n), onResumed: (n) => reports.push(n) },
      { maxEntries: 3, maxBytes: 1_000 },
    );
    await push(backlog, 0);
    await full();
    for (let n = 1; n <= 5; n++) await push(backlog, n);
    expect(backlog.size).to.equal(3);
    expect(backlog.waitingValues()).to.deep.equal([3, 4, 5]);
    expect(drops).to.deep.equal([1, 1]);
    expect(backlog.problem).to.match(/3 writes wait .*OOM/);
    await roomAgain();
    await eventually(
      () => Promise.resolve(backlog.size),
      (n) => n === 0,
      10_000,
      50,
    );
    expect(await connection.client.lrange(connection.key('list'), 0, -1)).to.deep.equal(['0', '3', '4', '5']);
    expect(reports).to.deep.equal([2]);
    expect(backlog.problem).to.equal(undefined);
    await backlog.close();
  });

  it('keeps the newest state of one record while it waits, and the bytes bound drops too', async () => {
    const backlog = new WriteBacklog<number>(connection, log, 'test', {}, { maxEntries: 100, maxBytes: 25 });
    await full();
    await push(backlog, 1, 'run-a');
    await push(backlog, 2, 'run-b');
    await push(backlog, 3, 'run-a');
    expect(backlog.waitingValues()).to.deep.equal([3, 2]);
    expect(backlog.waitingValue('run-a')).to.equal(3);
    await push(backlog, 4);
    // 30 bytes waiting > 25: the oldest (run-a) goes.
    expect(backlog.waitingValues()).to.deep.equal([2, 4]);
    expect(backlog.dropped).to.equal(1);
    await roomAgain();
    await eventually(
      () => Promise.resolve(backlog.size),
      (n) => n === 0,
      10_000,
      50,
    );
    expect(await connection.client.lrange(connection.key('list'), 0, -1)).to.deep.equal(['2', '4']);
    await backlog.close();
  });

  it('a write Redis refuses for good (wrong type) is logged and dropped, not retried: the next ones go through', async () => {
    const backlog = new WriteBacklog<number>(connection, log, 'test');
    await connection.client.set(connection.key('text'), 'x');
    await backlog.submit('bad', 1, () => connection.client.rpush(connection.key('text'), '1').then(() => undefined), 0);
    expect(backlog.size).to.equal(0);
    await push(backlog, 7);
    expect(await connection.client.lrange(connection.key('list'), 0, -1)).to.deep.equal(['7']);
    await backlog.close();
  });

  it('what the bound dropped reaches the metrics hook at once and the event log once writing resumes', async () => {
    const hooks = createHooks();
    const seen: SharedWriteDrop[] = [];
    hooks.onSharedWriteDropped.tap('test', (d) => seen.push(d));
    const losses = new WriteLosses(hooks, 'replica-x');
    const journals = new RedisEventJournals(connection, log, losses);
    losses.journals = journals;
    const journal = journals.create({ maxEvents: 100, maxAgeHours: 1 });
    await journal.open();
    losses.dropped('event', 4);
    losses.dropped('execution', 1);
    expect(seen).to.deep.equal([
      { kind: 'event', count: 4 },
      { kind: 'execution', count: 1 },
    ]);
    losses.resumed();
    // Reported once: a second resume with nothing new adds nothing.
    losses.resumed();
    const page = await journal.query({ limit: 10 });
    expect(page.events.map((e) => [e.type, e.reason, e.resource])).to.deep.equal([
      ['Warning', 'SharedStateWritesDropped', { type: 'Aggregator', name: 'aggregator' }],
    ]);
    expect(page.events[0]!.message).to.equal(
      'replica replica-x: Redis refused writes for longer than this replica could keep them; 4 events and 1 execution record states were dropped (oldest first)',
    );
    await journal.close();
  });
});
