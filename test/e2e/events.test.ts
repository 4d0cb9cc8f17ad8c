/**
 * The event log as an operator reads it through core_events: what happened to a server
 * (started, failed, recovered, tools discovered, changed), to a workflow run and its steps,
 * and to a refused configuration; filters; follow streaming new events as notifications;
 * history kept across a restart in file mode.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { PING_TWICE } from '../fixtures/workflows.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, eventually, makeConfigDir, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { type EventSeen as Ev } from '../support/event-page.js';

const TOOLS = (more = '') => stdioServer('tools', TEST_SERVER, [], `backoff: {initialSeconds: 0.2, maxSeconds: 1}\n${more}`);

describe('events and core_events', function () {
  this.timeout(40_000);
  let dir: string;
  let sb: Running;

  before(async () => {
    dir = await makeConfigDir({ 'mcpservers/tools.yaml': TOOLS(), 'workflows/ping-twice.yaml': PING_TWICE });
    sb = await startSwitchboard({}, { configDir: dir });
  });
  after(async () => {
    await sb?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const events = async (args: Record<string, unknown> = {}): Promise<{ events: Ev[]; total: number }> => {
    const client = await connectHttp(sb.url);
    try {
      return (await callTool(client, 'core_events', args)).structuredContent as { events: Ev[]; total: number };
    } finally {
      await client.close();
    }
  };
  const reasons = (list: Ev[]) => list.map((e) => e.reason);

  it("tells a server's start, its tools, a failure and the recovery, newest first", async () => {
    const start = await events({ resource_type: 'MCPServer', resource_name: 'tools' });
    expect(reasons(start.events).reverse()).to.include.members(['MCPServerStarting', 'MCPServerStarted', 'MCPServerToolsDiscovered']);
    expect(start.events.find((e) => e.reason === 'MCPServerToolsDiscovered')!.message).to.match(/^MCPServer tools discovered \d+ tools$/);
    const client = await connectHttp(sb.url);
    await callTool(client, 'x_tools_crash', {}).catch(() => undefined);
    await client.close();
    const after = await eventually(
      () => events({ resource_name: 'tools' }),
      (r) => reasons(r.events).includes('MCPServerRecoverySucceeded'),
      15_000,
      200,
    );
    const order = reasons(after.events);
    expect(order.indexOf('MCPServerRecoverySucceeded')).to.be.lessThan(order.indexOf('MCPServerRecoveryStarted'));
    expect(order.indexOf('MCPServerRecoveryStarted')).to.be.lessThan(order.indexOf('MCPServerFailed'));
    expect(after.events.find((e) => e.reason === 'MCPServerFailed')!.type).to.equal('Warning');
    for (let i = 1; i < after.events.length; i++) expect(after.events[i - 1]!.id).to.be.greaterThan(after.events[i]!.id);
  });

  it('filters by type, time and count', async () => {
    const warnings = await events({ type: 'Warning' });
    expect(warnings.events.length).to.be.greaterThan(0);
    expect(warnings.events.every((e) => e.type === 'Warning')).to.equal(true);
    const newest = await events({ limit: 1 });
    expect(newest.events).to.have.length(1);
    expect(newest.total).to.be.greaterThan(1);
    const future = await events({ since: new Date(Date.now() + 60_000).toISOString() });
    expect(future).to.deep.equal({ events: [], total: 0 });
    const past = await events({ until: '2000-01-01T00:00:00Z' });
    expect(past.total).to.equal(0);
  });

  it('records a workflow run and its steps under the workflow, each naming the execution', async () => {
    const client = await connectHttp(sb.url);
    const run = await callTool(client, 'workflow_ping-twice', {});
    await client.close();
    const id = (run.structuredContent as { execution_id: string }).execution_id;
    const r = await events({ resource_type: 'WorkflowExecution', resource_name: id });
    expect(reasons(r.events).reverse()).to.deep.equal([
      'WorkflowExecutionStarted',
      'WorkflowStepStarted',
      'WorkflowStepCompleted',
      'WorkflowStepStarted',
      'WorkflowStepCompleted',
      'WorkflowExecutionCompleted',
    ]);
    expect(r.events.every((e) => e.resource.type === 'Workflow' && e.resource.name === 'ping-twice' && e.execution_id === id)).to.equal(true);
    expect(r.events[0]!.message).to.match(/^Workflow ping-twice execution completed successfully \(2 steps\) in [\d.]+(ms|s|µs)$/);
  });

  it('records definition changes and refused configuration', async () => {
    await writeFile(join(dir, 'mcpservers/tools.yaml'), TOOLS('description: edited\n'));
    await eventually(
      () => events({ resource_name: 'tools' }),
      (r) => reasons(r.events).includes('MCPServerUpdated'),
      10_000,
      200,
    );
    await writeFile(join(dir, 'mcpservers/broken.yaml'), 'name: broken\ntype: stdio\nnot_a_field: 1\n');
    const refused = await eventually(
      () => events({ resource_type: 'Aggregator' }),
      (r) => reasons(r.events).includes('ConfigRejected'),
      10_000,
      200,
    );
    expect(refused.events[0]).to.deep.include({ type: 'Warning', reason: 'ConfigRejected' });
    expect(refused.events[0]!.message).to.match(/broken\.yaml:\d+: .*not_a_field.*\(the last good configuration stays\)$/);
  });

  it('follow streams new matching events as notifications until follow_seconds pass', async () => {
    const follower = await connectHttp(sb.url);
    const seen: Ev[] = [];
    follower.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === 'switchboard.events') seen.push(n.params.data as Ev);
    });
    const following = callTool(follower, 'core_events', { follow: true, follow_seconds: 4, resource_name: 'tools', limit: 1 });
    await new Promise((r) => setTimeout(r, 300));
    const other = await connectHttp(sb.url);
    await callTool(other, 'x_tools_crash', {}).catch(() => undefined);
    await other.close();
    const done = (await following).structuredContent as { events: Ev[]; followed: number; follow_ended: string };
    expect(done.follow_ended).to.equal('timeout');
    expect(done.events).to.have.length(1);
    expect(done.followed).to.equal(seen.length);
    expect(reasons(seen)).to.include('MCPServerFailed');
    expect(seen.every((e) => e.resource.name === 'tools')).to.equal(true);
    await follower.close();
  });

  it('keeps the history across a restart (file mode), ids continuing', async () => {
    // Startup is strict where a reload is forgiving: the broken file goes first.
    await rm(join(dir, 'mcpservers/broken.yaml'));
    const before = await events({ limit: 1 });
    await sb.stop();
    sb = await startSwitchboard({}, { configDir: dir });
    const after = await events({ limit: 1000 });
    expect(after.events.map((e) => e.id)).to.include(before.events[0]!.id);
    expect(after.events[0]!.id).to.be.greaterThan(before.events[0]!.id);
  });
});
