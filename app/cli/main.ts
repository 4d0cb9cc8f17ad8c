/** The `switchboard` command. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
// Only what every command needs is imported here: each command loads its own modules when it
// runs, so `--help`, a client command or `add` does not load the kernel and every plugin.
import type { Kernel } from '../../kernel/kernel.js';
import type { Logger } from '../../kernel/index.js';
import { packageRoot, packageVersion } from '../../kernel/paths.js';
import { resolveEndpoint, endpointFor } from './endpoint.js';
import { removeOwnRunFile, runFilePath, writeRunFile } from './run-file.js';
import { parseArgs, USAGE, UsageError, type CliArgs } from './args.js';
import { useClientWasmTier } from './client-wasm-tier.js';

async function serve(args: CliArgs): Promise<void> {
  const [
    { BUILT_IN_PLUGINS },
    { ConfigInvalidError, formatConfigProblem },
    { Kernel },
    { createLogger },
    { startIdleCompaction },
    { busyPort },
    { recordSettingsAtStart },
  ] = await Promise.all([
    import('../built-in-plugins.js'),
    import('../../kernel/errors.js'),
    import('../../kernel/kernel.js'),
    import('../../kernel/log.js'),
    import('./idle-compaction.js'),
    import('./port-probe.js'),
    import('./settings-at-start.js'),
  ]);
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
      // Before the ready line: a client started on "ready" finds the port.
      beforeReady: (k) => announce(k, args.configPath, log),
    });
    startIdleCompaction((line) => log.debug(line));
    // For `switchboard check`: which restart-only keys config.yaml had at startup (nothing to wait for).
    recordSettingsAtStart(args.configPath).catch((err: unknown) => log.debug(`not recording the settings at start: ${(err as Error).message}`));
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

/**
 * The run file (run-file.ts): where this serve listens, for the client commands and connect
 * of the same configuration directory. Removed on every exit of this process; a serve that
 * cannot write it (a read-only directory) still serves, and says what clients need instead.
 */
async function announce(kernel: Kernel, configPath: string, log: Logger): Promise<void> {
  const bound = kernel.services.find('http')?.address();
  if (!bound) return;
  process.on('exit', () => removeOwnRunFile(configPath));
  try {
    await writeRunFile(configPath, { url: endpointFor(bound.host, bound.port, bound.scheme), pid: process.pid, startedAt: new Date().toISOString() });
  } catch (err) {
    log.warn(
      `cannot write ${runFilePath(configPath)} (${(err as Error).message}): client commands will not find this Switchboard by themselves; give them --port ${bound.port}`,
    );
  }
}

/** Commands of the command-line client (client/): they talk to a running Switchboard. */
const CLIENT_COMMANDS = new Set(['list', 'describe', 'call', 'login', 'logout', 'agent']);
const APP_COMMANDS = new Set(['serve', 'check', 'reference', 'crds', 'import', 'add', 'init', 'connect', 'help', 'version']);

/** The first command word decides (before '--': add's server command line may hold any word). */
function isClientCommand(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const first = (end < 0 ? argv : argv.slice(0, end)).find((a) => CLIENT_COMMANDS.has(a) || APP_COMMANDS.has(a));
  return first !== undefined && CLIENT_COMMANDS.has(first);
}

/** Which Switchboard the flags name: one rule for connect and every client command (endpoint.ts). */
function endpointOf(a: { endpoint?: string; port?: number; configPath: string; host?: string; envPort?: number }) {
  return resolveEndpoint({ ...a, env: process.env, note: (line) => process.stderr.write(`${line}\n`) });
}

async function main(): Promise<void> {
  if (isClientCommand(process.argv.slice(2))) {
    useClientWasmTier();
    const { clientMain } = await import('../../client/main.js');
    const env = parseArgs([], process.env);
    return clientMain(
      process.argv.slice(2),
      (flags) =>
        endpointOf({
          ...(flags.endpoint ? { endpoint: flags.endpoint } : {}),
          ...(flags.port !== undefined ? { port: flags.port } : {}),
          configPath: flags.configPath ? resolve(flags.configPath) : env.configPath,
          ...(env.host ? { host: env.host } : {}),
          ...(env.port !== undefined ? { envPort: env.port } : {}),
        }),
      packageVersion(),
    );
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
      process.stdout.write((await import('./config-reference.js')).renderConfigReference());
      return;
    case 'crds':
      process.stdout.write((await import('../../plugins/store-kubernetes/crds.js')).renderCrds());
      return;
    case 'check':
      process.exit(await (await import('./check.js')).check(args.configPath));
      return;
    case 'import': {
      const { importServers } = await import('./import/import-command.js');
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
    }
    case 'add': {
      const { addServer } = await import('./add/add-command.js');
      process.exit(
        await addServer({
          name: args.name!,
          configPath: args.configPath,
          ...(args.commandLine ? { commandLine: args.commandLine } : {}),
          ...(args.url !== undefined ? { url: args.url, type: args.transport === 'sse' ? 'sse' : 'streamable-http' } : {}),
          headers: args.headers ?? [],
          env: args.env ?? [],
          force: args.force ?? false,
          out: (line) => process.stdout.write(`${line}\n`),
        }),
      );
      return;
    }
    case 'init':
      process.exit(await (await import('./init/init-command.js')).init({ configPath: args.configPath, out: (line) => process.stdout.write(`${line}\n`) }));
      return;
    case 'connect': {
      const cli = join(packageRoot(), 'bin', 'switchboard.js');
      // npx runs from a cache it may clean: a path into it would break the client later.
      if (!args.print && args.client === 'claude-desktop' && /[\\/]_npx[\\/]/.test(cli))
        process.stderr.write(`switchboard connect: ${cli} is in npx's cache; 'npm i -g switchboard' first so that the path stays valid\n`);
      const { url: endpoint } = await endpointOf({
        ...(args.endpoint ? { endpoint: args.endpoint } : {}),
        ...(args.port !== undefined && args.portFrom === 'flag' ? { port: args.port } : {}),
        ...(args.port !== undefined && args.portFrom === 'env' ? { envPort: args.port } : {}),
        configPath: args.configPath,
        ...(args.host ? { host: args.host } : {}),
      });
      const { connectClient } = await import('./connect/connect-command.js');
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
