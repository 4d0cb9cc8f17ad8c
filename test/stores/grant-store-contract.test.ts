/**
 * The GrantStore contract (kernel/contracts/auth.ts), as one suite against every store that
 * keeps grants across restarts: store-files (files under state/grants) and store-kubernetes
 * (Secrets on a real API server) and cluster-redis (a real redis-server). "Reopened" is a
 * second instance over the same place, as after a restart (or another replica).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import type { GrantStore } from '../../kernel/contracts/auth.js';
import { FileGrantStore } from '../../plugins/store-files/grant-files.js';
import { KubeApi } from '../../plugins/store-kubernetes/kube-api.js';
import { SecretGrantStore } from '../../plugins/store-kubernetes/secret-grants.js';
import { RedisGrantStore } from '../../plugins/cluster-redis/grant-store.js';
import { openRedis } from '../../lib/redis/connection.js';
import { createLogger } from '../../kernel/log.js';
import { makeConfigDir } from '../support/harness.js';
import { redisServerMissing, startRedis } from '../support/redis-server.js';
import { startKubeEnv, type KubeEnv } from '../support/kube-env.js';

interface Subject {
  /** A store over the same place each time (open() already done). */
  open(): Promise<GrantStore & { close(): void }>;
  cleanup(): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);

function contract(label: string, make: () => Promise<Subject>, needs?: () => string | undefined): void {
  describe(`GrantStore contract: ${label}`, function () {
    this.timeout(60_000);
    let s: Subject;
    let store: GrantStore & { close(): void };
    before(async function () {
      this.timeout(15 * 60_000);
      const missing = needs?.();
      if (missing) {
        console.warn(`skipped: ${missing}`);
        this.skip();
      }
      s = await make();
      store = await s.open();
    });
    after(async () => {
      store?.close();
      await s?.cleanup();
    });

    it('is persistent, and gives back what was put', async () => {
      expect(store.persistent).to.equal(true);
      // One expiry for both sides: a second may tick between the put and the get.
      const expiresAt = now() + 600;
      await store.put('AccessToken', 'id-1', { value: 'sealed-1', expiresAt, index: { grantId: 'g1' } });
      expect(await store.get('AccessToken', 'id-1')).to.deep.equal({ value: 'sealed-1', expiresAt, index: { grantId: 'g1' } });
      expect(await store.get('AccessToken', 'nope')).to.equal(undefined);
    });

    it('finds live records by an index value, within their kind', async () => {
      await store.put('RefreshToken', 'id-2', { value: 'sealed-2', index: { grantId: 'g1' } });
      await store.put('AccessToken', 'id-3', { value: 'sealed-3', index: { grantId: 'g2' } });
      expect(await store.findBy('AccessToken', 'grantId', 'g1')).to.deep.equal(['id-1']);
      expect(await store.findBy('RefreshToken', 'grantId', 'g1')).to.deep.equal(['id-2']);
    });

    it('finds a record put again with another index value only by the new one', async () => {
      await store.put('Interaction', 'i-1', { value: 'v1', expiresAt: now() + 600, index: { uid: 'u-old' } });
      await store.put('Interaction', 'i-1', { value: 'v2', expiresAt: now() + 600, index: { uid: 'u-new' } });
      expect(await store.findBy('Interaction', 'uid', 'u-old')).to.deep.equal([]);
      expect(await store.findBy('Interaction', 'uid', 'u-new')).to.deep.equal(['i-1']);
      await store.delete('Interaction', 'i-1');
      expect(await store.findBy('Interaction', 'uid', 'u-new')).to.deep.equal([]);
    });

    it('treats an expired record as absent', async () => {
      await store.put('Session', 'old', { value: 'x', expiresAt: now() - 1 });
      expect(await store.get('Session', 'old')).to.equal(undefined);
    });

    it('replaces a record put again, and forgets a deleted one', async () => {
      await store.put('Grant', 'g', { value: 'first' });
      await store.put('Grant', 'g', { value: 'second' });
      expect((await store.get('Grant', 'g'))!.value).to.equal('second');
      await store.delete('Grant', 'g');
      expect(await store.get('Grant', 'g')).to.equal(undefined);
    });

    it('creates a record once: of creates at once exactly one is kept and every one answers it; a live record is never replaced', async () => {
      const proposals = Array.from({ length: 8 }, (_, i) => ({ value: `keys-${i}`, index: { all: 'records' } }));
      const answers = await Promise.all(proposals.map((p) => store.create('Keys', 'current', p)));
      const kept = answers[0]!.value;
      expect(proposals.map((p) => p.value)).to.include(kept);
      expect(answers.map((a) => a.value)).to.deep.equal(proposals.map(() => kept));
      expect((await store.get('Keys', 'current'))!.value).to.equal(kept);
      expect((await store.create('Keys', 'current', { value: 'later' })).value).to.equal(kept);
      expect(await store.findBy('Keys', 'all', 'records')).to.deep.equal(['current']);
      // An expired record is as good as absent: a create takes its place.
      await store.put('Keys', 'lapsed', { value: 'old', expiresAt: now() - 1 });
      expect((await store.create('Keys', 'lapsed', { value: 'new' })).value).to.equal('new');
    });

    it('keeps everything across a reopen (a restart)', async () => {
      const again = await s.open();
      try {
        expect((await again.get('AccessToken', 'id-1'))!.value).to.equal('sealed-1');
        expect(await again.findBy('RefreshToken', 'grantId', 'g1')).to.deep.equal(['id-2']);
        expect(await again.get('Grant', 'g')).to.equal(undefined);
      } finally {
        again.close();
      }
    });
  });
}

contract('store-files', async () => {
  const dir = await makeConfigDir({});
  return {
    async open() {
      const store = new FileGrantStore(join(dir, 'state', 'grants'), () => undefined);
      await store.open();
      return store;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

contract('store-kubernetes (Secrets)', async () => {
  const kube: KubeEnv = await startKubeEnv();
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'grants' } });
  const config = new KubeConfig();
  config.loadFromFile(await kube.kubeconfig(kube.tokens.admin));
  return {
    async open() {
      const store = new SecretGrantStore(new KubeApi(config, 'grants'), () => undefined);
      await store.open();
      return store;
    },
    async cleanup() {
      await kube.stop();
    },
  };
});

contract(
  'cluster-redis (Redis)',
  async () => {
    const redis = await startRedis();
    const log = createLogger({ level: 'error' });
    const settings = { url: redis.url, keyPrefix: 'contract:', connectTimeoutSeconds: 10 };
    const open: (() => Promise<void>)[] = [];
    return {
      async open() {
        const connection = await openRedis(settings, log);
        open.push(() => connection.close());
        return Object.assign(new RedisGrantStore(connection), { close: () => void connection.close() });
      },
      async cleanup() {
        await Promise.all(open.map((close) => close()));
        await redis.stop();
      },
    };
  },
  redisServerMissing,
);
