/**
 * reference-behaviour.md §10 through the protocol: core_events' arguments in both spellings
 * (and an unknown resource type matching nothing), run and step events filed under their
 * workflow with the execution's id, the reference's reasons, types and phrases for servers,
 * workflows, validation, runs and steps, and the session follow (`follow: true` without
 * `follow_seconds`) that answers at once and pushes later events to the session's stream.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, eventually, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { type EventSeen as Ev, type EventPage as Page } from '../support/event-page.js';

const FILES = {
  'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\nbackoff: {initialSeconds: 0.2, maxSeconds: 1}\n'),
};

describe('core_events as the reference has it (reference-behaviour.md §10)', function () {
  this.timeout(60_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard(FILES);
    client = await connectHttp(sb.url);
    await eventually(
      () => events({ resourceType: 'MCPServer', resourceName: 'fixture' }),
      (p) => p.events.some((e) => e.reason === 'MCPServerToolsDiscovered'),
      20_000,
      100,
    );
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  const events = async (args: Record<string, unknown>): Promise<Page> => {
    const r = await callTool(client, 'core_events', args);
    expect(r.isError, text(r)).to.not.equal(true);
    return r.structuredContent as unknown as Page;
  };
  const reasons = (p: Page) => p.events.map((e) => e.reason);
  const find = (p: Page, reason: string) => {
    const e = p.events.find((x) => x.reason === reason);
    expect(e, `${reason} among ${JSON.stringify(reasons(p))}`).to.not.equal(undefined);
    return e!;
  };

  describe('arguments', () => {
    it('takes the camelCase spelling of every filter, answering as the snake_case one', async () => {
      const snake = await events({ resource_type: 'MCPServer', resource_name: 'fixture', type: 'Normal', since: '1h', limit: 3 });
      const camel = await events({ resourceType: 'MCPServer', resourceName: 'fixture', eventType: 'Normal', since: '1h', limit: 3 });
      expect(camel.events.map((e) => e.id)).to.deep.equal(snake.events.map((e) => e.id));
      expect(camel.total).to.equal(snake.total);
      expect(camel.events).to.have.length(3);
      expect(camel.events.every((e) => e.resource.type === 'MCPServer' && e.resource.name === 'fixture' && e.type === 'Normal')).to.equal(true);
      // Both spellings with one value are one argument; namespace is accepted.
      const both = await events({ resource_type: 'MCPServer', resourceType: 'MCPServer', namespace: 'default', limit: 3 });
      expect(both.total).to.be.greaterThan(0);
    });

    it('keeps {events, total}; limit defaults to 50', async () => {
      for (let i = 0; i < 50; i++) {
        const r = await callTool(client, 'core_workflow_validate', { name: `burst-${i}`, steps: [{ id: 'p', tool: 'x_fx_ping' }] });
        expect(r.isError, text(r)).to.not.equal(true);
      }
      const page = await events({});
      expect(Object.keys(page).sort()).to.deep.equal(['events', 'total']);
      expect(page.events).to.have.length(50);
      expect(page.total).to.be.greaterThan(50);
    });

    it('an unknown resourceType or eventType matches nothing, without an error', async () => {
      expect(await events({ resourceType: 'Pod' })).to.deep.equal({ events: [], total: 0 });
      expect(await events({ eventType: 'Critical' })).to.deep.equal({ events: [], total: 0 });
    });

    it('since and until take a duration meaning that long ago, or an RFC 3339 time', async () => {
      const recent = await events({ since: '1h' });
      expect(recent.total).to.be.greaterThan(0);
      expect(await events({ until: '1h' })).to.deep.equal({ events: [], total: 0 });
      expect(await events({ since: new Date(Date.now() + 60_000).toISOString() })).to.deep.equal({ events: [], total: 0 });
      const bad = await callTool(client, 'core_events', { since: 'yesterday' });
      expect(errorCode(bad)).to.equal('INVALID_ARGUMENTS');
      expect(text(bad)).to.include('since must be an RFC 3339 time (2026-01-02T15:04:05Z) or a duration such as 1h (that long ago); it is "yesterday"');
    });

    it('two spellings of one argument that disagree are refused, naming both', async () => {
      const r = await callTool(client, 'core_events', { resource_type: 'MCPServer', resourceType: 'Workflow' });
      expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
      expect(text(r)).to.include('resourceType is "Workflow" but resource_type is "MCPServer": give one of the two spellings, or the same value');
      const t = await callTool(client, 'core_events', { type: 'Normal', eventType: 'Warning' });
      expect(text(t)).to.include('eventType is "Warning" but type is "Normal"');
    });

    it('refuses an oversized filter value', async () => {
      const r = await callTool(client, 'core_events', { resourceName: 'x'.repeat(257) });
      expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
      expect(text(r)).to.include('resourceName must');
    });
  });

  describe('servers', () => {
    it('files definition and lifecycle events under MCPServer/<name> with the reference reasons and phrases', async () => {
      const created = await callTool(client, 'core_mcpserver_create', {
        name: 'extra',
        type: 'stdio',
        command: ['node', TEST_SERVER, 'extra'],
        autoStart: true,
      });
      expect(created.isError, JSON.stringify(created)).to.not.equal(true);
      const started = await eventually(
        () => events({ resourceType: 'MCPServer', resourceName: 'extra' }),
        (p) => reasons(p).includes('MCPServerToolsDiscovered'),
        20_000,
        100,
      );
      expect(find(started, 'MCPServerCreated')).to.deep.include({ type: 'Normal', message: 'MCPServer extra successfully created' });
      expect(find(started, 'MCPServerStarting')).to.deep.include({ type: 'Normal', message: 'MCPServer extra starting' });
      expect(find(started, 'MCPServerStarted')).to.deep.include({ type: 'Normal', message: 'MCPServer extra started successfully' });
      expect(find(started, 'MCPServerToolsDiscovered').message).to.match(/^MCPServer extra discovered \d+ tools$/);

      expect((await callTool(client, 'core_service_restart', { name: 'extra' })).isError).to.not.equal(true);
      const restarted = await eventually(
        () => events({ resourceType: 'MCPServer', resourceName: 'extra' }),
        (p) => reasons(p).includes('MCPServerRestarting') && reasons(p).filter((r) => r === 'MCPServerStarted').length === 2,
        20_000,
        100,
      );
      expect(find(restarted, 'MCPServerRestarting')).to.deep.include({ type: 'Normal', message: 'MCPServer extra restarting' });
      expect(reasons(restarted).filter((r) => r === 'MCPServerStarting')).to.have.length(1, 'a restart is not a first start');

      expect((await callTool(client, 'core_service_stop', { name: 'extra' })).isError).to.not.equal(true);
      const removed = await callTool(client, 'core_mcpserver_delete', { name: 'extra' });
      expect(removed.isError, text(removed)).to.not.equal(true);
      const deleted = await eventually(
        () => events({ resourceType: 'MCPServer', resourceName: 'extra' }),
        (p) => reasons(p).includes('MCPServerDeleted'),
        20_000,
        100,
      );
      expect(find(deleted, 'MCPServerDeleted')).to.deep.include({ type: 'Normal', message: 'MCPServer extra successfully deleted' });
      expect(find(deleted, 'MCPServerStopped').message).to.match(/^MCPServer extra stopped/);
    });

    it('a crash is MCPServerFailed (Warning, with the reason), its reconnection a recovery', async () => {
      await callTool(client, 'x_fx_crash', {}).catch(() => undefined);
      const p = await eventually(
        () => events({ resourceName: 'fixture', since: '1h' }),
        (x) => reasons(x).includes('MCPServerRecoverySucceeded'),
        20_000,
        100,
      );
      const failed = find(p, 'MCPServerFailed');
      expect(failed.type).to.equal('Warning');
      expect(failed.message).to.match(/^MCPServer fixture failed: .+/);
      expect(find(p, 'MCPServerRecoveryStarted')).to.deep.include({ type: 'Normal', message: 'MCPServer fixture recovery started' });
      expect(find(p, 'MCPServerRecoverySucceeded').message).to.match(/^MCPServer fixture recovered successfully after \d+ s down$/);
    });
  });

  describe('workflows, runs and steps', () => {
    const STEPS = [
      { id: 'first', tool: 'x_fx_ping' },
      { id: 'gate', tool: 'x_fx_ping', condition: { template: 'false' } },
      { id: 'tolerated', tool: 'x_fx_fail_rpc', allow_failure: true },
      { id: 'last', tool: 'x_fx_ping' },
    ];

    it('create, update and validate tell validation and the step count; a refused definition tells why', async () => {
      const ok = await callTool(client, 'core_workflow_create', { name: 'evref', steps: STEPS });
      expect(ok.isError, text(ok)).to.not.equal(true);
      const created = await eventually(
        () => events({ resourceType: 'Workflow', resourceName: 'evref' }),
        (p) => reasons(p).includes('WorkflowCreated'),
        10_000,
        50,
      );
      expect(find(created, 'WorkflowCreated')).to.deep.include({ type: 'Normal', message: 'Workflow evref successfully created with 4 steps' });
      expect(find(created, 'WorkflowValidationSucceeded')).to.deep.include({ type: 'Normal', message: 'Workflow evref validation completed successfully' });

      await callTool(client, 'core_workflow_update', { name: 'evref', description: 'edited' });
      const updated = await eventually(
        () => events({ resourceType: 'Workflow', resourceName: 'evref' }),
        (p) => reasons(p).includes('WorkflowUpdated'),
        10_000,
        50,
      );
      expect(find(updated, 'WorkflowUpdated').message).to.equal('Workflow evref successfully updated with 4 steps');
      expect(reasons(updated).filter((r) => r === 'WorkflowValidationSucceeded')).to.have.length(2);

      const refused = await callTool(client, 'core_workflow_create', {
        name: 'evbad',
        steps: [
          { id: 'a', tool: 'x_fx_ping' },
          { id: 'a', tool: 'x_fx_ping' },
        ],
      });
      expect(refused.isError).to.equal(true);
      const bad = await events({ resourceType: 'Workflow', resourceName: 'evbad' });
      expect(reasons(bad)).to.deep.equal(['WorkflowValidationFailed']);
      expect(bad.events[0]!.type).to.equal('Warning');
      expect(bad.events[0]!.message).to.match(/^Workflow evbad validation failed: .*duplicate step ID 'a' found/);

      await callTool(client, 'core_workflow_validate', { name: 'evcheck', steps: [{ id: 'p', tool: 'x_fx_ping' }] });
      const checked = await events({ resourceName: 'evcheck' });
      expect(checked.events[0]).to.deep.include({ reason: 'WorkflowValidationSucceeded', resource: { type: 'Workflow', name: 'evcheck' } });
    });

    it('files a run and its steps under Workflow/<name> with execution_id, in the reference phrases', async () => {
      const run = await callTool(client, 'workflow_evref', {});
      expect(run.isError, text(run)).to.not.equal(true);
      const id = (run.structuredContent as { execution_id: string }).execution_id;
      const p = await events({ resourceType: 'Workflow', resourceName: 'evref', since: '1h' });
      const ofRun = p.events.filter((e) => e.execution_id === id).reverse();
      expect(ofRun.map((e) => [e.reason, e.type, e.message])).to.deep.equal([
        ['WorkflowExecutionStarted', 'Normal', 'Workflow evref execution started'],
        ['WorkflowStepStarted', 'Normal', 'Workflow evref step first started (tool: x_fx_ping)'],
        ['WorkflowStepCompleted', 'Normal', 'Workflow evref step first completed successfully'],
        ['WorkflowStepStarted', 'Normal', 'Workflow evref step gate started (tool: x_fx_ping)'],
        ['WorkflowStepSkipped', 'Normal', 'Workflow evref step gate skipped: condition evaluation returned false'],
        ['WorkflowStepStarted', 'Normal', 'Workflow evref step tolerated started (tool: x_fx_fail_rpc)'],
        ['WorkflowStepFailed', 'Warning', ofRun[6]!.message],
        ['WorkflowStepStarted', 'Normal', 'Workflow evref step last started (tool: x_fx_ping)'],
        ['WorkflowStepCompleted', 'Normal', 'Workflow evref step last completed successfully'],
        ['WorkflowExecutionCompleted', 'Normal', ofRun[9]!.message],
      ]);
      expect(ofRun[6]!.message).to.match(/^Workflow evref step tolerated failed \(allow_failure=true, continuing\): .+/);
      expect(ofRun[9]!.message).to.match(/^Workflow evref execution completed successfully \(4 steps\) in \d+(\.\d+)?(ms|s|µs)$/);
      expect(ofRun.every((e) => e.resource.type === 'Workflow' && e.resource.name === 'evref')).to.equal(true);

      // WorkflowExecution stays a filter: the events carrying that id.
      const byRun = await events({ resourceType: 'WorkflowExecution', resourceName: id });
      expect(byRun.events.map((e) => e.id)).to.deep.equal([...ofRun].reverse().map((e) => e.id));
      expect(await events({ resourceType: 'WorkflowExecution', resourceName: 'no-such-run' })).to.deep.equal({ events: [], total: 0 });
    });

    it('a failed run is WorkflowExecutionFailed with the error; losing a tool makes the workflow WorkflowUnavailable', async () => {
      await callTool(client, 'core_workflow_create', { name: 'evfail', steps: [{ id: 'boom', tool: 'x_fx_fail_rpc' }] });
      const run = await callTool(client, 'workflow_evfail', {});
      expect(run.isError).to.equal(true);
      const p = await events({ resourceName: 'evfail', eventType: 'Warning' });
      expect(reasons(p)).to.deep.equal(['WorkflowExecutionFailed', 'WorkflowStepFailed']);
      expect(p.events[0]!.message).to.match(/^Workflow evfail execution failed: .+/);
      expect(p.events[1]!.message).to.match(/^Workflow evfail step boom failed: .+/);

      expect((await callTool(client, 'core_service_stop', { name: 'fixture' })).isError).to.not.equal(true);
      const gone = await eventually(
        () => events({ resourceType: 'Workflow', eventType: 'Warning' }),
        (x) => x.events.filter((e) => e.reason === 'WorkflowUnavailable').length >= 2,
        20_000,
        100,
      );
      const evref = gone.events.find((e) => e.reason === 'WorkflowUnavailable' && e.resource.name === 'evref')!;
      expect(evref.message).to.equal('Workflow evref is unavailable (missing tools: x_fx_fail_rpc, x_fx_ping)');
      await callTool(client, 'core_service_start', { name: 'fixture' });
    });
  });

  describe('a cancelled run', () => {
    it('is WorkflowExecutionCancelled (Warning), saying why', async () => {
      await callTool(client, 'core_workflow_create', { name: 'evslow', steps: [{ id: 'wait', tool: 'x_fx_slow', args: { ms: 30_000 } }] });
      // The previous test stopped and restarted the fixture server: its tools come back first.
      await eventually(
        async () => (await callTool(client, 'core_workflow_available', { name: 'evslow' })).structuredContent as { available: boolean },
        (r) => r.available,
        20_000,
        100,
      );
      const abort = new AbortController();
      const running = client
        .callTool({ name: 'call_tool', arguments: { name: 'workflow_evslow', arguments: {} } }, undefined, { signal: abort.signal })
        .catch((e: unknown) => e);
      await eventually(
        () => events({ resourceName: 'evslow' }),
        (p) => reasons(p).includes('WorkflowStepStarted'),
        20_000,
        50,
      );
      abort.abort();
      await running;
      const p = await eventually(
        () => events({ resourceName: 'evslow' }),
        (x) => reasons(x).includes('WorkflowExecutionCancelled'),
        20_000,
        50,
      );
      expect(find(p, 'WorkflowExecutionCancelled')).to.deep.include({
        type: 'Warning',
        message: 'Workflow evslow execution cancelled: cancelled by the client or by shutdown',
      });
      expect(reasons(p)).to.not.include('WorkflowStepCompleted');
    });
  });

  describe('follow: true without follow_seconds', () => {
    it('answers at once, then pushes later matching events to the session until it follows anew', async () => {
      const follower = await connectHttp(sb.url);
      const seen: Ev[] = [];
      follower.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        if (n.params.logger === 'switchboard.events') seen.push(n.params.data as Ev);
      });
      const first = (await callTool(follower, 'core_events', { follow: true, resourceName: 'follow-a', limit: 5 })).structuredContent as unknown as Page;
      expect(first).to.deep.equal({ events: [], total: 0, following: 'session' });
      // The session's stream opens on its own after initialize: events are made until one arrives.
      await eventually(
        async () => {
          await callTool(client, 'core_workflow_validate', { name: 'follow-a', steps: [{ id: 'p', tool: 'x_fx_ping' }] });
          return seen.length;
        },
        (n) => n > 0,
        20_000,
        200,
      );
      expect(seen[0]).to.deep.include({ reason: 'WorkflowValidationSucceeded', resource: { type: 'Workflow', name: 'follow-a' } });

      // A second follow replaces the first: follow-a's events stop, follow-b's come.
      const second = (await callTool(follower, 'core_events', { follow: true, resourceName: 'follow-b' })).structuredContent as unknown as Page;
      expect(second.following).to.equal('session');
      const before = seen.length;
      await callTool(client, 'core_workflow_validate', { name: 'follow-a', steps: [{ id: 'p', tool: 'x_fx_ping' }] });
      await callTool(client, 'core_workflow_validate', { name: 'follow-b', steps: [{ id: 'p', tool: 'x_fx_ping' }] });
      await eventually(
        () => Promise.resolve(seen.slice(before)),
        (s) => s.some((e) => e.resource.name === 'follow-b'),
        20_000,
        50,
      );
      expect(seen.slice(before).map((e) => e.resource.name)).to.deep.equal(['follow-b']);
      await follower.close();
    });

    it("keeps to the session's logging/setLevel: above notice, only the warnings are pushed", async () => {
      const follower = await connectHttp(sb.url);
      const seen: Ev[] = [];
      follower.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        if (n.params.logger === 'switchboard.events') seen.push(n.params.data as Ev);
      });
      await follower.setLoggingLevel('warning');
      await callTool(follower, 'core_events', { follow: true, resourceName: 'levels' });
      const refused = () =>
        callTool(client, 'core_workflow_create', {
          name: 'levels',
          steps: [
            { id: 'a', tool: 'x_fx_ping' },
            { id: 'a', tool: 'x_fx_ping' },
          ],
        });
      await eventually(
        async () => {
          await refused();
          return seen.length;
        },
        (n) => n > 0,
        20_000,
        200,
      );
      // On one stream, in order: the Normal one would come before the second warning.
      const before = seen.length;
      await callTool(client, 'core_workflow_validate', { name: 'levels', steps: [{ id: 'p', tool: 'x_fx_ping' }] });
      await refused();
      await eventually(
        () => Promise.resolve(seen.length),
        (n) => n > before,
        20_000,
        50,
      );
      expect(seen.map((e) => e.reason)).to.deep.equal(Array(seen.length).fill('WorkflowValidationFailed'));
      await follower.close();
    });

    it('follow_seconds keeps the bounded mode: the call stays open and ends with followed and follow_ended', async () => {
      const r = (await callTool(client, 'core_events', { follow: true, follow_seconds: 0.2, resourceName: 'nothing-here' })).structuredContent as Record<
        string,
        unknown
      >;
      expect(r).to.deep.equal({ events: [], total: 0, followed: 0, follow_ended: 'timeout' });
    });
  });
});
