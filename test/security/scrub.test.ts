/**
 * Hardening (issue 22), secrets leaving through an upstream: a server started from an
 * operator file with `env: {API_TOKEN: <secret>}` that gives its token away through every
 * channel an upstream has (test/fixtures/test-server.ts, `reveal*`). The token reaches no
 * caller, no file and no admin page; each channel shows `<redacted>` where the token was, so
 * every test sees the channel carry the upstream's words, minus the secret.
 *
 * The secret holds a quote, a backslash and HTML's special characters: it must be found in
 * JSON's and HTML's escaping too. Its tail is a marker that no escaping changes, so a leak in
 * any form, whole or escaped, shows as the marker.
 *
 * Poisoning: a caller cannot add strings to what is scrubbed (a definition it creates with a
 * credential-named header), so other sessions keep seeing ordinary text. What a reference the
 * operator allowed (secrets.allowedEnv) reads is the operator's, and is scrubbed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  callTool,
  connectHttp,
  errorCode,
  eventually,
  freePort,
  meta,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

const MARK = '9f3c2a71e5b84d06';
const SECRET = `tok"en\\<&>-${MARK}`;
const REDACTED = '<redacted>';

/** Fails the test when the secret, in any escaping, is anywhere in `seen`. */
function expectNoSecret(seen: unknown, where: string): void {
  const serialized = typeof seen === 'string' ? seen : JSON.stringify(seen);
  expect(serialized, where).to.not.include(MARK);
}

const LEAK_WORKFLOW = `apiVersion: switchboard.dev/v1alpha1
kind: Workflow
metadata: {name: leak}
spec:
  args:
    note: {type: string}
  steps:
    - {id: reveal, tool: x_t_reveal, args: {why: "{{ .input.note }}"}}
    - {id: refuse, tool: x_t_reveal_error}
`;

describe('security: no secret leaves through an upstream', function () {
  this.timeout(60_000);
  let sb: Running;
  let admin: string;
  let client: Client;

  before(async () => {
    const port = await freePort();
    admin = `http://127.0.0.1:${port}`;
    sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  network:\n    allow: [127.0.0.1]\n  admin:\n    enabled: true\n    port: ${port}\n`,
      // An operator file: its literal API_TOKEN is the operator's secret.
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER, [], `env:\n  API_TOKEN: ${JSON.stringify(SECRET)}\n`),
      'workflows/leak.yaml': LEAK_WORKFLOW,
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('an upstream JSON-RPC error quoting the token is UPSTREAM_ERROR with the token redacted', async () => {
    const r = await callTool(client, 'x_t_reveal_error');
    expect(errorCode(r), text(r)).to.equal('UPSTREAM_ERROR');
    expect(text(r)).to.include(`the token ${REDACTED} was refused`);
    expectNoSecret(r, 'the error result');
  });

  it('tool results hold no encoded token: base64 (each alignment, URL-safe), hex, percent-encoding', async () => {
    const r = await callTool(client, 'x_t_reveal_encoded');
    expect(r.isError, text(r)).to.not.equal(true);
    const forms = JSON.parse(text(r)) as Record<'basic' | 'plain' | 'shifted' | 'urlsafe' | 'hex' | 'HEX' | 'url', string>;
    // Decoded as the upstream encoded them, none gives the token back.
    const decoded = {
      basic: Buffer.from(forms.basic.slice('Basic '.length), 'base64').toString('latin1'),
      plain: Buffer.from(forms.plain, 'base64').toString('latin1'),
      shifted: Buffer.from(forms.shifted, 'base64').toString('latin1'),
      urlsafe: Buffer.from(forms.urlsafe, 'base64url').toString('latin1'),
      hex: Buffer.from(forms.hex, 'hex').toString('latin1'),
      HEX: Buffer.from(forms.HEX, 'hex').toString('latin1'),
      url: forms.url,
    };
    for (const [form, value] of Object.entries(decoded)) {
      expect(value, form).to.not.include(MARK);
      expect(forms[form as keyof typeof forms], form).to.include(REDACTED);
    }
    expect(forms.url).to.equal(`https://example.com/cb?t=${REDACTED}`);
    expect(forms.hex).to.equal(REDACTED);
  });

  it('tool descriptions and input/output schemas hold no token (list_tools, describe_tool)', async () => {
    const listed = await meta<{ tools: { name: string }[] }>(client, 'list_tools', { limit: 200 });
    expect(listed.tools.map((t) => t.name)).to.include('x_t_reveal');
    expectNoSecret(listed, 'list_tools');
    const described = await meta<{ description: string; inputSchema: unknown; outputSchema: unknown }>(client, 'describe_tool', { name: 'x_t_reveal' });
    expect(described.description).to.equal(`Answers with the token ${REDACTED}.`);
    expect(JSON.stringify(described.inputSchema)).to.include(`Say why you want ${REDACTED}`);
    expect(JSON.stringify(described.outputSchema)).to.include(`always ${REDACTED}`);
    expectNoSecret(described, 'describe_tool');
  });

  it('tool results hold no token', async () => {
    const r = await callTool(client, 'x_t_reveal');
    expect(text(r)).to.equal(`the token is ${REDACTED}`);
    expect(r.structuredContent).to.deep.equal({ token: REDACTED });
  });

  it('resources/read and resources/list hold no token', async () => {
    const listed = await client.listResources();
    const resource = listed.resources.find((r) => r.uri === 'test://credentials');
    expect(resource?.description).to.equal(`The token ${REDACTED}`);
    expectNoSecret(listed, 'resources/list');
    const read = await client.readResource({ uri: 'test://credentials' });
    expect(read.contents[0]).to.include({ text: `API_TOKEN=${REDACTED}` });
    expectNoSecret(read, 'resources/read');
  });

  it('the get_resource meta-tool holds no token', async () => {
    const read = await meta<{ contents: { text: string }[] }>(client, 'get_resource', { uri: 'test://credentials' });
    expect(read.contents[0]!.text).to.equal(`API_TOKEN=${REDACTED}`);
    expectNoSecret(read, 'get_resource');
  });

  it('prompts/get (and the get_prompt meta-tool, and prompt listings) hold no token', async () => {
    const listed = await client.listPrompts();
    expect(listed.prompts.find((p) => p.name === 'x_t_credentials')?.description).to.equal(`Uses ${REDACTED}`);
    expectNoSecret(listed, 'prompts/list');
    const got = await client.getPrompt({ name: 'x_t_credentials' });
    expect(got.messages[0]!.content).to.deep.include({ text: `Authenticate with ${REDACTED}` });
    expectNoSecret(got, 'prompts/get');
    const viaMeta = await meta(client, 'get_prompt', { name: 'x_t_credentials' });
    expectNoSecret(viaMeta, 'get_prompt');
  });

  it('log notifications relayed from the upstream hold no token', async () => {
    const listener = await connectHttp(sb.url);
    const logs: unknown[] = [];
    listener.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    try {
      await callTool(listener, 'x_t_reveal_notes');
      const seen = await eventually(
        async () => logs,
        (l) => l.length > 0,
      );
      expect(seen[0]).to.deep.include({ logger: 't/reveal', data: { note: `using token ${REDACTED}` } });
      expectNoSecret(seen, 'log notifications');
    } finally {
      await listener.close();
    }
  });

  it('progress notifications relayed from the upstream hold no token', async () => {
    const messages: (string | undefined)[] = [];
    const r = (await client.callTool({ name: 'call_tool', arguments: { name: 'x_t_reveal_notes', arguments: {} } }, undefined, {
      onprogress: (p) => void messages.push(p.message),
    })) as CallToolResult;
    expect(text(r)).to.equal('noted');
    expect(messages).to.deep.equal([`sent ${REDACTED}`]);
  });

  describe('a workflow run whose steps see the token', () => {
    let follower: Client;
    let followed: Promise<CallToolResult>;
    const streamed: { reason: string; message: string; execution_id?: string }[] = [];
    let executionId: string;

    before(async () => {
      follower = await connectHttp(sb.url);
      follower.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        if (n.params.logger === 'switchboard.events') streamed.push(n.params.data as { reason: string; message: string; execution_id?: string });
      });
      followed = callTool(follower, 'core_events', { follow: true, follow_seconds: 5, resource_type: 'WorkflowExecution' });
      // The follow is listening once an event reaches it: until then, probe runs (their events may be missed).
      await eventually(
        () => callTool(client, 'workflow_leak', { note: 'probe' }).then(() => streamed.length),
        (n) => n > 0,
      );
      // The caller's own input holds the token too: the record must not keep it either.
      const run = await callTool(client, 'workflow_leak', { note: SECRET });
      expect(errorCode(run), text(run)).to.equal('WORKFLOW_FAILED');
      expectNoSecret(run, 'the workflow result');
      executionId = (run.structuredContent as { error: { details: { execution_id: string } } }).error.details.execution_id;
    });
    after(async () => {
      await followed?.catch(() => undefined);
      await follower?.close();
    });

    it('core_events {follow: true} streams its events without the token', async () => {
      const failed = await eventually(
        async () => streamed.filter((e) => e.execution_id === executionId),
        (s) => s.some((e) => e.reason === 'WorkflowExecutionFailed'),
      );
      expect(failed.find((e) => e.reason === 'WorkflowStepFailed')!.message).to.include(`the token ${REDACTED} was refused`);
      expectNoSecret(streamed, 'followed events');
      expectNoSecret((await followed).structuredContent, 'core_events result');
    });

    it('executions/<id>.json and state/events.jsonl on disk hold no token', async () => {
      const file = join(sb.configDir, 'executions', `${executionId}.json`);
      const record = await eventually(
        () => readFile(file, 'utf8'),
        (t) => t.includes('"status":"failed"'),
      );
      expect(record).to.include(REDACTED);
      for (const f of await readdir(join(sb.configDir, 'executions')))
        expectNoSecret(await readFile(join(sb.configDir, 'executions', f), 'utf8'), `executions/${f}`);
      const log = await eventually(
        () => readFile(join(sb.configDir, 'state', 'events.jsonl'), 'utf8'),
        (t) => t.includes(`"reason":"WorkflowExecutionFailed","resource":{"type":"Workflow","name":"leak"},"execution_id":"${executionId}"`),
      );
      expect(log).to.include(REDACTED);
      expectNoSecret(log, 'state/events.jsonl');
    });

    it('the run, read back through core_workflow_execution_get, holds no token', async () => {
      const got = await meta(client, 'call_tool', { name: 'core_workflow_execution_get', arguments: { execution_id: executionId } });
      expect(JSON.stringify(got)).to.include(executionId);
      expectNoSecret(got, 'core_workflow_execution_get');
    });

    it('the admin page of the run shows the failure without the token', async () => {
      const res = await fetch(`${admin}/executions/${executionId}`);
      expect(res.status).to.equal(200);
      const page = await res.text();
      expect(page).to.include(`the token &lt;redacted&gt; was refused`);
      expectNoSecret(page, 'the admin page');
    });
  });
});

describe('security: a caller cannot add strings to what is scrubbed', function () {
  this.timeout(60_000);
  const ALLOWED_MARK = '5d1e08c7b2a94f63';
  let sb: Running;
  before(async () => {
    sb = await startSwitchboard(
      {
        'config.yaml': 'aggregator:\n  network:\n    allow: [127.0.0.1]\nsecrets:\n  allowedEnv: [SB_SCRUB_ALLOWED]\n',
        'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
      },
      { env: { SB_SCRUB_ALLOWED: `operator-token-${ALLOWED_MARK}` } },
    );
  });
  after(async () => sb?.stop());

  it("a server created with a credential-named header does not blank that text out of other sessions' results", async () => {
    const creator = await connectHttp(sb.url);
    const other = await connectHttp(sb.url);
    try {
      const created = await callTool(creator, 'core_mcpserver_create', {
        name: 'poison',
        type: 'streamable-http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { 'X-Api-Key': 'pong from' },
      });
      expect(created.isError, text(created)).to.not.equal(true);
      // It has tried to connect: its headers were resolved (the moment secrets are gathered).
      await eventually(
        () => meta<{ state: string }>(creator, 'call_tool', { name: 'core_service_status', arguments: { name: 'poison' } }),
        (s) => JSON.stringify(s).match(/"state":"(failed|unreachable)"/) !== null,
        15_000,
        100,
      );
      const r = await callTool(other, 'x_t_ping');
      expect(text(r)).to.match(/^pong from test-server pid \d+$/);
    } finally {
      await creator.close();
      await other.close();
    }
  });

  it("what an administrator's reference reads from the operator's environment is the operator's secret, and is scrubbed", async () => {
    const creator = await connectHttp(sb.url);
    const other = await connectHttp(sb.url);
    try {
      const created = await callTool(creator, 'core_mcpserver_create', {
        name: 'granted',
        type: 'stdio',
        command: ['node', TEST_SERVER],
        autoStart: true,
        env: { API_TOKEN: '${SB_SCRUB_ALLOWED}' },
      });
      expect(created.isError, text(created)).to.not.equal(true);
      const r = await eventually(
        () => callTool(other, 'x_granted_reveal'),
        (x) => !x.isError,
        15_000,
        100,
      );
      expect(text(r)).to.equal(`the token is ${REDACTED}`);
      expect(JSON.stringify(r)).to.not.include(ALLOWED_MARK);
    } finally {
      await creator.close();
      await other.close();
    }
  });
});
