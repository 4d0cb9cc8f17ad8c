/** Checks on an MCP server definition given to a core tool: schema errors and practical warnings. */
import { commandLine, validateDocument, type McpServerDefinition } from '../../kernel/index.js';
import { commandFound } from '../../lib/process/find-command.js';
import { authProblems } from '../../lib/server-auth/auth-mode.js';

const ARGUMENTS = { file: 'arguments', locate: () => ({ line: 0, column: 0 }) };

export const SERVER_TYPES = ['stdio', 'streamable-http', 'sse'] as const;

/**
 * The problems of a definition given to create, update or validate. The structural ones are
 * worded as clients of the reference service match them (reference-behaviour.md §6.3) and
 * replace what the schema says about the same field; the rest are the schema's.
 */
export function schemaErrors(body: Record<string, unknown>): string[] {
  const phrased = new Map<string, string>();
  const type = body.type;
  if (!(SERVER_TYPES as readonly unknown[]).includes(type)) {
    if (type !== undefined)
      phrased.set('type', `unsupported MCP server type: ${typeof type === 'string' ? type : JSON.stringify(type)} (supported: ${SERVER_TYPES.join(', ')})`);
  } else if (type === 'stdio') {
    const command = body.command;
    if (command === undefined || command === '' || (Array.isArray(command) && command.length === 0))
      phrased.set('command', 'command is required for stdio type');
  } else if (body.url === undefined) phrased.set('url', 'url is required for streamable-http and sse types');
  const problems = validateDocument('mcpserver', body, ARGUMENTS);
  const rest = problems.filter((p) => !phrased.has(p.field)).map((p) => `${p.field || '(definition)'}: ${p.message}`);
  // The auth rules read a well-formed definition only.
  const auth = problems.length === 0 && phrased.size === 0 ? authProblems(body as unknown as McpServerDefinition).map((p) => `${p.field}: ${p.message}`) : [];
  return [...phrased.values(), ...rest, ...auth];
}

export function warnings(def: Partial<McpServerDefinition>, configPath: string, exists: boolean): string[] {
  const out: string[] = [];
  if (exists) out.push(`a server named '${def.name}' already exists: core_mcpserver_create would conflict`);
  const executable = commandLine(def)[0];
  if (def.type === 'stdio' && def.command && executable && !commandFound(executable, configPath)) {
    out.push(`command '${executable}' is not found on PATH (or relative to ${configPath}); the server would fail to start`);
  }
  if (def.type !== 'stdio' && def.autoStart) out.push('autoStart has no effect on remote servers: they always connect');
  if (def.type !== 'stdio' && def.command) out.push(`command is ignored for type ${def.type}`);
  if (def.type === 'stdio' && def.url) out.push('url is ignored for type stdio');
  if (def.type === 'stdio' && def.headers && Object.keys(def.headers).length) out.push('headers are ignored for type stdio');
  return out;
}

const DEFAULTS: Partial<Record<keyof McpServerDefinition, unknown>> = {
  autoStart: false,
  env: {},
  headers: {},
  timeout: 30,
  callTimeout: 60,
  maxMessageBytes: 33554432,
  stderrLogLevel: 'debug',
  suspended: false,
  disabledTools: [],
  backoff: { initialSeconds: 1, maxSeconds: 300 },
};

/** The definition as it is written to its file: fields at their defaults left out. */
export function withoutDefaults(def: McpServerDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(def)) {
    if (v === undefined) continue;
    const d = DEFAULTS[k as keyof McpServerDefinition];
    if (d !== undefined && JSON.stringify(d) === JSON.stringify(v)) continue;
    out[k] = v;
  }
  return out;
}
