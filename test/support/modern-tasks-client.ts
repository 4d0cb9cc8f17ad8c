/**
 * A 2026-07-28 client of the tasks extension, on the v2 SDK's own Streamable HTTP transport
 * (`@modelcontextprotocol/client`: it sets MCP-Protocol-Version, Mcp-Method and Mcp-Name, the
 * task id for tasks/*, from each message). The v2 `Client` 2.4.0 refuses a tools/call result
 * of `resultType: "task"` (UnsupportedResultType) and has no tasks/update, so the requests and
 * their `_meta` envelope are written here, as a client of the extension writes them.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const MODERN = '2026-07-28';

export interface Rpc {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface Task {
  resultType?: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  ttlMs?: number;
  pollIntervalMs?: number;
  result?: { content: { type: string; text?: string }[]; isError?: boolean; _meta?: Record<string, unknown> };
  [key: string]: unknown;
}

export class ModernTaskClient {
  private next = 1;
  private readonly waiting = new Map<number, (m: Rpc) => void>();

  private constructor(private readonly transport: StreamableHTTPClientTransport) {}

  /** `headers` go with every request (a bearer token, X-Forwarded-For behind a trusted proxy); `fetch` picks the replica. */
  static async open(url: string, opts: { headers?: Record<string, string>; fetch?: typeof fetch } = {}): Promise<ModernTaskClient> {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      protocolVersion: MODERN,
      ...(opts.headers ? { requestInit: { headers: opts.headers } } : {}),
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    const client = new ModernTaskClient(transport);
    transport.onmessage = (m: JSONRPCMessage) => client.settle(m);
    await transport.start();
    return client;
  }

  private settle(m: JSONRPCMessage): void {
    const r = m as { id?: unknown; result?: Record<string, unknown>; error?: Rpc['error'] };
    if (typeof r.id !== 'number') return;
    const done = this.waiting.get(r.id);
    this.waiting.delete(r.id);
    done?.({ ...(r.result ? { result: r.result } : {}), ...(r.error ? { error: r.error } : {}) });
  }

  /** One request; `tasks: false` leaves the extension out of this request's capabilities. An HTTP refusal (404, 400) resolves to its JSON-RPC error. */
  request(method: string, params: Record<string, unknown> = {}, opts: { tasks?: boolean } = {}): Promise<Rpc> {
    const id = this.next++;
    const capabilities = opts.tasks === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } };
    const message = {
      jsonrpc: '2.0' as const,
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'modern-task-client', version: '1.0.0' },
        },
      },
    };
    return new Promise<Rpc>((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.transport.send(message as JSONRPCMessage).catch((err: unknown) => {
        this.waiting.delete(id);
        const body = httpError(err);
        if (body) resolve(body);
        else reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  /** call_tool of `tool`: the task's CreateTaskResult, or whatever else came back. */
  callTool(tool: string, args: Record<string, unknown> = {}, opts: { tasks?: boolean } = {}): Promise<Rpc> {
    return this.request('tools/call', { name: 'call_tool', arguments: { name: tool, arguments: args } }, opts);
  }

  async get(taskId: string): Promise<Task> {
    const r = await this.request('tasks/get', { taskId });
    if (!r.result) throw new Error(`tasks/get ${taskId}: ${JSON.stringify(r.error)}`);
    return r.result as Task;
  }

  /** Polls tasks/get at the task's pollIntervalMs until it is terminal. */
  async settled(taskId: string, timeoutMs = 30_000): Promise<Task> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const t = await this.get(taskId);
      if (t.status === 'completed' || t.status === 'failed' || t.status === 'cancelled') return t;
      if (Date.now() > end) throw new Error(`task ${taskId} still ${t.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, Math.min(t.pollIntervalMs ?? 200, 500)));
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

/** The JSON-RPC error a refused POST carried (the v2 transport throws on a 4xx, with the body in its message or data). */
function httpError(err: unknown): Rpc | undefined {
  const e = err as { code?: unknown; message?: unknown; data?: { body?: unknown; text?: unknown } };
  for (const source of [e.data?.body, e.data?.text, typeof e.message === 'string' ? e.message.slice(e.message.indexOf('{')) : undefined]) {
    if (typeof source === 'object' && source !== null && 'error' in source) return { error: (source as { error: Rpc['error'] }).error! };
    if (typeof source === 'string') {
      try {
        const parsed = JSON.parse(source) as { error?: Rpc['error'] };
        if (parsed.error) return { error: parsed.error };
      } catch {
        // Not JSON: not a JSON-RPC refusal.
      }
    }
  }
  return undefined;
}
