/**
 * The GrantStore contract (kernel/contracts/auth.ts), as one suite against every store that
 * keeps grants across restarts: store-files (files under state/grants) and store-kubernetes
 * (Secrets on a real API server). "Reopened" is a second instance over the same place, as
 * after a restart.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import type { GrantStore } from '../../kernel/contracts/auth.js';
import { FileGrantStore } from '../../plugins/store-files/grant-files.js';
import { KubeApi } from '../../plugins/store-kubernetes/kube-api.js';
import { SecretGrantStore } from '../../plugins/store-kubernetes/secret-grants.js';
import { makeConfigDir } from '../support/harness.js';
import { startKubeEnv, type KubeEnv } from '../support/kube-env.js';

interface Subject {
  /** A store over the same place each time (open() already done). */
  open(): Promise<GrantStore & { close(): void }>;
  cleanup(): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);

function contract(label: string, make: () => Promise<Subject>): void {
  describe(`GrantStore contract: ${label}`, function () {
    this.timeout(60_000);
    let s: Subject;
    let store: GrantStore & { close(): void };
    before(async function () {
      this.timeout(15 * 60_000);
      s = await make();
      store = await s.open();
    });
    after(async () => {
      store?.close();
      await s?.cleanup();
    });

    it('is persistent, and gives back what was put', async () => {
      expect(store.persistent).to.equal(true);
      await store.put('AccessToken', 'id-1', { value: 'sealed-1', expiresAt: now() + 600, index: { grantId: 'g1' } });
      expect(await store.get('AccessToken', 'id-1')).to.deep.equal({ value: 'sealed-1', expiresAt: now() + 600, index: { grantId: 'g1' } });
      expect(await store.get('AccessToken', 'nope')).to.equal(undefined);
    });

    it('finds live records by an index value, within their kind', async () => {
      await store.put('RefreshToken', 'id-2', { value: 'sealed-2', index: { grantId: 'g1' } });
      await store.put('AccessToken', 'id-3', { value: 'sealed-3', index: { grantId: 'g2' } });
      expect(await store.findBy('AccessToken', 'grantId', 'g1')).to.deep.equal(['id-1']);
      expect(await store.findBy('RefreshToken', 'grantId', 'g1')).to.deep.equal(['id-2']);
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
