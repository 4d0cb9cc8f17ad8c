/**
 * The event log every plugin records through (service `events`), over a journal that keeps
 * it: the plugin's own (memory, and state/events.jsonl in file mode) or one another plugin
 * provides (`event-journal`: a Redis stream shared by replicas).
 *
 * Every event is scrubbed of known secrets as it is recorded, before anything sees it: its
 * message quotes servers' errors and failed steps, and from here it goes to the journal, to
 * core_events followers and to disk or Redis alike.
 */
import type { EventJournal, EventLog, EventPage, EventQuery, NewEvent, SwitchboardEvent } from '../../kernel/index.js';

export class JournaledEventLog implements EventLog {
  constructor(
    private readonly journal: EventJournal,
    private readonly scrub: (text: string) => string,
  ) {}

  record(event: NewEvent): void {
    this.journal.append({ time: new Date().toISOString(), ...event, message: this.scrub(event.message) });
  }

  query(q: EventQuery): Promise<EventPage> {
    return this.journal.query(q);
  }

  subscribe(listener: (event: SwitchboardEvent) => void): () => void {
    return this.journal.subscribe(listener);
  }
}
