/**
 * Resource subscriptions as this process holds them upstream: per URI, the sessions here
 * that watch it, and one upstream subscription for all of them.
 *
 * In cluster mode every replica holding a copy of a session holds that session's
 * subscriptions upstream (the copy's record lists them; a changed record or a resumed copy
 * arrives as `onSessionChange(..., 'elsewhere')`). The replica holding the session's GET
 * stream always holds a copy, so it is subscribed whichever replica served the subscribe and
 * whichever held the stream before: the subscriptions outlive any one replica. Who writes an
 * update:
 * - a remote server, which every replica connects to: each replica hears the same update,
 *   so each writes it only to a stream it holds (`endpoint.notifyHere`), once per session;
 * - a stdio server, a process each replica runs for itself: an update is that process's own,
 *   so it reaches the session wherever its stream is (relayed by the transport).
 */
import { ownerOf as sessionOwner, type KernelApi, type Owner, type Session } from '../../kernel/index.js';

/** Which server serves `uri` for `owner`; throws (naming the URI) when none or several do. */
export type ResourceOwner = (uri: string, owner: Owner) => string;

interface Watched {
  server: string;
  /** A stdio server: this replica's own process, whose updates no other replica hears. */
  ownProcess: boolean;
  sessions: Set<Session>;
  /** Settles when the upstream subscription is in place (rejects when it could not be). */
  ready: Promise<void>;
}

export class ResourceSubscriptions {
  private readonly watched = new Map<string, Watched>();
  /** Upstream subscribe and unsubscribe of one URI run in the order they were decided. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    private readonly kernel: KernelApi,
    private readonly serverOf: ResourceOwner,
    /** A record read from Redis is followed for at most this many URIs: what subscribe lets a session have. */
    private readonly perSession: number,
  ) {
    kernel.hooks.onSessionClose.tap('native-content', (session) => {
      for (const [uri, w] of [...this.watched]) if (w.sessions.has(session)) void this.remove(session, uri);
    });
    kernel.hooks.onSessionChange.tapPromise('native-content', async (session, origin) => {
      if (origin === 'elsewhere') await this.follow(session);
    });
  }

  /** `session` watches `uri` (served by `server`): resolves once this process is subscribed upstream. */
  add(session: Session, uri: string, server: string): Promise<void> {
    const w = this.watched.get(uri);
    if (w) {
      w.sessions.add(session);
      return w.ready;
    }
    const entry: Watched = { server, ownProcess: this.ownProcess(server), sessions: new Set([session]), ready: Promise.resolve() };
    entry.ready = this.inTurn(uri, () => this.upstreams().subscribe(server, uri)).catch((err: unknown) => {
      if (this.watched.get(uri) === entry) this.watched.delete(uri);
      throw err;
    });
    this.watched.set(uri, entry);
    return entry.ready;
  }

  /** `session` no longer watches `uri`; the upstream subscription goes when no session here does. */
  remove(session: Session, uri: string): Promise<void> {
    const w = this.watched.get(uri);
    if (!w?.sessions.delete(session) || w.sessions.size > 0) return Promise.resolve();
    this.watched.delete(uri);
    return this.inTurn(uri, () => this.upstreams().unsubscribe(w.server, uri)).catch(() => undefined);
  }

  /** An upstream said `uri` changed: each session here watching it hears it once. */
  updated(uri: string): void {
    const w = this.watched.get(uri);
    if (!w) return;
    const notification = { method: 'notifications/resources/updated', params: { uri } };
    for (const session of w.sessions) {
      // A subscriptions/listen's session (stateless) is a stream held here: notifyHere writes it there.
      const sent = w.ownProcess && !session.stateless ? session.server.notification(notification) : this.kernel.endpoint.notifyHere(session, notification);
      void sent.catch(() => undefined);
    }
  }

  /**
   * What the servers offer changed: a session whose record names a URI no server here
   * offered yet (a replica still connecting when it resumed the session) is subscribed now.
   */
  retry(): void {
    for (const session of this.kernel.sessions.all()) {
      for (const uri of session.subscriptions) {
        if (this.watched.get(uri)?.sessions.has(session)) continue;
        void this.follow(session);
        break;
      }
    }
  }

  /** Makes this process's upstream subscriptions for `session` what its record says. */
  private async follow(session: Session): Promise<void> {
    for (const [uri, w] of [...this.watched]) if (w.sessions.has(session) && !session.subscriptions.has(uri)) void this.remove(session, uri);
    const adding: Promise<void>[] = [];
    let followed = 0;
    for (const uri of session.subscriptions) {
      if (++followed > this.perSession) {
        this.kernel.log.warn(`session ${session.id}: its record lists more than ${this.perSession} subscriptions; the rest are not watched here`);
        break;
      }
      if (this.watched.get(uri)?.sessions.has(session)) continue;
      let server: string;
      try {
        // The toolset was checked by the replica that served the subscribe; here only the
        // person's own view of the servers counts.
        server = this.serverOf(uri, sessionOwner(session));
      } catch (err) {
        this.kernel.log.debug(`session ${session.id}: '${uri}' is not watched on this replica yet: ${(err as Error).message}`);
        continue;
      }
      adding.push(
        this.add(session, uri, server).catch((err: unknown) =>
          this.kernel.log.warn(`session ${session.id}: could not subscribe to '${uri}' on server '${server}': ${(err as Error).message}`),
        ),
      );
    }
    await Promise.all(adding);
  }

  private ownProcess(server: string): boolean {
    return this.upstreams().status(server)?.metadata.type === 'stdio';
  }

  private upstreams() {
    return this.kernel.services.get('upstreams');
  }

  private inTurn(uri: string, op: () => Promise<void>): Promise<void> {
    const next = (this.turns.get(uri) ?? Promise.resolve()).then(op);
    const settled = next.catch(() => undefined);
    this.turns.set(uri, settled);
    void settled.then(() => {
      if (this.turns.get(uri) === settled) this.turns.delete(uri);
    });
    return next;
  }
}
