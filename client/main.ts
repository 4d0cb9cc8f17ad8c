/**
 * The client half of the `switchboard` binary: commands that talk to a running
 * Switchboard. One clear line on stderr and a non-zero exit for anything that fails.
 */
import { ClientUsageError, CLIENT_USAGE, parseClientArgs, type ClientArgs, type EndpointFlags } from './args.js';
import { call, describe, list } from './commands.js';
import { ClientError, connect, disconnect } from './connection.js';
import { CredentialStore } from './credentials.js';
import { signIn } from './sign-in.js';

async function run(args: ClientArgs, version: string): Promise<number> {
  const { run: cmd, endpoint } = args;
  const say = (line: string) => process.stderr.write(`${line}\n`);
  switch (cmd.command) {
    case 'login': {
      const how = await signIn(endpoint, new CredentialStore(endpoint), { silent: cmd.silent, say });
      say(`Signed in to ${endpoint}${how === 'silent' ? ' (silently)' : ''}.`);
      return 0;
    }
    case 'logout':
      say((await new CredentialStore(endpoint).forget()) ? `Signed out of ${endpoint}.` : `No credentials were stored for ${endpoint}.`);
      return 0;
    case 'agent': {
      // Only here: the agent is an MCP server too (the SDK's server side), which no other command loads.
      const { runAgent } = await import('./agent.js');
      await runAgent(endpoint, { silent: cmd.silent, version, ...(args.toolset ? { toolset: args.toolset } : {}) });
      return -1;
    }
    default: {
      const client = await connect(endpoint, { version, ...(args.toolset ? { toolset: args.toolset } : {}) });
      try {
        if (cmd.command === 'list') process.stdout.write(await list(client, cmd.what, args.json));
        else if (cmd.command === 'describe') process.stdout.write(await describe(client, cmd.tool, args.json));
        else {
          const result = await call(client, cmd, args.json);
          (result.failed && !args.json ? process.stderr : process.stdout).write(result.failed && !args.json ? `switchboard: ${result.out}` : result.out);
          return result.failed ? 1 : 0;
        }
        return 0;
      } finally {
        await disconnect(client);
      }
    }
  }
}

/** `resolveEndpoint`: the application's rule for which Switchboard the flags name; `version`: the package's. */
export async function clientMain(
  argv: readonly string[],
  resolveEndpoint: (flags: EndpointFlags) => Promise<{ url: string; from: string }>,
  version: string,
): Promise<void> {
  let args: ClientArgs;
  try {
    args = parseClientArgs(argv);
  } catch (err) {
    if (!(err instanceof ClientUsageError)) throw err;
    if (!err.message) {
      process.stdout.write(CLIENT_USAGE);
      process.exit(0);
    }
    process.stderr.write(`switchboard: ${err.message}\n\n${CLIENT_USAGE}`);
    process.exit(2);
  }
  let code: number;
  let from = '';
  try {
    ({ url: args.endpoint, from } = await resolveEndpoint(args.flags));
    code = await run(args, version);
  } catch (err) {
    let message = (err as Error).message.split('\n')[0]!;
    // An address that was found, not given, is what to change when nothing answers there: say where it came from.
    if (err instanceof ClientError && err.code === 'UNREACHABLE' && !from.startsWith('--'))
      message += `; the address came from ${from}: --endpoint URL or --port N names another`;
    process.stderr.write(`switchboard: ${message}\n`);
    code = 1;
  }
  if (code >= 0) process.exit(code);
}
