/**
 * Streamable-HTTP sessions shared by replicas (cluster mode, when a `session-directory`
 * service is provided). A session initialized on one replica is recorded before its
 * initialize answer leaves; a replica that gets a request for a session it does not hold
 * rebuilds it from the record (same owner only) and keeps it, so later requests there cost
 * no directory round trip. Each replica that holds a copy hears the session's channel: a
 * message for the GET stream (written where the stream is held), the record changed, or
 * the session ended. A copy, resumed or changed, is announced as `onSessionChange(...,
 * 'elsewhere')`, so that what follows the record (resource subscriptions) follows it here. Without the service none of this exists and nothing here runs.
 */
import {
  foreignCaller,
  type Identity,
  type KernelApi,
  type Logger,
  type Session,
  type SessionDirectory,
  type SessionRecord,
  type SessionSignal,
  SharedStateUnavailableError,
} from '../../kernel/index.js';
import { HttpSessionTransport } from './session-transport.js';
import type { StreamKeepAlive } from '../../lib/http/stream-keep-alive.js';

/** Why a session could not be resumed here, as the HTTP answer says it. */
export interface Refusal {
  status: 403 | 404 | 503;
  code: number;
  message: string;
}

/**
 * How often a replica pushes back a session's expiry while it serves it: never per request.
 * A quarter of sessionIdleMinutes when that is shorter (session-directory.ts keeps an ended
 * session's mark a minute beyond the idle time for this reason).
 */
const TOUCH_EVERY_MS = 60_000;

export class ClusterSessions {
  private readonly resuming = new Map<string, Promise<HttpSessionTransport | Refusal>>();
  private readonly listening = new Map<string, () => Promise<void>>();
  private readonly touched = new WeakMap<HttpSessionTransport, number>();
  private readonly protocolVersions = new WeakMap<HttpSessionTransport, string>();
  private readonly touchEveryMs: number;

  constructor(
    private readonly kernel: KernelApi,
    private readonly directory: SessionDirectory,
    private readonly sessions: Map<string, HttpSessionTransport>,
    private readonly keptAlive: StreamKeepAlive,
    private readonly idleSeconds: number,
    private readonly log: Logger,
  ) {
    this.touchEveryMs = idleSeconds > 0 ? Math.min(TOUCH_EVERY_MS, (idleSeconds * 1000) / 4) : Infinity;
    kernel.hooks.onSessionChange.tapPromise('transport-streamable-http', async (session, origin) => {
      const transport = origin === 'here' ? sessions.get(session.id) : undefined;
      if (transport) await this.changed(session, transport);
    });
  }

  /**
   * A session initialized here: recorded (and heard) before its initialize answer leaves. One
   * that cannot be recorded (Redis unreachable, or refusing writes: out of memory under
   * `noeviction`) is refused with 503 SHARED_STATE_UNAVAILABLE and no session id: a session
   * the other replicas cannot find would answer 404 at its client's next request.
   */
  opened(transport: HttpSessionTransport): void {
    transport.beforeInitializeAnswer = async (answer) => {
      if (!('result' in answer)) return { kind: 'answer', message: answer };
      const session = this.kernel.sessions.get(transport.sessionId);
      if (!session) return { kind: 'answer', message: answer };
      this.protocolVersions.set(transport, String(answer.result.protocolVersion));
      try {
        await this.listen(transport);
        await this.directory.put(this.recordOf(session, transport), this.idleSeconds);
        this.touched.set(transport, Date.now());
        return { kind: 'answer', message: answer };
      } catch (err) {
        const refusal = err instanceof SharedStateUnavailableError ? err : new SharedStateUnavailableError('recording a new session', (err as Error).message);
        this.log.warn(`session ${transport.sessionId} refused: it could not be recorded: ${refusal.message}`);
        setImmediate(() => transport.drop());
        return {
          kind: 'refuse',
          status: 503,
          headers: { 'retry-after': '1' },
          message: { jsonrpc: '2.0', id: answer.id, error: { code: -32000, message: refusal.message, data: { code: refusal.code, ...refusal.details } } },
        };
      }
    };
  }

  /**
   * A request for a session this replica holds: its expiry is pushed back now and then, never
   * awaited. A record that vanished without the session ending (Redis restarted without its
   * data) is written back from this copy in the same step; an ended one drops the copy.
   */
  seen(transport: HttpSessionTransport): void {
    const now = transport.lastActivity;
    if (now - (this.touched.get(transport) ?? 0) < this.touchEveryMs) return;
    this.touched.set(transport, now);
    const session = this.kernel.sessions.get(transport.sessionId);
    if (!session) return;
    this.directory.touch(this.recordOf(session, transport), this.idleSeconds).then(
      (outcome) => {
        // Ended while this copy missed the news: drop it.
        if (outcome === 'ended') transport.drop();
        else if (outcome === 'restored')
          this.log.warn(`session ${transport.sessionId}: its record had vanished from Redis without the session ending; written back from this replica's copy`);
      },
      (err: unknown) => this.log.warn(`session ${transport.sessionId}: could not push back its expiry: ${(err as Error).message}`),
    );
  }

  /** A session this replica does not hold: rebuilt from its record for its owner. */
  resume(id: string, caller: Identity | undefined): Promise<HttpSessionTransport | Refusal> {
    let pending = this.resuming.get(id);
    if (!pending) {
      pending = this.rebuild(id, caller).finally(() => this.resuming.delete(id));
      this.resuming.set(id, pending);
      return pending;
    }
    // Another request is rebuilding it: the same owner check for this caller once it is there.
    return pending.then((t) => {
      if (!(t instanceof HttpSessionTransport)) return t;
      const session = this.kernel.sessions.get(id);
      const foreign = session && foreignCaller(session, caller);
      return foreign ? { status: 403, code: -32000, message: `Forbidden: ${foreign}` } : t;
    });
  }

  /** This replica's copy is gone: stop hearing its channel; if it ended, end it everywhere. */
  released(transport: HttpSessionTransport): void {
    const id = transport.sessionId;
    const unlisten = this.listening.get(id);
    this.listening.delete(id);
    void unlisten?.().catch(() => undefined);
    if (!transport.ended) return;
    // Told even when the delete failed: a copy that hears it drops itself either way.
    const tell = (): Promise<void> => this.directory.publish(id, { kind: 'end' });
    this.directory
      .delete(id, this.idleSeconds)
      .then(tell, (err: unknown) => tell().then(() => Promise.reject(err as Error)))
      .catch((err: unknown) => this.log.warn(`session ${id} ended here, but the other replicas could not be told: ${(err as Error).message}`));
  }

  private async rebuild(id: string, caller: Identity | undefined): Promise<HttpSessionTransport | Refusal> {
    // Heard before the record is read: an end published meanwhile is not missed.
    const early: SessionSignal[] = [];
    let transport: HttpSessionTransport | undefined;
    let unlisten: (() => Promise<void>) | undefined;
    let record: SessionRecord | undefined;
    try {
      unlisten = await this.directory.subscribe(id, (signal) => (transport ? this.signal(transport, signal) : early.push(signal)));
      record = await this.directory.get(id);
    } catch (err) {
      await unlisten?.().catch(() => undefined);
      return { status: 503, code: -32000, message: `Service Unavailable: session '${id}' could not be looked up: ${(err as Error).message}` };
    }
    const foreign = record && foreignCaller(record, caller);
    if (!record || foreign) {
      await unlisten().catch(() => undefined);
      return foreign
        ? { status: 403, code: -32000, message: `Forbidden: ${foreign}` }
        : { status: 404, code: -32001, message: `Session '${id}' not found (it ended or never existed); initialize a new session` };
    }
    const t = new HttpSessionTransport(id, this.keptAlive);
    t.onclose = () => {
      if (this.sessions.get(id) === t) this.sessions.delete(id);
      this.released(t);
    };
    this.protocolVersions.set(t, record.protocolVersion);
    t.protocolVersion = record.protocolVersion;
    let session: Session;
    try {
      session = await this.kernel.endpoint.connect(t, 'streamable-http', id, caller ?? record.identity, record.peer, record);
    } catch (err) {
      await unlisten().catch(() => undefined);
      return { status: 503, code: -32000, message: `Service Unavailable: ${(err as Error).message}` };
    }
    // The copy's subscriptions are taken upstream before it serves anything: a GET that moves
    // the session's stream here hears every update from the moment it is answered.
    if (session.subscriptions.size > 0)
      await this.kernel.hooks.onSessionChange
        .promise(session, 'elsewhere')
        .catch((err: unknown) => this.log.warn(`session ${id}: its subscriptions could not be taken here: ${(err as Error).message}`));
    this.listening.set(id, unlisten);
    this.relayFrom(t);
    this.touched.set(t, Date.now());
    this.sessions.set(id, t);
    transport = t;
    for (const signal of early) this.signal(t, signal);
    this.log.debug(`session ${id} resumed from the directory`);
    return t;
  }

  private async listen(transport: HttpSessionTransport): Promise<void> {
    const id = transport.sessionId;
    const unlisten = await this.directory.subscribe(id, (signal) => this.signal(transport, signal));
    this.listening.set(id, unlisten);
    this.relayFrom(transport);
  }

  /** What a session's transport here cannot deliver itself goes to the replicas that can. */
  private relayFrom(transport: HttpSessionTransport): void {
    const id = transport.sessionId;
    transport.relay = (message) => this.publish(id, { kind: 'message', message }, 'a message for its stream');
    transport.cancelElsewhere = (requestId, reason) =>
      this.publish(id, { kind: 'cancelled', requestId, ...(reason === undefined ? {} : { reason }) }, `the cancellation of request ${requestId}`);
  }

  private publish(id: string, signal: SessionSignal, what: string): void {
    this.directory.publish(id, signal).catch((err: unknown) => this.log.warn(`session ${id}: ${what} was lost: ${(err as Error).message}`));
  }

  private signal(transport: HttpSessionTransport, signal: SessionSignal): void {
    switch (signal.kind) {
      case 'message':
        transport.deliver(signal.message);
        return;
      case 'end':
        transport.drop();
        return;
      case 'cancelled':
        transport.cancelledElsewhere(signal.requestId, signal.reason);
        return;
      case 'record': {
        const session = this.kernel.sessions.get(transport.sessionId);
        if (!session) return;
        if (signal.record.logLevel) session.logLevel = signal.record.logLevel;
        else delete session.logLevel;
        session.subscriptions.clear();
        for (const uri of signal.record.subscriptions) session.subscriptions.add(uri);
        void this.kernel.hooks.onSessionChange
          .promise(session, 'elsewhere')
          .catch((err: unknown) => this.log.warn(`session ${session.id}: ${(err as Error).message}`));
        return;
      }
    }
  }

  private async changed(session: Session, transport: HttpSessionTransport): Promise<void> {
    const record = this.recordOf(session, transport);
    try {
      await this.directory.put(record, this.idleSeconds);
      this.touched.set(transport, Date.now());
      await this.directory.publish(session.id, { kind: 'record', record });
    } catch (err) {
      this.log.warn(`session ${session.id}: its change could not be shared with the other replicas: ${(err as Error).message}`);
    }
  }

  private recordOf(session: Session, transport: HttpSessionTransport): SessionRecord {
    const clientInfo = session.server.getClientVersion();
    return {
      id: session.id,
      transport: session.transport,
      createdAt: session.createdAt.toISOString(),
      ...(session.identity ? { identity: session.identity } : {}),
      ...(session.peer ? { peer: session.peer } : {}),
      ...(session.clientAddress && session.clientAddress !== session.peer ? { clientAddress: session.clientAddress } : {}),
      protocolVersion: this.protocolVersions.get(transport) ?? '',
      clientCapabilities: session.server.getClientCapabilities() ?? {},
      ...(clientInfo ? { clientInfo } : {}),
      ...(session.logLevel ? { logLevel: session.logLevel } : {}),
      subscriptions: [...session.subscriptions],
    };
  }
}
