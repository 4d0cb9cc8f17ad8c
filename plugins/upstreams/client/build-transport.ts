/**
 * The transport to an upstream server as its definition describes it: a child process for
 * stdio, streamable HTTP or SSE for a remote server (remote-transport.ts). Secrets in env and
 * headers are resolved here, on every (re)connect; while connected, secret-rotation.ts reads
 * them again.
 */
import { getDefaultEnvironment } from '#mcp-sdk/client/stdio.js';
import type { Transport } from '#mcp-sdk/shared/transport.js';
import { commandLine, ForbiddenError, type Logger, type McpServerDefinition } from '../../../kernel/index.js';
import type { OutboundPolicy } from '../../../lib/net/outbound-policy.js';
import { resolveCommand } from '../../../lib/process/find-command.js';
import { loaderVariables } from '../../../lib/process/loader-env.js';
import { CommandNotFoundError } from '../lasting-failure.js';
import { operatorWritten, resolvedSecrets } from '../resolved-secrets.js';
import type { ResolvedSecrets } from '../secret-rotation.js';
import { ChildProcessTransport } from './child-process-transport.js';
import type { BearerSource } from './http-client-transport.js';
import { remoteTransport } from './remote-transport.js';

export interface TransportNeeds {
  /** Where relative paths in the definition (cwd, secret files) start. */
  configPath: string;
  log: Logger;
  /** A value resolved for env or headers that must never appear in a log or result. */
  onSecret: (value: string) => void;
  outbound(): OutboundPolicy;
  /** runtimeServers.allowedEnv: loader variables a tool-written definition may set all the same. */
  allowedEnv(): readonly string[];
  /** Set for a connection made with one owner's grant. */
  bearer?: BearerSource;
  /** Each line a stdio server writes on stderr, whatever its log level (the admin UI's tail). */
  onStderrLine?: (line: string) => void;
}

/** A transport, and what the definition's references resolved to for it (secret-rotation.ts). */
export interface BuiltTransport {
  transport: Transport;
  resolved: ResolvedSecrets;
  /** A streamable-HTTP transport's headers, read at each request: a renewed credential is written here. */
  liveHeaders?: Record<string, string>;
}

/** Rejects when a secret does not resolve or the outbound policy refuses the server's address. */
export async function buildTransport(d: McpServerDefinition, needs: TransportNeeds): Promise<BuiltTransport> {
  const { env, headers } = resolvedSecrets(d, needs.configPath, needs.onSecret);
  const resolved = { env: { ...env }, headers: { ...headers } };
  if (needs.bearer && d.type === 'sse') {
    // The SSE transport takes its headers once: the token of the moment, renewed by reconnecting.
    const token = await needs.bearer(false);
    if (token) headers.authorization = `Bearer ${token}`;
  }
  if (d.type === 'stdio') {
    const [command, ...args] = commandLine(d);
    // A definition written through a core tool was checked when written; this holds for one
    // that reached the store another way (an older release, a resource written directly).
    const refused = operatorWritten(d) ? [] : loaderVariables(d.env, needs.allowedEnv());
    if (refused.length) {
      throw new ForbiddenError(`env ${refused.join(', ')} may not be set by a server created through Switchboard (runtimeServers.allowedEnv); not started`, {
        variables: refused,
      });
    }
    // The program allowedCommands admitted by name is the one on Switchboard's PATH, not on the PATH env sets.
    const executable = resolveCommand(command!, needs.configPath);
    if (executable === undefined) throw new CommandNotFoundError(command!, needs.configPath);
    const transport = new ChildProcessTransport({
      command: executable,
      argv0: command!,
      args,
      env: { ...getDefaultEnvironment(), ...env },
      cwd: needs.configPath,
      maxMessageBytes: d.maxMessageBytes,
      onStderrLine: withTail(stderrLogger(d.stderrLogLevel, needs.log), needs.onStderrLine),
    });
    return { transport, resolved };
  }
  const transport = await remoteTransport(d, headers, needs.outbound(), needs.bearer);
  return d.type === 'sse' ? { transport, resolved } : { transport, resolved, liveHeaders: headers };
}

/** A stdio server's stderr at its definition's level: a chatty server's banner need not flood the log at info. */
function stderrLogger(level: McpServerDefinition['stderrLogLevel'], log: Logger): (line: string) => void {
  if (level === 'off') return () => undefined;
  return (line) => log[level](`stderr: ${line}`);
}

function withTail(logLine: (line: string) => void, tail: ((line: string) => void) | undefined): (line: string) => void {
  if (!tail) return logLine;
  return (line) => {
    tail(line);
    logLine(line);
  };
}
