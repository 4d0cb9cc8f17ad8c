/**
 * The reference's follow (core_events `follow: true` without `follow_seconds`): the call
 * answers at once, and each later matching event is pushed to the session, not to the call,
 * as a `notifications/message` (logger `switchboard.events`), until the session ends or
 * starts another such follow. Unrelated to any request, the notification takes the session's
 * standing stream (the GET stream; in cluster mode the transport relays it to the replica
 * holding that stream), and the log's subscription brings every replica's events here.
 */
import { logLevelPasses, type EventLog, type EventPage, type EventQuery, type Session, type SwitchboardEvent } from '../../kernel/index.js';
import { eventMatches } from '../../lib/events/event-query.js';

/** The session's follow: its stop, kept in the session's slot so a second follow or the session's end finds it. */
const FOLLOW = Symbol('events.session-follow');

export const EVENTS_LOGGER = 'switchboard.events';

export class SessionFollows {
  constructor(private readonly log: EventLog) {}

  /**
   * Answers `q` and follows its filters (not its time window or limit) on `session`, in place
   * of the session's earlier follow. Listening starts before the query, so an event recorded
   * while the (possibly shared) log answers is told once: those in the answer are not pushed.
   */
  async start(session: Session, q: EventQuery): Promise<EventPage> {
    this.stop(session);
    const { since: _since, until: _until, limit: _limit, ...filters } = q;
    let seenUpTo = -1;
    let answered = false;
    const early: SwitchboardEvent[] = [];
    const push = (e: SwitchboardEvent) => {
      const level = e.type === 'Warning' ? 'warning' : 'notice';
      if (e.id <= seenUpTo || !logLevelPasses(level, session.logLevel)) return;
      // A session whose stream is gone loses the event, as any notification: the log still has it.
      void session.server.notification({ method: 'notifications/message', params: { level, logger: EVENTS_LOGGER, data: e } }).catch(() => undefined);
    };
    const unsubscribe = this.log.subscribe((e) => {
      if (!eventMatches(filters, e)) return;
      if (answered) push(e);
      else early.push(e);
    });
    const stop = () => {
      unsubscribe();
      if (session.slots.get(FOLLOW) === stop) session.slots.delete(FOLLOW);
    };
    session.slots.set(FOLLOW, stop);
    let page: EventPage;
    try {
      page = await this.log.query(q);
    } catch (err) {
      stop();
      throw err;
    }
    seenUpTo = page.events[0]?.id ?? -1;
    answered = true;
    for (const e of early.splice(0)) push(e);
    return page;
  }

  /** Ends the session's follow, if it has one (the session closed, or it follows anew). */
  stop(session: Session): void {
    const stop = session.slots.get(FOLLOW);
    if (typeof stop === 'function') (stop as () => void)();
  }
}
