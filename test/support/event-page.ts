/** What core_events answers, as a client reads it (docs/events.md). */
export interface EventSeen {
  id: number;
  time: string;
  type: 'Normal' | 'Warning';
  reason: string;
  resource: { type: string; name: string };
  message: string;
  execution_id?: string;
}

export interface EventPage {
  events: EventSeen[];
  total: number;
  /** Set when `follow: true` went to the session's standing stream. */
  following?: string;
}
