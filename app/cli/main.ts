/** The `switchboard` command. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_PLUGINS } from '../built-in-plugins.js';
import { ConfigInvalidError, formatConfigProblem } from '../../kernel/errors.js';
import { Kernel } from '../../kernel/kernel.js';
import { createLogger } from '../../kernel/log.js';
import { packageRoot, packageVersion } from '../../kernel/paths.js';
import { check } from './check.js';
import { importServers } from './import/import-command.js';
import { connectClient } from './connect/connect-command.js';
import { configuredEndpoint } from './endpoint.js';
import { init } from './init/init-command.js';
import { renderConfigReference } from './config-reference.js';
import { renderCrds } from '../../plugins/store-kubernetes/crds.js';
import { parseArgs, USAGE, UsageError, type CliArgs } from './args.js';
import { startIdleCompaction } from './idle-compaction.js';
import { busyPort } from './port-probe.js';

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
    if (args.host) {
      overrides.host = args.host;
      overrides.hostFrom = args.hostFrom ?? 'flag';
    }
    if (args.transport) overrides.transport = args.transport;
    if (args.allowUnauthenticatedNetwork !== undefined) overrides.allowUnauthenticatedNetwork = args.allowUnauthenticatedNetwork;
    if (args.transport !== 'stdio') {
      const busy = await busyPort(args.configPath, overrides);
      if (busy) {
        process.stderr.write(`switchboard: ${busy}\n`);
        process.exit(1);
      }
    }
    kernel = await Kernel.boot({
      plugins: BUILT_IN_PLUGINS,
      configPath: args.configPath,
      overrides,
      log,
      onShutdownRequest: (reason) => void exit(reason, 0),
    });
    startIdleCompaction();
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
    args = parseArgs(process.argv.slice(2), process.env);
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
    case 'init':
      process.exit(await init({ configPath: args.configPath, out: (line) => process.stdout.write(`${line}\n`) }));
      return;
    case 'connect': {
      const cli = join(packageRoot(), 'bin', 'switchboard.js');
      // npx runs from a cache it may clean: a path into it would break the client later.
      if (!args.print && args.client === 'claude-desktop' && /[\\/]_npx[\\/]/.test(cli))
        process.stderr.write(`switchboard connect: ${cli} is in npx's cache; 'npm i -g switchboard' first so that the path stays valid\n`);
      const endpoint =
        args.endpoint ??
        (process.env.SWITCHBOARD_ENDPOINT ||
          (await configuredEndpoint(args.configPath, { ...(args.host ? { host: args.host } : {}), ...(args.port !== undefined ? { port: args.port } : {}) })));
      process.exit(
        await connectClient({
          client: args.client!,
          endpoint,
          ...(args.clientConfig ? { file: args.clientConfig } : {}),
          print: args.print ?? false,
          force: args.force ?? false,
          host: { platform: process.platform, home: homedir(), env: process.env },
          agent: { node: process.execPath, cli },
          out: (line) => process.stdout.write(`${line}\n`),
          err: (line) => process.stderr.write(`${line}\n`),
        }),
      );
      return;
    }
    case 'serve':
      await serve(args);
  }
}

await main();
