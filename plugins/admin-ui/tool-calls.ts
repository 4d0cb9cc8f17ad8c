/**
 * How the admin pages act: as an MCP client of this Switchboard, calling `call_tool` on an
 * in-memory session of their own, one per action. An edit is then core_mcpserver_* itself
 * (validation, authorization decided for the caller, the store write, its events and audit
 * entry), and "run this tool" is exactly what a client's call_tool is, toolsets and limits
 * included. Nothing here writes a definition or calls a tool another way.
 */
import { Client } from '#mcp-sdk/client/index.js';
import { InMemoryTransport } from '#mcp-sdk/inMemory.js';
import type { CallToolResult } from '#mcp-sdk/types.js';
import { coreToolName, describePrincipal, ForbiddenError, type JsonObject, type KernelApi, type Principal } from '../../kernel/index.js';

/** What a call answered: its structured result or error envelope, and its text. */
export interface CallOutcome {
  ok: boolean;
  text: string;
  structured?: Record<string, unknown>;
  /** The error envelope's code and problems (VALIDATION_FAILED lists each one). */
  code?: string;
  problems: string[];
  result: CallToolResult;
}

function outcomeOf(result: CallToolResult): CallOutcome {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  const structured = result.structuredContent;
  const envelope: unknown = structured?.error;
  const error = typeof envelope === 'object' && envelope !== null ? (envelope as { code?: unknown; details?: { problems?: unknown } }) : undefined;
  const problems = Array.isArray(error?.details?.problems) ? error.details.problems.filter((p): p is string => typeof p === 'string') : [];
  return {
    ok: result.isError !== true,
    text,
    ...(structured ? { structured } : {}),
    ...(typeof error?.code === 'string' ? { code: error.code } : {}),
    problems,
    result,
  };
}

export class ToolCalls {
  constructor(private readonly kernel: KernelApi) {}

  /** A core tool's name under the configured prefix. */
  core(base: string): string {
    return coreToolName(this.kernel.settings().aggregator.servicePrefix, base);
  }

  /**
   * Calls catalogue tool `name` through call_tool as `principal`. Only the local
   * administrator (a loopback browser on a loopback listener) has a session to act in:
   * anyone else the admin UI lets in (a policy may) is known by an address alone, which an
   * in-memory session cannot carry, so they are refused rather than promoted.
   */
  async call(principal: Principal, name: string, args: JsonObject): Promise<CallOutcome> {
    if (principal.kind !== 'local')
      throw new ForbiddenError(
        `the admin UI acts as the local administrator only, and ${describePrincipal(principal)} is not (use a loopback listener, or the MCP endpoint's core tools)`,
      );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await this.kernel.endpoint.connect(serverSide, 'in-memory');
    const client = new Client({ name: 'switchboard-admin-ui', version: '1' });
    try {
      await client.connect(clientSide);
      const result = (await client.callTool({ name: 'call_tool', arguments: { name, arguments: args } })) as CallToolResult;
      return outcomeOf(result);
    } finally {
      await client.close();
      await session.server.close();
    }
  }
}
