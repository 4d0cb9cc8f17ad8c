/**
 * The load the fault bench keeps up while it breaks things: `clients` SDK clients calling
 * call_tool in a loop through the balancer, each on a session it keeps, plus one churning
 * client that opens a session, calls once and closes it, over and over (a fault that only new
 * sessions meet, such as a full Redis, shows there). Every call is recorded with when it was
 * made, how long it took and how it ended; a session the gateway no longer knows ("lost") is
 * replaced by a new one so the load goes on.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * ok: answered. lost: a session the client held (or was just given) is unknown to the gateway.
 * refused: initialize answered with an error (a fault said loudly). failed: anything else.
 */
export type OutcomeKind = 'ok' | 'lost' | 'refused' | 'failed';

export interface Outcome {
  /** ms since the load started, when the call was sent. */
  at: number;
  ms: number;
  kind: OutcomeKind;
  /** The churning client's opening of a session (its first call included). */
  churn: boolean;
  detail?: string;
}

/** A call never waits longer than this, whatever the fault: its wait is the figure reported. */
const CALL_TIMEOUT_MS = 30_000;

function isLostSession(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /HTTP 404|session.*not found/i.test(message);
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'fault-load', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: CALL_TIMEOUT_MS });
  return client;
}

function callPing(client: Client): Promise<CallToolResult> {
  return client.callTool({ name: 'call_tool', arguments: { name: 'x_tools_ping', arguments: {} } }, undefined, {
    timeout: CALL_TIMEOUT_MS,
  }) as Promise<CallToolResult>;
}

export class FaultLoad {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];
  private readonly started = Date.now();

  constructor(
    private readonly url: string,
    clients: number,
  ) {
    for (let i = 0; i < clients; i++) this.loops.push(this.steady());
    this.loops.push(this.churn());
  }

  /** ms since the load started. */
  now(): number {
    return Date.now() - this.started;
  }

  private record(at: number, kind: OutcomeKind, churn: boolean, detail?: string): void {
    this.outcomes.push({ at, ms: this.now() - at, kind, churn, ...(detail === undefined ? {} : { detail: detail.slice(0, 200) }) });
  }

  /** Opens a session, recording a refused initialize; undefined when stopped before one opened. */
  private async open(churn: boolean): Promise<Client | undefined> {
    while (this.running) {
      const at = this.now();
      try {
        return await connect(this.url);
      } catch (err) {
        this.record(at, 'refused', churn, (err as Error).message);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return undefined;
  }

  /** One call on `client`: its outcome kind. */
  private async callOnce(client: Client, churn: boolean): Promise<OutcomeKind> {
    const at = this.now();
    try {
      const r = await callPing(client);
      const kind = r.isError ? 'failed' : 'ok';
      this.record(at, kind, churn, r.isError ? JSON.stringify(r.content).slice(0, 200) : undefined);
      return kind;
    } catch (err) {
      const kind = isLostSession(err) ? 'lost' : 'failed';
      this.record(at, kind, churn, (err as Error).message);
      return kind;
    }
  }

  private async steady(): Promise<void> {
    let client = await this.open(false);
    while (this.running && client) {
      if ((await this.callOnce(client, false)) === 'lost') {
        await client.close().catch(() => undefined);
        client = await this.open(false);
      }
    }
    await client?.close().catch(() => undefined);
  }

  private async churn(): Promise<void> {
    while (this.running) {
      const client = await this.open(true);
      if (!client) return;
      await this.callOnce(client, true);
      // terminateSession sends DELETE: the session's record goes too, as a client that is done would do.
      const transport = client.transport as StreamableHTTPClientTransport | undefined;
      await transport?.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    }
  }

  /** The outcomes of calls sent in [from, to) ms. */
  between(from: number, to: number): Outcome[] {
    return this.outcomes.filter((o) => o.at >= from && o.at < to);
  }

  /** Resolves once no call sent in the last `quietMs` failed and at least one succeeded (bounded by `limitMs`). */
  async settled(quietMs: number, limitMs: number): Promise<boolean> {
    const deadline = this.now() + limitMs;
    while (this.now() < deadline) {
      const recent = this.between(this.now() - quietMs, this.now());
      if (recent.some((o) => o.kind === 'ok') && recent.every((o) => o.kind === 'ok')) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}
