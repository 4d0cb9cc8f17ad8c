/**
 * The records a fault must neither lose nor contradict: a call and a workflow run as tasks
 * (and a workflow run's execution record), created by a witness client on a chosen replica and
 * read back afterwards through the balancer. A record is lost when it can no longer be read;
 * it contradicts when the task and its run disagree about how the run ended, or when a status
 * a client already saw as final later changes (a client that saw `failed` may have retried a
 * side-effecting tool).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

export interface Tracked {
  kind: 'call task' | 'workflow task' | 'workflow run';
  id: string;
  /** The first final status a read saw, if any. */
  firstFinal?: string;
}

export interface RecordFigures {
  checked: number;
  lost: number;
  contradicting: number;
  /** One line per record: what was seen. */
  notes: string[];
}

/** A client whose requests go wherever `target()` says at the moment (a replica, then the balancer). */
export class Witness {
  /** Sessions of the witness's own that the gateway forgot (each one replaced by a new session). */
  lostSessions = 0;

  private constructor(
    private client: Client,
    private readonly route: { target: string },
    private readonly url: string,
  ) {}

  private static async connect(url: string, route: { target: string }): Promise<Client> {
    const steer: typeof fetch = (input, init) => {
      const to = new URL(route.target);
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.host = to.host;
      return fetch(url, init);
    };
    const client = new Client({ name: 'fault-witness', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: steer }));
    return client;
  }

  static async open(url: string): Promise<Witness> {
    const route = { target: url };
    return new Witness(await Witness.connect(url, route), route, url);
  }

  /**
   * Runs `fn` on the witness's client; when the gateway lost the witness's session, opens a new
   * one and runs it again (tasks belong to the session that made them, so the old ones then
   * read as lost: what a real client would see).
   */
  private async withSession<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await fn(this.client);
    } catch (err) {
      if (!/HTTP 404|Session '[^']*' not found/.test((err as Error).message)) throw err;
      this.lostSessions++;
      await this.client.close().catch(() => undefined);
      this.client = await Witness.connect(this.url, this.route);
      return fn(this.client);
    }
  }

  /** Sends the witness's next requests to `url`. */
  steer(url: string): void {
    this.route.target = url;
  }

  /** Runs `name` (through call_tool) as a task: its task id. */
  async task(name: string, args: Record<string, unknown>): Promise<string> {
    const created = await this.withSession((client) =>
      client.request(
        { method: 'tools/call', params: { name: 'call_tool', arguments: { name, arguments: args }, task: { ttl: 600_000 } } },
        CreateTaskResultSchema,
      ),
    );
    return created.task.taskId;
  }

  /** Runs a workflow without a task and returns its execution id once it ends. */
  async run(name: string, args: Record<string, unknown>): Promise<string | undefined> {
    const r = (await this.withSession((client) =>
      client.callTool({ name: 'call_tool', arguments: { name, arguments: args } }, undefined, { timeout: 120_000 }),
    )) as CallToolResult;
    const doc = r.structuredContent as { execution_id?: unknown } | undefined;
    return typeof doc?.execution_id === 'string' ? doc.execution_id : undefined;
  }

  /** A task's status, or 'lost' when no replica knows it (any other failure throws). */
  async taskStatus(id: string): Promise<string> {
    try {
      return (await this.withSession((client) => client.experimental.tasks.getTask(id))).status;
    } catch (err) {
      if (/not found/i.test((err as Error).message)) return 'lost';
      throw err;
    }
  }

  /** A workflow execution's status, or 'lost' when its record is gone. */
  async runStatus(id: string): Promise<string> {
    const r = (await this.withSession((client) =>
      client.callTool({ name: 'call_tool', arguments: { name: 'core_workflow_execution_get', arguments: { execution_id: id } } }),
    )) as CallToolResult;
    const doc = r.structuredContent as { status?: unknown; error?: { code?: unknown } } | undefined;
    if (r.isError) return doc?.error?.code === 'NOT_FOUND' ? 'lost' : `error ${JSON.stringify(doc?.error)}`;
    return typeof doc?.status === 'string' ? doc.status : 'unknown';
  }

  async statusOf(t: Tracked): Promise<string> {
    return t.kind === 'workflow run' ? this.runStatus(t.id) : this.taskStatus(t.id);
  }

  /** Reads every record once, remembering the first final status each showed. */
  async observe(tracked: Tracked[]): Promise<void> {
    for (const t of tracked) {
      const status = await this.statusOf(t).catch(() => undefined);
      if (status !== undefined && FINAL.has(status) && t.firstFinal === undefined) t.firstFinal = status;
    }
  }

  /** Waits (bounded) until every record reads as final or lost. */
  async untilFinal(tracked: Tracked[], limitMs: number): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (Date.now() < deadline) {
      await this.observe(tracked);
      const statuses = await Promise.all(tracked.map((t) => this.statusOf(t).catch(() => 'unreadable')));
      if (statuses.every((s) => FINAL.has(s) || s === 'lost')) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** The final reading: lost and contradicting records. A workflow task is checked against its run (same id). */
  async verdict(tracked: Tracked[]): Promise<RecordFigures> {
    const figures: RecordFigures = { checked: tracked.length, lost: 0, contradicting: 0, notes: [] };
    for (const t of tracked) {
      const status = await this.statusOf(t);
      let contradicts = t.firstFinal !== undefined && status !== t.firstFinal;
      let note = `${t.kind}: ${status}${t.firstFinal !== undefined && t.firstFinal !== status ? ` (was ${t.firstFinal})` : ''}`;
      if (t.kind === 'workflow task') {
        const run = await this.runStatus(t.id);
        if (FINAL.has(run) && FINAL.has(status) && run !== status) contradicts = true;
        note += `, its run ${run}`;
      }
      if (status === 'lost') figures.lost++;
      if (contradicts) figures.contradicting++;
      figures.notes.push(note);
    }
    return figures;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
