/**
 * The ResourceStore contract (kernel/contracts/store.ts), as one suite run against every
 * store plugin: store-files on a temporary directory, store-kubernetes on a real API server.
 * What changes "outside" is what an operator does: a file edited, or kubectl apply/delete.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments, stringify } from 'yaml';
import type { ResourceKind, ResourceStore, StoreChange } from '../../kernel/contracts/store.js';
import { FileStore } from '../../plugins/store-files/file-store.js';
import { KubeApi } from '../../plugins/store-kubernetes/kube-api.js';
import { KubeStore } from '../../plugins/store-kubernetes/kube-store.js';
import { eventually, makeConfigDir, ROOT } from '../support/harness.js';
import { startKubeEnv, type KubeEnv } from '../support/kube-env.js';
import { KubeConfig } from '@kubernetes/client-node';

interface Subject {
  store: ResourceStore;
  mode: string;
  lifecycle: 'imperative' | 'declarative';
  /** A change made around the store, as an operator makes it. */
  put(kind: ResourceKind, name: string, doc: Record<string, unknown>): Promise<void>;
  drop(kind: ResourceKind, name: string): Promise<void>;
  cleanup(): Promise<void>;
}

const SERVER = (name: string, description = 'first') => ({ name, type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', description });
const WORKFLOW = (name: string) => ({
  apiVersion: 'switchboard.dev/v1alpha1',
  kind: 'Workflow',
  metadata: { name },
  spec: { description: 'd', steps: [{ id: 's', tool: 'core_service_list' }] },
});

function contract(label: string, make: () => Promise<Subject>): void {
  describe(`ResourceStore contract: ${label}`, function () {
    this.timeout(60_000);
    let s: Subject;
    const changes: StoreChange[] = [];
    before(async function () {
      this.timeout(15 * 60_000);
      s = await make();
      await s.store.watch((c) => changes.push(c));
    });
    after(async () => {
      await s?.store.close();
      await s?.cleanup();
    });
    const names = async (kind: ResourceKind) =>
      (await s.store.loadAll()).resources
        .filter((r) => r.kind === kind)
        .map((r) => (kind === 'mcpserver' ? (r.parsed.value as { name: string }).name : (r.parsed.value as { metadata: { name: string } }).metadata.name));

    it('says its mode and how service operations act', () => {
      expect(s.store.mode).to.equal(s.mode);
      expect(s.store.lifecycle).to.equal(s.lifecycle);
    });

    it('writes a definition and loads it back as the document validation sees', async () => {
      const raw = await s.store.write('mcpserver', 'one', SERVER('one'));
      expect(raw.kind).to.equal('mcpserver');
      expect(raw.parsed.value).to.deep.include({ name: 'one', type: 'streamable-http', description: 'first' });
      expect(await names('mcpserver')).to.include('one');
    });

    it('updates in place: same key, new content', async () => {
      const first = (await s.store.loadAll()).resources.find((r) => (r.parsed.value as { name?: string }).name === 'one')!;
      const again = await s.store.write('mcpserver', 'one', SERVER('one', 'second'), first.key);
      expect(again.key).to.equal(first.key);
      const loaded = (await s.store.loadAll()).resources.find((r) => r.key === first.key)!;
      expect(loaded.parsed.value).to.deep.include({ description: 'second' });
    });

    it('keeps workflows in the workflow document form', async () => {
      await s.store.write('workflow', 'flow', WORKFLOW('flow'));
      expect(await names('workflow')).to.include('flow');
    });

    it('reports a change made outside as an upsert, and a deletion outside as a remove', async () => {
      changes.length = 0;
      await s.put('mcpserver', 'outside', SERVER('outside'));
      const up = await eventually(
        async () => changes.find((c) => c.type === 'upsert' && (c.resource.parsed.value as { name?: string }).name === 'outside'),
        (c) => c !== undefined,
        10_000,
      );
      expect(up!.type).to.equal('upsert');
      const key = (up as { resource: { key: string } }).resource.key;
      await s.drop('mcpserver', 'outside');
      await eventually(
        async () => changes.some((c) => c.type === 'remove' && c.key === key),
        (v) => v,
        10_000,
      );
    });

    it('removes what it wrote', async () => {
      const key = (await s.store.loadAll()).resources.find((r) => (r.parsed.value as { name?: string }).name === 'one')!.key;
      await s.store.remove('mcpserver', key);
      expect(await names('mcpserver')).to.not.include('one');
    });

    it('reads config.yaml as text for editing', async () => {
      expect(await s.store.readSettingsText()).to.contain('namespace: contract');
    });
  });
}

contract('store-files', async () => {
  const dir = await makeConfigDir({ 'config.yaml': 'namespace: contract\n' });
  await mkdir(join(dir, 'mcpservers'), { recursive: true });
  await mkdir(join(dir, 'workflows'), { recursive: true });
  const file = (kind: ResourceKind, name: string) => join(dir, kind === 'mcpserver' ? 'mcpservers' : 'workflows', `${name}.yaml`);
  return {
    store: new FileStore(dir, 50),
    mode: 'filesystem',
    lifecycle: 'imperative',
    put: (kind, name, doc) => writeFile(file(kind, name), stringify(doc)),
    drop: (kind, name) => rm(file(kind, name)),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

contract('store-kubernetes', async () => {
  const kube: KubeEnv = await startKubeEnv();
  for (const doc of parseAllDocuments(await readFile(join(ROOT, 'deploy/crds.yaml'), 'utf8')))
    await kube.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', doc.toJSON());
  await kube.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'contract' } });
  const api = `/apis/switchboard.dev/v1alpha1/namespaces/contract`;
  await eventually(
    () => kube.call('GET', `${api}/mcpservers`),
    (r) => r.status === 200,
    20_000,
  );
  const config = new KubeConfig();
  config.loadFromFile(await kube.kubeconfig(kube.tokens.admin));
  const dir = await makeConfigDir({ 'config.yaml': 'namespace: contract\norchestrator: true\n' });
  const plural = (kind: ResourceKind) => (kind === 'mcpserver' ? 'mcpservers' : 'workflows');
  return {
    store: new KubeStore(new KubeApi(config, 'contract'), dir),
    mode: 'kubernetes',
    lifecycle: 'declarative',
    async put(kind, name, doc) {
      const { name: _n, ...spec } = doc;
      const body = kind === 'mcpserver' ? { apiVersion: 'switchboard.dev/v1alpha1', kind: 'MCPServer', metadata: { name }, spec } : doc;
      const r = await kube.call('POST', `${api}/${plural(kind)}`, body);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
    },
    async drop(kind, name) {
      await kube.call('DELETE', `${api}/${plural(kind)}/${name}`);
    },
    async cleanup() {
      await kube.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
