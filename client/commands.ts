/**
 * list, describe and call: what a person or a script asks of a running Switchboard. People
 * get aligned tables and plain text; `--json` gives scripts the structured answer as is.
 */
import type { Client } from '#mcp-sdk/client/index.js';
import type { CallToolResult } from '#mcp-sdk/types.js';
import type { ClientCommand } from './args.js';
import { ClientError, metaCall, resultText } from './connection.js';
import { table } from './table.js';

type Row = Record<string, unknown>;
const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Every page of a paged listing. */
async function allTools(client: Client): Promise<Row[]> {
  const tools: Row[] = [];
  for (let offset = 0; ;) {
    const page = await metaCall<{ tools: Row[]; truncated: boolean }>(client, 'list_tools', { offset, limit: 500 });
    tools.push(...page.tools);
    if (!page.truncated || page.tools.length === 0) return tools;
    offset += page.tools.length;
  }
}

async function callCore<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name: 'call_tool', arguments: { name, arguments: args } })) as CallToolResult;
  if (result.isError) throw new ClientError(resultText(result));
  return (result.structuredContent ?? JSON.parse(resultText(result))) as T;
}

export async function list(client: Client, what: Extract<ClientCommand, { command: 'list' }>['what'], json: boolean): Promise<string> {
  switch (what) {
    case 'tools': {
      const tools = await allTools(client);
      return json
        ? JSON.stringify(tools, null, 2) + '\n'
        : table(
            ['NAME', 'SERVER', 'KIND', 'SUMMARY'],
            tools.map((t) => [str(t.name), str(t.server), str(t.kind), str(t.summary)]),
          );
    }
    case 'servers': {
      const { servers } = await metaCall<{ servers: Row[] }>(client, 'list_servers');
      return json
        ? JSON.stringify(servers, null, 2) + '\n'
        : table(
            // WHY is last and not cut: a reason says what to change, and is read whole.
            ['NAME', 'TYPE', 'STATE', 'HEALTH', 'TOOLS', 'AUTH', 'WHY'],
            servers.map((s) => [str(s.name), str(s.type), str(s.state), str(s.health), str(s.tools), str((s.auth as Row | undefined)?.status), str(s.reason)]),
            Infinity,
          );
    }
    case 'workflows': {
      const { workflows } = await callCore<{ workflows: Row[] }>(client, 'core_workflow_list');
      return json
        ? JSON.stringify(workflows, null, 2) + '\n'
        : table(
            // core_workflow_list gives the interface's three fields; a step count would cost a
            // core_workflow_get per workflow, and `describe workflow_<name>` shows the steps' input.
            ['NAME', 'AVAILABLE', 'DESCRIPTION'],
            workflows.map((w) => [str(w.name), str(w.available), str(w.description)]),
          );
    }
    case 'executions': {
      const { executions } = await callCore<{ executions: Row[] }>(client, 'core_workflow_execution_list');
      return json
        ? JSON.stringify(executions, null, 2) + '\n'
        : table(
            ['ID', 'WORKFLOW', 'STATUS', 'STARTED', 'DURATION'],
            executions.map((e) => [
              str(e.execution_id),
              str(e.workflow_name),
              str(e.status),
              str(e.started_at),
              e.duration_ms === undefined ? '' : `${str(e.duration_ms)} ms`,
            ]),
          );
    }
  }
}

interface Described {
  name: string;
  description?: string;
  server?: string;
  inputSchema?: { properties?: Record<string, { type?: string | string[]; description?: string }>; required?: string[] };
}

export async function describe(client: Client, tool: string, json: boolean): Promise<string> {
  const d = await metaCall<Described>(client, 'describe_tool', { name: tool });
  if (json) return JSON.stringify(d, null, 2) + '\n';
  const props = Object.entries(d.inputSchema?.properties ?? {});
  const required = new Set(d.inputSchema?.required ?? []);
  const head = `${d.name}${d.server ? ` (server ${d.server})` : ''}\n\n${d.description ?? ''}\n\n`;
  if (!props.length) return `${head}No arguments.\n`;
  return (
    head +
    table(
      ['ARGUMENT', 'TYPE', 'REQUIRED', 'DESCRIPTION'],
      props.map(([k, p]) => [k, str(p.type ?? 'any'), required.has(k) ? 'yes' : '', str(p.description)]),
      80,
    )
  );
}

/** `--arg k=v` values take the type the tool's schema gives the argument; unknown ones stay strings. */
function coerce(value: string, type: string | string[] | undefined, key: string): unknown {
  const types = Array.isArray(type) ? type : type ? [type] : [];
  if (types.includes('string') || types.length === 0) return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new ClientError(`--arg ${key}: '${value}' is not a valid ${types.join(' or ')}`);
  }
}

export async function call(client: Client, run: Extract<ClientCommand, { command: 'call' }>, json: boolean): Promise<{ out: string; failed: boolean }> {
  let args: Record<string, unknown> = {};
  if (run.json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(run.json);
    } catch (err) {
      throw new ClientError(`--args is not valid JSON: ${(err as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ClientError('--args must be a JSON object');
    args = parsed as Record<string, unknown>;
  }
  if (run.pairs.length) {
    const d = await metaCall<Described>(client, 'describe_tool', { name: run.tool });
    for (const [k, v] of run.pairs) args[k] = coerce(v, d.inputSchema?.properties?.[k]?.type, k);
  }
  const result = (await client.callTool({ name: 'call_tool', arguments: { name: run.tool, arguments: args } })) as CallToolResult;
  if (json) return { out: JSON.stringify(result, null, 2) + '\n', failed: result.isError === true };
  const text = resultText(result);
  if (result.isError) return { out: `${text.split('\n')[0] ?? 'the call failed'}\n`, failed: true };
  return { out: text.endsWith('\n') ? text : `${text}\n`, failed: false };
}
