/** Command-line parsing: `switchboard <command> [--flag value]...`, no dependency needed. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SwitchboardError } from '../../kernel/errors.js';

export type Command = 'serve' | 'check' | 'reference' | 'crds' | 'import' | 'add' | 'init' | 'connect' | 'help' | 'version';
const COMMANDS: readonly Command[] = ['serve', 'check', 'reference', 'crds', 'import', 'add', 'init', 'connect', 'help', 'version'];

export interface CliArgs {
  command: Command;
  configPath: string;
  port?: number;
  /** Where --port's value came from: a flag names a running serve for connect; the environment is what serve would use. */
  portFrom?: 'flag' | 'env';
  host?: string;
  /** Where --host's value came from, so that a refusal names what to change. */
  hostFrom?: 'flag' | 'env';
  /** --allow-unauthenticated-network: the container image's visible opt-in (docs/security.md). */
  allowUnauthenticatedNetwork?: boolean;
  transport?: 'streamable-http' | 'sse' | 'stdio';
  /** import: the client configuration file. */
  file?: string;
  dryRun?: boolean;
  force?: boolean;
  /** connect: the client to configure, --print, --config FILE and --endpoint URL. */
  client?: string;
  print?: boolean;
  clientConfig?: string;
  endpoint?: string;
  /** add NAME -- COMMAND ARGS... | add NAME --url URL: the server to add. */
  name?: string;
  commandLine?: string[];
  url?: string;
  headers?: [string, string][];
  env?: [string, string][];
}

export class UsageError extends SwitchboardError {
  constructor(message: string) {
    super('INVALID_ARGUMENTS', message);
  }
}

export const USAGE = `Usage: switchboard <command> [options]

Commands:
  serve        Serve the aggregator (default)
  check        Validate the configuration and exit (exit 1 with file:line errors)
  reference    Print the configuration reference (Markdown, from the JSON Schemas)
  crds         Print the Kubernetes CustomResourceDefinitions (YAML, from the same schemas)
  init         Create the configuration directory: a commented config.yaml and an example
               server; never overwrites a file
  import FILE  Write mcpservers/*.yaml from a client's MCP configuration (Claude Desktop,
               Cursor: mcpServers; VS Code: servers). --dry-run prints instead; --force
               overwrites existing files and adds duplicates. Literal credentials go to
               secrets.env, the YAML gets \${NAME} references
  add NAME [--env K=V]... -- COMMAND [ARGS...]
  add NAME --url URL [--transport sse] [--header K=V]...
               Write mcpservers/NAME.yaml for one server (a running Switchboard loads it
               at once); a duplicate of an existing server or NAME already there is refused
               (--force adds it anyway); credentials go to secrets.env as for import
  connect CLIENT
               Configure claude-desktop, claude-code, cursor or vscode to use Switchboard
               (keeps the rest of the file, writes a backup beside it). --print shows the
               JSON instead; --config FILE names the client's file; --force replaces an
               existing 'switchboard' entry. It writes the URL of the running serve

Client commands (see switchboard list --help):
  list tools|servers|workflows|executions, describe TOOL, call TOOL [--arg k=v]...,
  login [--silent], logout, agent [--silent]; each takes --json

Which Switchboard connect and the client commands reach: the first of
  --endpoint URL, --port N, $SWITCHBOARD_ENDPOINT, the run file a running serve writes
  (serve.json in --config-path's directory), config.yaml's host and port

Options:
  --config-path DIR   Configuration directory (default ~/.config/switchboard/)
  --port N            serve: listen on port N (overrides aggregator.port; 0 picks a free
                      port; else $SWITCHBOARD_PORT); other commands: reach the serve on N
  --endpoint URL      connect and client commands: the Switchboard's MCP URL
  --host ADDR         Bind address (overrides aggregator.host; else $SWITCHBOARD_HOST)
  --allow-unauthenticated-network
                      Accept a non-loopback bind without OAuth (overrides
                      aggregator.allowUnauthenticatedNetwork; docs/security.md)
  --transport T       streamable-http, sse or stdio (overrides aggregator.transport);
                      add --url: the server's transport (streamable-http by default)
  --dry-run           import: print what would be written
  --force             import, add: overwrite existing server files, add duplicates;
                      connect: replace the entry
  -h, --help          Show this help
  -v, --version       Show the version
`;

/** K=V of --header and --env; the value may hold '=' itself. */
function pair(v: string, flag: string): [string, string] {
  const at = v.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} takes NAME=VALUE, got '${v}'`);
  return [v.slice(0, at), v.slice(at + 1)];
}

const ADD_USAGE = 'switchboard add NAME -- COMMAND [ARGS...]  or  switchboard add NAME --url URL';

function checkAdd(out: CliArgs): void {
  if (!out.name) throw new UsageError(`add needs the server's name: ${ADD_USAGE}`);
  const local = out.commandLine !== undefined;
  if (local === (out.url !== undefined))
    throw new UsageError(`add needs either a command after '--' or --url, not ${local ? 'both' : 'neither'}: ${ADD_USAGE}`);
  if (local && out.commandLine!.length === 0) throw new UsageError(`add needs the command after '--': ${ADD_USAGE}`);
  if (local && out.headers) throw new UsageError('--header is for a remote server (--url); a local server takes --env');
  if (!local && out.env) throw new UsageError('--env is for a local server (-- COMMAND); a remote server takes --header');
  if (local && out.transport) throw new UsageError('--transport is for a remote server (--url): a command runs over stdio');
  if (out.transport === 'stdio') throw new UsageError('--transport for add --url is streamable-http or sse');
}

function parsePort(v: string, where: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new UsageError(`${where} must be an integer from 0 to 65535, got '${v}'`);
  return n;
}

/**
 * The environment gives what a container sets once for every command line (its image, its
 * orchestrator): the bind address and port. Flags win over it, and it wins over config.yaml.
 */
function fromEnvironment(out: CliArgs, env: NodeJS.ProcessEnv): void {
  if (env.SWITCHBOARD_HOST) {
    out.host = env.SWITCHBOARD_HOST;
    out.hostFrom = 'env';
  }
  if (env.SWITCHBOARD_PORT) {
    out.port = parsePort(env.SWITCHBOARD_PORT, 'SWITCHBOARD_PORT');
    out.portFrom = 'env';
  }
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliArgs {
  const out: CliArgs = { command: 'serve', configPath: join(homedir(), '.config', 'switchboard') };
  fromEnvironment(out, env);
  let commandSeen = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '-h':
      case '--help':
        return { ...out, command: 'help' };
      case '-v':
      case '--version':
        return { ...out, command: 'version' };
      case '--config-path':
        out.configPath = resolve(value());
        break;
      case '--port':
        out.port = parsePort(value(), '--port');
        out.portFrom = 'flag';
        break;
      case '--host':
        out.host = value();
        out.hostFrom = 'flag';
        break;
      case '--allow-unauthenticated-network':
        out.allowUnauthenticatedNetwork = true;
        break;
      case '--print':
        out.print = true;
        break;
      case '--config':
        out.clientConfig = resolve(value());
        break;
      case '--endpoint':
        out.endpoint = value();
        break;
      case '--transport': {
        const v = value();
        if (v !== 'streamable-http' && v !== 'sse' && v !== 'stdio') throw new UsageError(`--transport must be streamable-http, sse or stdio, got '${v}'`);
        out.transport = v;
        break;
      }
      case '--url':
        out.url = value();
        break;
      case '--header':
        (out.headers ??= []).push(pair(value(), '--header'));
        break;
      case '--env':
        (out.env ??= []).push(pair(value(), '--env'));
        break;
      case '--':
        // add: everything after it is the server's command line, flags included.
        if (out.command !== 'add') throw new UsageError("'--' only goes before add's command: switchboard add NAME -- COMMAND [ARGS...]");
        out.commandLine = argv.slice(i + 1);
        i = argv.length;
        break;
      case '--dry-run':
        out.dryRun = true;
        break;
      case '--force':
        out.force = true;
        break;
      default:
        if (!flag.startsWith('-') && !commandSeen) {
          if (!COMMANDS.includes(flag as Command)) throw new UsageError(`unknown command '${flag}'`);
          out.command = flag as Command;
          commandSeen = true;
          break;
        }
        if (!flag.startsWith('-') && out.command === 'import' && out.file === undefined) {
          out.file = resolve(flag);
          break;
        }
        if (!flag.startsWith('-') && out.command === 'add' && out.name === undefined) {
          out.name = flag;
          break;
        }
        if (!flag.startsWith('-') && out.command === 'connect' && out.client === undefined) {
          out.client = flag;
          break;
        }
        throw new UsageError(`unknown option '${flag}'`);
    }
  }
  if (out.command === 'import' && !out.file) throw new UsageError('import needs the file to read: switchboard import FILE');
  if (out.command === 'add') checkAdd(out);
  if (out.command === 'connect' && !out.client)
    throw new UsageError('connect needs the client to configure: switchboard connect claude-desktop|claude-code|cursor|vscode');
  return out;
}
