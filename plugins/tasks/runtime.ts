/**
 * Runs calls as tasks (kernel TaskSurface): creates the task (ttl capped, per-owner limit),
 * runs the call in the background with a cancellation of its own, keeps the record's status
 * as the work reports it (TaskCall), stores the final result and tells the caller's session
 * (notifications/tasks/status). tasks/cancel ends the task `cancelled` and fires the call's
 * cancellation, here or, through the broadcast, on the replica running it. A 2026-07-28
 * caller's task (the tasks extension: `startFor`) is the same record in the same store, owned
 * by the caller rather than a session, with no session to tell and no way back to ask on.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, CreateTaskResult } from '#mcp-sdk/types.js';
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import {
  Cancellation,
  errorResult,
  isTerminalStatus,
  SerialQueue,
  SwitchboardError,
  type Broadcast,
  type Identity,
  type Logger,
  type Session,
  type SessionsApi,
  type CancelOutcome,
  type TaskCall,
  type TaskCaller,
  type TaskChange,
  type TaskOrigin,
  type TaskParams,
  type TaskRecord,
  type TaskStore,
  type TaskSurface,
  type TaskWork,
  type TerminalTaskStatus,
} from '../../kernel/index.js';
import { boundedId, OwnerTaskStore, SessionMessageQueue, taskOf } from './session-tasks.js';
import { DETACHED, TaskChannel } from './task-channel.js';

/** How often a caller is told to poll; the SDK's tasks/result re-reads the task at this pace too. */
export const POLL_INTERVAL_MS = 500;

const CANCEL_TOPIC = 'tasks:cancel';

export interface TaskLimitsNow {
  maxTtlMs: number;
  maxPerOwner: number;
}

/** Whose a task is: a signed-in person's across their sessions; without identity, the one session's. */
export function ownerOf(session: { id: string; identity?: Identity }): string {
  return session.identity ? `person:${session.identity.subject}` : `session:${session.id}`;
}

/**
 * Whose a 2026-07-28 caller's task is: the signed-in person's (the owner their sessions' tasks
 * have too), else the client's address (as trusted proxies report it): there is no session.
 */
export function ownerOfCaller(caller: TaskCaller): string {
  return caller.identity ? `person:${caller.identity.subject}` : `address:${caller.clientAddress ?? 'unknown'}`;
}

interface Running {
  cancellation: Cancellation;
  /** The session that created the task; none for a 2026-07-28 caller's. */
  session?: Session;
  /** Status changes and the final write, in the order the work made them. */
  writes: SerialQueue;
}

class RunningTask implements TaskCall {
  constructor(
    readonly id: string,
    readonly ttl: number,
    private readonly change: (change: TaskChange) => void,
  ) {}

  runsAs(ref: { server: string; taskId: string }): void {
    this.change({ upstream: { server: ref.server, taskId: ref.taskId } });
  }

  status(status: 'working' | 'input_required', message?: string): void {
    this.change({ status, ...(message !== undefined ? { statusMessage: message } : {}) });
  }
}

export class TaskRuntime implements TaskSurface {
  private readonly running = new Map<string, Running>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly limits: () => TaskLimitsNow,
    private readonly sessions: SessionsApi,
    private readonly log: Logger,
    private readonly broadcast?: Broadcast,
  ) {}

  /** Cluster mode: a cancel on another replica reaches the call running here. */
  async listen(): Promise<void> {
    if (this.broadcast) this.unsubscribe = await this.broadcast.subscribe(CANCEL_TOPIC, (taskId) => this.abortHere(taskId));
  }

  /** Shutdown: every task running here is cancelled (its record ends as the call does). */
  async stop(): Promise<void> {
    for (const [id] of this.running) this.abortHere(id);
    await Promise.all([...this.running.values()].map((r) => r.writes.idle()));
    await this.unsubscribe?.();
  }

  forSession(session: { id: string; identity?: Identity }): { taskStore: OwnerTaskStore; taskMessageQueue: SessionMessageQueue } {
    return { taskStore: new OwnerTaskStore(this.store, ownerOf(session), (id, owner) => this.cancel(id, owner)), taskMessageQueue: new SessionMessageQueue() };
  }

  async start(session: Session, params: TaskParams, origin: TaskOrigin, run: (work: TaskWork) => Promise<CallToolResult>): Promise<CreateTaskResult> {
    const record = await this.create(ownerOf(session), params, origin);
    this.launch(record, session, (task) => new TaskChannel(session, task), run);
    return { task: taskOf(record) };
  }

  async startFor(caller: TaskCaller, params: TaskParams, origin: TaskOrigin, run: (work: TaskWork) => Promise<CallToolResult>): Promise<TaskRecord> {
    const record = await this.create(ownerOfCaller(caller), params, origin);
    this.launch(record, undefined, () => DETACHED, run);
    return record;
  }

  find(taskId: string, caller: TaskCaller): Promise<TaskRecord | undefined> {
    return this.store.get(boundedId(taskId), ownerOfCaller(caller));
  }

  /** The extension's tasks/cancel: the same as tasks/cancel's, but an ended task is an ack too (cancel is idempotent there). */
  async cancelFor(taskId: string, caller: TaskCaller): Promise<CancelOutcome> {
    const owner = ownerOfCaller(caller);
    const r = await this.store.get(boundedId(taskId), owner);
    if (!r) return 'unknown';
    if (isTerminalStatus(r.status)) return 'ended';
    return (await this.end(taskId)) ? 'cancelled' : 'ended';
  }

  /** Stores the new task (ttl capped, the owner's limit checked): once this resolves, any replica finds it. */
  private async create(owner: string, params: TaskParams, origin: TaskOrigin): Promise<TaskRecord> {
    const { maxTtlMs, maxPerOwner } = this.limits();
    const ttl = Math.min(params.ttl ?? maxTtlMs, maxTtlMs);
    const now = Date.now();
    const at = new Date(now).toISOString();
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner,
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttl,
      expiresAt: now + ttl,
      pollInterval: POLL_INTERVAL_MS,
      metaTool: origin.metaTool,
      ...(origin.tool !== undefined ? { tool: origin.tool } : {}),
      kind: origin.workflow ? 'workflow' : 'call',
    };
    await this.store.create(record, maxPerOwner);
    return record;
  }

  private launch(
    record: TaskRecord,
    session: Session | undefined,
    channel: (task: TaskCall) => TaskWork['client'],
    run: (work: TaskWork) => Promise<CallToolResult>,
  ): void {
    const id = record.taskId;
    const entry: Running = { cancellation: new Cancellation(), ...(session ? { session } : {}), writes: new SerialQueue() };
    this.running.set(id, entry);
    const task = new RunningTask(id, record.ttl, (change) => void this.change(entry, id, change));
    const work: TaskWork = { task, cancellation: entry.cancellation, client: channel(task) };
    // After the CreateTaskResult is on its way: nothing the work sends may precede it.
    setImmediate(() => void this.execute(entry, id, work, run));
  }

  /** tasks/cancel (through the SDK): the task ends `cancelled` at once and the call is cancelled where it runs. */
  async cancel(taskId: string, owner: string): Promise<void> {
    const r = await this.store.get(taskId, owner);
    if (!r) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    if (isTerminalStatus(r.status)) throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${r.status}`);
    await this.end(taskId);
  }

  /** Ends a running task `cancelled` and fires its call's cancellation here or on its replica; false when it ended first. */
  private async end(taskId: string): Promise<boolean> {
    const cancelled = errorResult(new SwitchboardError('CANCELLED', `task ${taskId} was cancelled by the client`));
    const done = await this.store.finish(taskId, 'cancelled', cancelled, 'Cancelled by the client');
    if (this.running.has(taskId)) this.abortHere(taskId);
    else if (this.broadcast) await this.broadcast.publish(CANCEL_TOPIC, taskId);
    if (done) this.notify(this.running.get(taskId)?.session, done);
    return done !== undefined;
  }

  /** Ends tasks a previous run left unfinished (file mode): `finish` decides how each ends. */
  async endUnfinished(
    unfinished: TaskRecord[],
    finish: (r: TaskRecord) => Promise<{ status: TerminalTaskStatus; result: CallToolResult; message: string }>,
  ): Promise<void> {
    for (const r of unfinished) {
      const end = await finish(r);
      await this.store.finish(r.taskId, end.status, end.result, end.message);
    }
  }

  private abortHere(taskId: string): void {
    this.running.get(taskId)?.cancellation.abort(new SwitchboardError('CANCELLED', `task ${taskId} was cancelled`));
  }

  private change(entry: Running, taskId: string, change: TaskChange): Promise<void> {
    return entry.writes.run(async () => {
      try {
        const r = await this.store.update(taskId, change);
        if (r && (change.status !== undefined || change.statusMessage !== undefined)) this.notify(entry.session, r);
      } catch (err) {
        this.log.warn(`task ${taskId}: cannot record its status: ${(err as Error).message}`);
      }
    });
  }

  private async execute(entry: Running, taskId: string, work: TaskWork, run: (work: TaskWork) => Promise<CallToolResult>): Promise<void> {
    let result: CallToolResult;
    try {
      result = await run(work);
    } catch (err) {
      result = errorResult(err);
    }
    const status: TerminalTaskStatus = entry.cancellation.aborted ? 'cancelled' : result.isError ? 'failed' : 'completed';
    await entry.writes.run(async () => {
      try {
        const done = await this.store.finish(taskId, status, result, status === 'completed' ? undefined : failureMessage(result));
        if (done) this.notify(entry.session, done);
      } catch (err) {
        this.log.error(`task ${taskId}: cannot store its result: ${(err as Error).message}`);
      }
    });
    this.running.delete(taskId);
  }

  /**
   * notifications/tasks/status to the session that created the task while it is open here;
   * once it is gone, to the owner's other sessions here (a person who reconnected).
   */
  private notify(session: Session | undefined, r: TaskRecord): void {
    const params = taskOf(r);
    const targets = session && this.sessions.get(session.id) === session ? [session] : this.sessions.all().filter((s) => s.identity && ownerOf(s) === r.owner);
    for (const s of targets) void s.server.notification({ method: 'notifications/tasks/status', params }).catch(() => undefined);
  }
}

/** A failed call's status message: its first text, cut short (the whole result is tasks/result's). */
function failureMessage(result: CallToolResult): string {
  const first = result.content.find((c) => c.type === 'text');
  const text = first && 'text' in first && typeof first.text === 'string' ? first.text : 'the call failed';
  return text.length > 500 ? `${text.slice(0, 500)}...` : text;
}
