/**
 * Writes as the caller (orchestrator mode with OAuth protection): the core tools that write
 * resources send the signed-in person's own ID token, and the API server (trusting the same
 * identity provider, as a cluster configured for OIDC does) authorizes that person with RBAC.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, errorCode, eventually, freePort, meta, ROOT, text } from '../support/harness.js';
import { startKubeEnv, type KubeEnv } from '../support/kube-env.js';
import { mcpClient, registerClient, signIn, startProtected, type OAuthSetup, switchboardAtIdp } from '../support/oauth-setup.js';
import { startTestIdp, type TestIdp } from '../fixtures/identity-provider.js';
import { startDownstreamExchange, type DownstreamExchange } from '../fixtures/downstream-exchange.js';
import { postForm } from '../support/oauth-browser.js';
import { selfSignedCertificate } from '../support/self-signed.js';

const NS = 'switchboard';

describe('orchestrator mode: writes as the caller', function () {
  this.timeout(120_000);
  let idp: TestIdp;
  let kube: KubeEnv;
  let setup: OAuthSetup;
  let alice: Client;
  let aliceToken: string;
  let downstream: DownstreamExchange;
  let startAgain: () => Promise<OAuthSetup>;

  /** Our fetch plays the browser against the identity provider's self-signed https. */
  const asBrowser = async <T>(fn: () => Promise<T>): Promise<T> => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      return await fn();
    } finally {
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    }
  };

  before(async function () {
    this.timeout(15 * 60_000);
    const dir = await mkdtemp(join(tmpdir(), 'sb-oidc-'));
    const { keyFile, certFile } = selfSignedCertificate(dir, '127.0.0.1');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    idp = await startTestIdp({
      tls: { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') },
      clients: [switchboardAtIdp(base)],
    });
    // The cluster trusts ID tokens the provider issues to Switchboard's client: that is the orchestrator audience.
    kube = await startKubeEnv({ issuer: idp.issuer, clientId: 'switchboard', caFile: certFile });
    for (const doc of parseAllDocuments(await readFile(join(ROOT, 'deploy/crds.yaml'), 'utf8')))
      await kube.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', doc.toJSON());
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    // The chart's workflow editors role, bound to every authenticated person.
    await kube.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'workflow-editor' },
      rules: [{ apiGroups: ['switchboard.dev'], resources: ['workflows'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] }],
    } as never);
    await kube.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'workflow-editors', namespace: NS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'workflow-editor' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }],
    } as never);
    await eventually(
      () => kube.call('GET', `/apis/switchboard.dev/v1alpha1/namespaces/${NS}/workflows`),
      (r) => r.status === 200,
      20_000,
    );
    // Brokered exchange with its credentials in Secrets (clientCredentialsSecretRef), as a cluster keeps them.
    downstream = await startDownstreamExchange({
      upstreamIssuer: idp.issuer,
      clientId: 'switchboard-downstream',
      clientSecret: 'downstream-secret-456',
      connectorId: 'upstream',
      tokenSeconds: 300,
      reportedExpiresIn: 3600,
    });
    await kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'broker-agent-gw', namespace: NS },
      stringData: { 'client-secret': 'broker-secret-123' },
    } as never);
    await kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'downstream-client', namespace: NS },
      stringData: { 'client-id': 'switchboard-downstream', 'client-secret': 'downstream-secret-456' },
    } as never);
    const broker = [
      '      tokenExchangeBroker:',
      '        allowPrivateIP: true',
      '        brokerClients: {agent-gw: {clientCredentialsSecretRef: {name: broker-agent-gw}}}',
      '        clientAudiences: {agent-gw: [cluster]}',
      `        targets: {cluster: {idpTokenEndpoint: '${downstream.url}', connectorId: upstream, clientCredentialsSecretRef: {name: downstream-client}, scopes: 'openid groups'}}`,
    ].join('\n');
    // Persistent OAuth storage: in orchestrator mode its records are Secrets.
    const options = {
      serverYaml: `${broker}\n      storage:\n        persistent: true\n        encryptionKey: \${GRANT_KEY}\n  network:\n    allow: [127.0.0.1] # the refused create names a loopback URL: RBAC, not the outbound policy, must be what refuses it\norchestrator: true\nnamespace: ${NS}\nwritesAsCaller:\n  orchestratorAudience: switchboard\nauthorization:\n  admins: [alice@example.com]`,
      env: { NODE_EXTRA_CA_CERTS: certFile, KUBECONFIG: await kube.kubeconfig(kube.tokens.admin), GRANT_KEY: 'k'.repeat(40) },
    };
    setup = await startProtected({ again: { idp, base, sb: undefined as never }, ...options });
    startAgain = () => startProtected({ again: setup, configDir: setup.sb.configDir, ...options });
    idp.signInAs('alice');
    const tokens = await asBrowser(async () => signIn(setup.base, await registerClient(setup.base)));
    aliceToken = tokens.access_token;
    alice = await mcpClient(setup.sb.url, tokens.access_token);
  });

  after(async () => {
    await alice?.close().catch(() => undefined);
    await setup?.sb.stop();
    await kube?.stop();
    await idp?.close();
    await downstream?.close();
  });

  it('a workflow written by a person is written with their identity, which RBAC allows', async () => {
    const created = await callTool(alice, 'core_workflow_create', { name: 'mine', steps: [{ id: 's', tool: 'core_service_list' }] });
    expect(created.isError, text(created)).to.not.equal(true);
    expect((await kube.call('GET', `/apis/switchboard.dev/v1alpha1/namespaces/${NS}/workflows/mine`)).status).to.equal(200);
    // The orchestrator's audit log names the person, not Switchboard.
    const entry = await eventually(
      async () => (await kube.audit()).find((e) => e.verb === 'create' && e.objectRef.resource === 'workflows' && e.objectRef.name === 'mine'),
      (e) => e !== undefined,
      10_000,
    );
    expect(entry!.user.username).to.equal('alice@example.com');
  });

  /** The broker client exchanges alice's Switchboard token for the cluster's. */
  const brokeredExchange = () =>
    asBrowser(() =>
      postForm(
        `${setup.base}/oauth/token`,
        {
          grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
          subject_token: aliceToken,
          subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          audience: 'cluster',
        },
        { authorization: `Basic ${Buffer.from('agent-gw:broker-secret-123').toString('base64')}` },
      ),
    );

  it('takes broker credentials from Secrets (clientCredentialsSecretRef): a brokered exchange works', async () => {
    const r = await brokeredExchange();
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.access_token).to.be.a('string');
    expect(downstream.requests.at(-1)!.get('connector_id')).to.equal('upstream');
  });

  it('a target secret rotated at the downstream provider and renewed in its Secret is used without a restart', async () => {
    const path = `/api/v1/namespaces/${NS}/secrets/downstream-client`;
    const current = await kube.call('GET', path);
    downstream.rotateClientSecret('downstream-secret-rotated');
    const updated = await kube.call('PUT', path, { ...current.body, stringData: { 'client-secret': 'downstream-secret-rotated' } });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    // Refused once with the secret read at start, read again from the Secret, and sent once more.
    const r = await brokeredExchange();
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(downstream.requests.at(-1)!.get('connector_id')).to.equal('upstream');
  });

  it('a write RBAC does not allow that person is refused, naming the user, the verb, the resource and the namespace', async () => {
    const refused = await callTool(alice, 'core_mcpserver_create', { name: 'hers', type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' });
    expect(errorCode(refused)).to.equal('FORBIDDEN');
    expect(text(refused)).to.contain(
      'User "alice@example.com" cannot create resource "mcpservers" in API group "switchboard.dev" in the namespace "switchboard"',
    );
    expect((await kube.call('GET', `/apis/switchboard.dev/v1alpha1/namespaces/${NS}/mcpservers/hers`)).status).to.equal(404);
  });

  it('a token without the orchestrator audience gets the actionable re-login error', async () => {
    const configFile = join(setup.sb.configDir, 'config.yaml');
    await writeFile(configFile, (await readFile(configFile, 'utf8')).replace('orchestratorAudience: switchboard', 'orchestratorAudience: kubernetes'));
    await meta(alice, 'call_tool', { name: 'core_config_reload', arguments: {} });
    const refused = await callTool(alice, 'core_workflow_create', { name: 'other', steps: [{ id: 's', tool: 'core_service_list' }] });
    expect(errorCode(refused)).to.equal('AUTH_REQUIRED');
    expect(text(refused)).to.contain("does not carry the audience 'kubernetes'").and.contain('sign in again');
  });

  it("keeps the OAuth server's grants as Secrets: a person stays signed in across a restart", async () => {
    const secrets = await kube.call<{ items: { type: string }[] }>('GET', `/api/v1/namespaces/${NS}/secrets?labelSelector=switchboard.dev%2Fgrant%3Dtrue`);
    expect(secrets.body.items.length).to.be.greaterThan(2);
    expect(secrets.body.items.every((s) => s.type === 'switchboard.dev/grant')).to.equal(true);
    expect(JSON.stringify(secrets.body)).to.not.contain(Buffer.from(aliceToken).toString('base64'));
    // Secrets that carry the label but no record Switchboard could have written: each is left out, named, and the start goes on.
    const junk = (name: string, data: Record<string, string>) =>
      kube.call('POST', `/api/v1/namespaces/${NS}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'switchboard.dev/grant',
        metadata: { name, labels: { 'switchboard.dev/grant': 'true' } },
        data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
      });
    expect((await junk('junk-index', { kind: 'Grant', id: 'g1', value: 'x', index: '{"accountId": 7' })).status).to.equal(201);
    expect((await junk('junk-fields', { value: 'x' })).status).to.equal(201);
    await alice.close();
    await setup.sb.stop();
    setup = await startAgain();
    expect(setup.sb.logs())
      .to.contain('grant store: skipped Secret junk-index: its index is not a JSON object of strings')
      .and.contain('grant store: skipped Secret junk-fields: not a stored record');
    alice = await mcpClient(setup.sb.url, aliceToken);
    const listed = await callTool(alice, 'core_workflow_list');
    expect(listed.isError, text(listed)).to.not.equal(true);
    for (const name of ['junk-index', 'junk-fields']) await kube.call('DELETE', `/api/v1/namespaces/${NS}/secrets/${name}`);
  });
});
