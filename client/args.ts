/**
 * Arguments of the client commands (`switchboard list|describe|call|login|logout|agent`):
 * every one talks to a running Switchboard. Which one (--endpoint, --port, the run file of
 * --config-path's serve, config.yaml) is the application's rule (app/cli/endpoint.ts), the
 * same for `connect`: the client only reads the flags.
 */

export type ClientCommand =
  | { command: 'list'; what: 'tools' | 'servers' | 'workflows' | 'executions' }
  | { command: 'describe'; tool: string }
  | { command: 'call'; tool: string; pairs: [string, string][]; json?: string }
  | { command: 'login'; silent: boolean }
  | { command: 'logout' }
  | { command: 'agent'; silent: boolean };

/** What names the Switchboard to talk to, as given on the command line. */
export interface EndpointFlags {
  endpoint?: string;
  port?: number;
  configPath?: string;
}

export interface ClientArgs {
  /** Resolved from `flags` by the application before a command runs. */
  endpoint: string;
  flags: EndpointFlags;
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

Client options (which Switchboard: the first of these that is given or found):
  --endpoint URL      Switchboard's MCP URL
  --port N            A Switchboard on this machine listening on port N
                      ($SWITCHBOARD_ENDPOINT, then the run file of a running serve
                      (serve.json in the configuration directory), then config.yaml)
  --config-path DIR   The configuration directory whose serve.json and config.yaml are read
                      (default ~/.config/switchboard/)
  --json              Machine-readable output
  --toolset SEL       Narrow to a toolset (X-Service-Toolset), e.g. preset:dev
`;

/** The arguments, `endpoint` still empty: the caller resolves it from `flags`. */
export function parseClientArgs(argv: readonly string[]): ClientArgs {
  const flags: EndpointFlags = {};
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
        flags.endpoint = value();
        try {
          new URL(flags.endpoint);
        } catch {
          throw new ClientUsageError(`--endpoint must be a URL, got '${flags.endpoint}'`);
        }
        break;
      case '--port': {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535) throw new ClientUsageError(`--port must be an integer from 1 to 65535, got '${v}'`);
        flags.port = Number(v);
        break;
      }
      case '--config-path':
        flags.configPath = value();
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
  const [command, target, ...extra] = positional;
  if (extra.length) throw new ClientUsageError(`unexpected argument '${extra[0]}'`);
  const base = { endpoint: '', flags, json, ...(toolset ? { toolset } : {}) };
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
