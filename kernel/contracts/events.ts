/**
 * The event log (service `events`): what happened to servers, workflows and executions, in
 * the words an operator reads (`ServerFailed: connect ECONNREFUSED ...`). The `events`
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
  /** UpperCamelCase, stable: ServerStarted, ServerFailed, ToolsDiscovered, ExecutionFailed... */
  reason: string;
  resource: { type: EventResourceType; name: string };
  message: string;
  /** Who did it, when a caller did (an admin operation, a denial, a run): principal key and name. */
  actor?: { key: string; name: string };
}

export type NewEvent = Omit<SwitchboardEvent, 'id' | 'time'>;

export interface EventQuery {
  resourceType?: EventResourceType;
  resourceName?: string;
  type?: EventType;
  /** ISO time, inclusive. */
  since?: string;
  until?: string;
  /** Newest first, at most this many. */
  limit: number;
  /** Only the events the asker may read (authorization); applied before the limit. */
  visible?: (event: SwitchboardEvent) => boolean;
}

export interface EventLog {
  record(event: NewEvent): void;
  query(q: EventQuery): { events: SwitchboardEvent[]; total: number };
  /** Calls `listener` with every event recorded from now on; returns the unsubscribe. */
  subscribe(listener: (event: SwitchboardEvent) => void): () => void;
}
