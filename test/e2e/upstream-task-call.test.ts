/**
 * The upstream side of a call run as a task, driven in process: a real UpstreamConnection to
 * the task-capable fixture (stdio), the tool's own ToolDefinition.invoke, and a TaskCall made
 * here the way Switchboard's task server makes one. It shows what the task server is told:
 * what the call runs as upstream, the statuses on the way, and that cancelling the call
 * cancels the upstream task. Through the real protocol (an SDK task client asking
 * call_tool for a task) this is test/e2e/tasks-upstream.test.ts.
 */
import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RELATED_TASK_META_KEY, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Cancellation } from '../../kernel/cancellation.js';
import {
  ServerUnavailableError,
  SwitchboardError,
  type CallContext,
  type McpServerDefinition,
  type Session,
  type TaskCall,
  type ToolDefinition,
} from '../../kernel/index.js';
import { createLogger } from '../../kernel/log.js';
import type { ClientChannel } from '../../kernel/mcp/shared/client-channel.js';
import { SecretScrubber } from '../../kernel/secrets/scrubber.js';
import { UpstreamConnection } from '../../plugins/upstreams/connection.js';
import { toolDefinitions } from '../../plugins/upstreams/tool-definitions.js';
import { eventually, ROOT } from '../support/harness.js';

const TASKS = join(ROOT, 'dist/test/fixtures/task-server.js');

/** A TaskCall as the task server would pass one, recording what it is told. */
class RecordedTask implements TaskCall {
  readonly ran: { server: string; taskId: string }[] = [];
  readonly statuses: [string, string | undefined][] = [];
  constructor(
    readonly id: string,
    readonly ttl?: number,
  ) {}
  runsAs(ref: { server: string; taskId: string }): void {
    this.ran.push(ref);
  }
  status(status: 'working' | 'input_required', message?: string): void {
    this.statuses.push([status, message]);
  }
}

/** The calling client's side of the session: it answers elicitation with a name and keeps what it was asked. */
class Person implements ClientChannel {
  readonly asked: Record<string, unknown>[] = [];
  capabilities() {
    return { elicitation: {} };
  }
  async request(_method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    this.asked.push(params ?? {});
    return { action: 'accept', content: { name: 'grace' } };
  }
  async log(): Promise<void> {}
  async notify(): Promise<void> {}
}

describe('a call run as a task runs as a task of its upstream (in process)', function () {
  this.timeout(60_000);
  let conn: UpstreamConnection;
  let tools: Map<string, ToolDefinition>;
  const session = { id: 'session-1' } as unknown as Session;

  const context = (task?: TaskCall, client?: ClientChannel): CallContext & { cancellation: Cancellation } => {
    const call: CallContext & { cancellation: Cancellation } = {
      request: { session, headers: {}, slots: new Map() },
      cancellation: new Cancellation(),
      depth: 0,
    };
    if (task) call.task = task;
    if (client) call.client = client;
    return call;
  };
  const run = (tool: string, args: Record<string, unknown>, call: CallContext) => tools.get(`x_tasks_${tool}`)!.invoke(args, call);
  const events = async () => (JSON.parse(((await run('events', {}, context())).content[0] as { text: string }).text) as { events: string[] }).events;

  before(async () => {
    const def: McpServerDefinition = {
      name: 'tasks',
      type: 'stdio',
      autoStart: true,
      command: [process.execPath, TASKS],
      env: {},
      headers: {},
      timeout: 30,
      callTimeout: 60,
      maxMessageBytes: 4 * 1024 * 1024,
      stderrLogLevel: 'off',
      suspended: false,
      backoff: { initialSeconds: 1, maxSeconds: 5 },
    };
    conn = new UpstreamConnection(def, tmpdir(), createLogger({ level: 'error' }), {
      onContentChange: () => undefined,
      onStateChange: () => undefined,
      onSecret: () => undefined,
      secrets: new SecretScrubber(),
      onResourceUpdated: () => undefined,
      outbound: () => {
        throw new Error('no remote server here');
      },
      allowedEnv: () => [],
      unavailable: (c) => new ServerUnavailableError(c.name, 'not running'),
      toolLimits: () => ({ maxToolsPerServer: 100, maxToolNameLength: 100 }),
    });
    await conn.start();
    expect(conn.state).to.equal('running');
    tools = new Map(toolDefinitions(conn).map((t) => [t.name, t]));
  });

  after(async () => {
    await conn?.stop();
  });

  it('tells the task what it runs as upstream and mirrors the upstream status messages', async () => {
    const task = new RecordedTask('sb-task-1', 30_000);
    const r: CallToolResult = await run('slow', { ms: 1200 }, context(task));
    expect((r.content[0] as { text: string }).text).to.equal('slow done after 1200 ms');
    expect(task.ran).to.have.length(1);
    expect(task.ran[0]!.server).to.equal('tasks');
    expect(await events()).to.include(`finished slow ${task.ran[0]!.taskId}`);
    expect(task.statuses).to.deep.include(['working', 'slow: halfway']);
  });

  it('cancelling the call cancels the upstream task: its work stops', async () => {
    const task = new RecordedTask('sb-task-2');
    const call = context(task);
    const pending = run('slow', {}, call);
    await eventually(
      async () => task.ran.length,
      (n) => n === 1,
      15_000,
    );
    const upstreamId = task.ran[0]!.taskId;
    call.cancellation.abort('stopped by the person');
    const err = await pending.then(
      () => expect.fail('the cancelled call resolved'),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(SwitchboardError);
    expect((err as SwitchboardError).code).to.equal('CANCELLED');
    await eventually(events, (e) => e.includes(`cancelled slow ${upstreamId}`), 15_000);
    expect(await events()).to.not.include(`finished slow ${upstreamId}`);
  });

  it("mirrors input_required while the upstream asks, and the person sees the caller's task id, not the upstream's", async () => {
    const task = new RecordedTask('sb-task-3');
    const person = new Person();
    const r = await run('ask_in_task', {}, context(task, person));
    expect((r.content[0] as { text: string }).text).to.equal('hello grace');
    expect(task.statuses).to.deep.include(['input_required', 'waiting for a name']);
    expect(person.asked).to.have.length(1);
    expect(person.asked[0]!.message).to.equal('What is your name?');
    expect((person.asked[0]!._meta as Record<string, unknown>)[RELATED_TASK_META_KEY]).to.deep.equal({ taskId: 'sb-task-3' });
  });

  it('a tool that requires a task runs as one without a TaskCall too, and tells nobody', async () => {
    const r = await run('need_task', { text: 'quiet' }, context());
    expect((r.content[0] as { text: string }).text).to.equal('echo: quiet');
  });
});
