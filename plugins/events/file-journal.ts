/**
 * The event log's own journal (single process): a bounded in-memory list (newest kept),
 * appended to a JSON-lines file in file mode so a restart keeps history. Retention is by
 * count and by age; the file is rewritten (atomically) when it has grown to twice what is
 * kept, so it never grows without bound and appends stay cheap.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EventJournal, EventPage, EventQuery, EventRetention, SwitchboardEvent } from '../../kernel/index.js';
import { PRIVATE_DIR, PRIVATE_FILE, writeFileAtomic } from '../../lib/files/atomic-write.js';
import { SerialQueue } from '../../kernel/index.js';
import { queryEvents } from '../../lib/events/event-query.js';

export type Retention = EventRetention;

function isEvent(v: unknown): v is SwitchboardEvent {
  const e = v as SwitchboardEvent | null;
  return !!e && typeof e.id === 'number' && typeof e.time === 'string' && typeof e.reason === 'string' && typeof e.message === 'string' && !!e.resource;
}

export class FileEventJournal implements EventJournal {
  private events: SwitchboardEvent[] = [];
  private nextId = 1;
  private linesInFile = 0;
  private readonly listeners = new Set<(e: SwitchboardEvent) => void>();
  private readonly writes = new SerialQueue();
  /** Appends wait for the history to be read, so ids never repeat. */
  private opened = false;

  constructor(
    private readonly file: string | undefined,
    private readonly retention: Retention,
    private readonly warn: (m: string) => void,
  ) {}

  /** Reads the history; events recorded before (a configuration refused at startup) follow it, renumbered. */
  async open(): Promise<void> {
    if (!this.file) return;
    const early = this.events;
    this.events = [];
    let text = '';
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      // No history yet.
    }
    const lines = text.split('\n').filter(Boolean);
    for (const line of lines) {
      try {
        const e: unknown = JSON.parse(line);
        if (isEvent(e)) this.events.push(e);
      } catch {
        // A line torn by a crash mid-append: skipped, the rest is kept.
      }
    }
    this.linesInFile = lines.length;
    this.nextId = (this.events.at(-1)?.id ?? 0) + 1;
    this.opened = true;
    for (const e of early) {
      const renumbered = { ...e, id: this.nextId++ };
      this.events.push(renumbered);
      this.persist(renumbered);
    }
    this.prune();
  }

  private prune(): void {
    const oldest = Date.now() - this.retention.maxAgeHours * 3_600_000;
    let drop = Math.max(0, this.events.length - this.retention.maxEvents);
    while (drop < this.events.length && Date.parse(this.events[drop]!.time) < oldest) drop++;
    if (drop) this.events = this.events.slice(drop);
  }

  append(event: Omit<SwitchboardEvent, 'id'>): void {
    const e: SwitchboardEvent = { id: this.nextId++, ...event };
    this.events.push(e);
    if (this.events.length > this.retention.maxEvents * 1.1) this.prune();
    for (const l of this.listeners) l(e);
    if (this.file && this.opened) this.persist(e);
  }

  private persist(e: SwitchboardEvent): void {
    const file = this.file!;
    void this.writes
      .run(async () => {
        if (this.linesInFile >= this.retention.maxEvents * 2) {
          this.prune();
          await writeFileAtomic(file, this.events.map((x) => JSON.stringify(x)).join('\n') + '\n', { durable: false, mode: PRIVATE_FILE });
          this.linesInFile = this.events.length;
          return;
        }
        await mkdir(dirname(file), { recursive: true, mode: PRIVATE_DIR });
        await appendFile(file, `${JSON.stringify(e)}\n`, { mode: PRIVATE_FILE });
        this.linesInFile++;
      })
      .catch((err: unknown) => this.warn(`event log: cannot write ${file}: ${(err as Error).message}`));
  }

  /** Waits for pending writes (shutdown, tests). */
  flush(): Promise<void> {
    return this.writes.idle();
  }

  close(): Promise<void> {
    return this.flush();
  }

  query(q: EventQuery): Promise<EventPage> {
    return Promise.resolve(queryEvents(this.events, q));
  }

  subscribe(listener: (event: SwitchboardEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
