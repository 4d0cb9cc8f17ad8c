/**
 * The event log (service `events`): what happened to servers, workflows and executions, in
 * the words an operator reads (`MCPServerFailed: MCPServer github failed: connect ECONNREFUSED ...`). The `events`
 * plugin provides it (kept in memory, persisted under state/ in file mode) and serves
 * `core_events`; other plugins record through it when it is there.
 */
export type EventType = 'Normal' | 'Warning';

export type EventResourceType = 'MCPServer' | 'Workflow' | 'WorkflowExecution' | 'Aggregator' | 'Tool';

export interface SwitchboardEvent {
  /** Increasing; a client following the log resumes after the last id it saw. */
  id: number;
  time: string;
  type: EventType;
  /** UpperCamelCase, stable, prefixed by what it is about: MCPServerStarted, WorkflowExecutionFailed... (docs/events.md). */
  reason: string;
  /** A run's and its steps' events are filed under the workflow (`Workflow`/<name>) and carry the run's id in `execution_id`. */
  resource: { type: EventResourceType; name: string };
  message: string;
  execution_id?: string;
  /** Who did it, when a caller did (an admin operation, a denial, a run): principal key and name. */
  actor?: { key: string; name: string };
}

export type NewEvent = Omit<SwitchboardEvent, 'id' | 'time'>;

export interface EventQuery {
  /**
   * Any string: one no event has matches nothing. `WorkflowExecution` selects the events of
   * runs (those with an `execution_id`, and audit entries about a run), `resourceName` then
   * matching the execution id.
   */
  resourceType?: string;
  resourceName?: string;
  /** Any string: one no event has matches nothing. */
  type?: string;
  /** ISO time, inclusive. */
  since?: string;
  until?: string;
  /** Newest first, at most this many. */
  limit: number;
  /** Only the events the asker may read (authorization); applied before the limit. */
  visible?: (event: SwitchboardEvent) => boolean;
}

export interface EventPage {
  events: SwitchboardEvent[];
  total: number;
}

export interface EventLog {
  /** Never waits and never throws: the event is stored in the background (a lost write is logged). */
  record(event: NewEvent): void;
  /**
   * Asynchronous because the log may be shared by replicas (cluster mode); it includes every
   * event this process recorded before the call. Rejects (SHARED_STATE_UNAVAILABLE) when the
   * shared log cannot be reached.
   */
  query(q: EventQuery): Promise<EventPage>;
  /** Calls `listener` with every event recorded from now on (by any replica); returns the unsubscribe. */
  subscribe(listener: (event: SwitchboardEvent) => void): () => void;
}

export interface EventRetention {
  maxEvents: number;
  maxAgeHours: number;
}

/**
 * Where the events plugin keeps the log (service `event-journal`). Absent, the plugin keeps
 * it in memory and, in file mode, in state/events.jsonl; cluster-redis provides a Redis
 * stream shared by every replica. The journal assigns ids and orders events; the events
 * plugin scrubs each event before it appends it.
 */
export interface EventJournal {
  /** Stored in the background, in the order appended; `time` is the recording replica's. */
  append(event: Omit<SwitchboardEvent, 'id'>): void;
  query(q: EventQuery): Promise<EventPage>;
  subscribe(listener: (event: SwitchboardEvent) => void): () => void;
  open(): Promise<void>;
  /** Waits for this process's pending appends. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface EventJournalFactory {
  /** One journal with the events plugin's retention (its options). */
  create(retention: EventRetention): EventJournal;
}
