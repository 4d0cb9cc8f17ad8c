/** The `switchboard` command. */
import { ConfigInvalidError, formatConfigProblem } from '../../kernel/errors.js';
import { Kernel } from '../../kernel/kernel.js';
import { createLogger } from '../../kernel/log.js';
import { packageVersion } from '../../kernel/paths.js';
import { check } from './check.js';
import { importServers } from './import/import-command.js';
import { renderConfigReference } from './config-reference.js';
import { renderCrds } from '../../plugins/store-kubernetes/crds.js';
import { parseArgs, USAGE, UsageError, type CliArgs } from './args.js';

async function serve(args: CliArgs): Promise<void> {
  const log = createLogger();
  let kernel: Kernel | undefined;
  let exiting = false;
  const exit = async (reason: string, code: number): Promise<void> => {
    if (exiting) {
      // A second signal must not kill us mid-way: upstream processes still need stopping,
      // and the shutdown is bounded by aggregator.shutdownGraceSeconds anyway.
      log.warn(`${reason} received while shutting down; finishing the shutdown`);
      return;
    }
    exiting = true;
    await kernel?.shutdown(reason);
    process.exit(code);
  };
  process.on('SIGINT', () => void exit('SIGINT', 0));
  process.on('SIGTERM', () => void exit('SIGTERM', 0));
  try {
    const overrides: NonNullable<Parameters<typeof Kernel.boot>[0]['overrides']> = {};
    if (args.port !== undefined) overrides.port = args.port;
    if (args.host) overrides.host = args.host;
    if (args.transport) overrides.transport = args.transport;
    kernel = await Kernel.boot({
      configPath: args.configPath,
      overrides,
      log,
      onShutdownRequest: (reason) => void exit(reason, 0),
    });
  } catch (err) {
    if (err instanceof ConfigInvalidError) {
      for (const p of err.problems) process.stderr.write(`${formatConfigProblem(p)}\n`);
      process.stderr.write('switchboard: the configuration is invalid; not starting\n');
    } else {
      process.stderr.write(`switchboard: ${(err as Error).message}\n`);
    }
    process.exit(1);
  }
}

/** Commands of the command-line client (client/): they talk to a running Switchboard. */
const CLIENT_COMMANDS = new Set(['list', 'describe', 'call', 'login', 'logout', 'agent']);

async function main(): Promise<void> {
  if (process.argv.slice(2).some((a) => CLIENT_COMMANDS.has(a))) {
    const { clientMain } = await import('../../client/main.js');
    return clientMain(process.argv.slice(2));
  }
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`switchboard: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  switch (args.command) {
    case 'help':
      process.stdout.write(USAGE);
      return;
    case 'version':
      process.stdout.write(`${packageVersion()}\n`);
      return;
    case 'reference':
      process.stdout.write(renderConfigReference());
      return;
    case 'crds':
      process.stdout.write(renderCrds());
      return;
    case 'check':
      process.exit(await check(args.configPath));
      return;
    case 'import':
      process.exit(
        await importServers({
          file: args.file!,
          configPath: args.configPath,
          dryRun: args.dryRun ?? false,
          force: args.force ?? false,
          out: (line) => process.stdout.write(`${line}\n`),
        }),
      );
      return;
    case 'serve':
      await serve(args);
  }
}

await main();
