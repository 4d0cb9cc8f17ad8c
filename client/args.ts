/**
 * Arguments of the client commands (`switchboard list|describe|call|login|logout|agent`):
 * every one talks to a running Switchboard at --endpoint (else SWITCHBOARD_ENDPOINT, else
 * the default local address).
 */
export const DEFAULT_ENDPOINT = 'http://127.0.0.1:8090/mcp';

export type ClientCommand =
  | { command: 'list'; what: 'tools' | 'servers' | 'workflows' | 'executions' }
  | { command: 'describe'; tool: string }
  | { command: 'call'; tool: string; pairs: [string, string][]; json?: string }
  | { command: 'login'; silent: boolean }
  | { command: 'logout' }
  | { command: 'agent'; silent: boolean };

export interface ClientArgs {
  endpoint: string;
  json: boolean;
  toolset?: string;
  run: ClientCommand;
}

export const CLIENT_COMMANDS = ['list', 'describe', 'call', 'login', 'logout', 'agent'] as const;

export class ClientUsageError extends Error {}

export const CLIENT_USAGE = `Client commands (talk to a running Switchboard):
  list tools|servers|workflows|executions   What the endpoint offers, as a table
  describe TOOL                              One tool: description and arguments
  call TOOL [--arg k=v]... [--args JSON]     Run a tool through call_tool; prints its result
  login [--silent]                           Sign in (OAuth); --silent tries without a prompt first
  logout                                     Forget this endpoint's credentials
  agent [--silent]                           An MCP stdio server for IDEs, forwarding to the endpoint

Client options:
  --endpoint URL      Switchboard's MCP URL (default $SWITCHBOARD_ENDPOINT or ${DEFAULT_ENDPOINT})
  --json              Machine-readable output
  --toolset SEL       Narrow to a toolset (X-Service-Toolset), e.g. preset:dev
`;

export function parseClientArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ClientArgs {
  let endpoint = env.SWITCHBOARD_ENDPOINT || DEFAULT_ENDPOINT;
  let json = false;
  let silent = false;
  let toolset: string | undefined;
  let argsJson: string | undefined;
  const pairs: [string, string][] = [];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new ClientUsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--endpoint':
        endpoint = value();
        break;
      case '--json':
        json = true;
        break;
      case '-h':
      case '--help':
        throw new ClientUsageError('');
      case '--silent':
        silent = true;
        break;
      case '--toolset':
        toolset = value();
        break;
      case '--args':
        argsJson = value();
        break;
      case '--arg': {
        const kv = value();
        const at = kv.indexOf('=');
        if (at <= 0) throw new ClientUsageError(`--arg takes key=value, got '${kv}'`);
        pairs.push([kv.slice(0, at), kv.slice(at + 1)]);
        break;
      }
      default:
        if (flag.startsWith('-')) throw new ClientUsageError(`unknown option '${flag}'`);
        positional.push(arg);
    }
  }
  try {
    new URL(endpoint);
  } catch {
    throw new ClientUsageError(`--endpoint must be a URL, got '${endpoint}'`);
  }
  const [command, target, ...extra] = positional;
  if (extra.length) throw new ClientUsageError(`unexpected argument '${extra[0]}'`);
  const base = { endpoint, json, ...(toolset ? { toolset } : {}) };
  switch (command) {
    case 'list':
      if (target !== 'tools' && target !== 'servers' && target !== 'workflows' && target !== 'executions')
        throw new ClientUsageError(`list what? tools, servers, workflows or executions (got '${target ?? ''}')`);
      return { ...base, run: { command: 'list', what: target } };
    case 'describe':
      if (!target) throw new ClientUsageError('describe needs a tool name: switchboard describe TOOL');
      return { ...base, run: { command: 'describe', tool: target } };
    case 'call':
      if (!target) throw new ClientUsageError('call needs a tool name: switchboard call TOOL [--arg k=v]... [--args JSON]');
      return { ...base, run: { command: 'call', tool: target, pairs, ...(argsJson !== undefined ? { json: argsJson } : {}) } };
    case 'login':
    case 'agent':
      if (target) throw new ClientUsageError(`unexpected argument '${target}'`);
      return { ...base, run: { command, silent } };
    case 'logout':
      return { ...base, run: { command: 'logout' } };
    default:
      throw new ClientUsageError(`unknown command '${command ?? ''}'`);
  }
}
