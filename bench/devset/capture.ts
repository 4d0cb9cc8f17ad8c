/**
 * `node dist/bench/devset/capture.js [server...]`: refreshes the search development set's
 * catalogues. Each server of servers.ts (and of its UNSEEN_SERVERS) is installed from npm into a cache folder outside the
 * repo (~/.cache/switchboard-devset/<server>), started over stdio with the SDK client, and its
 * `tools/list` answer is written, exactly as shipped, to bench/devset/catalog/<server>.json
 * (bench/devset/unseen/<server>.json for an unseen one).
 * The JSON is committed, so the bench and its test need no network; this script is how to
 * refresh it. A server that fails to install or list is reported and left out.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Catalogue } from './catalog.js';
import { SERVERS, UNSEEN_SERVERS, type ServerSpec } from './servers.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cache = join(homedir(), '.cache', 'switchboard-devset');
const LIST_TIMEOUT_MS = 60_000;

interface PackageJson {
  version: string;
  bin?: string | Record<string, string>;
}

async function install(spec: ServerSpec): Promise<{ dir: string; pkg: PackageJson; main: string }> {
  const dir = join(cache, spec.server);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `devset-${spec.server}`, private: true }));
  // Browser downloads are from outside the registry: the tool list needs no browser.
  const env = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', spec.package], { cwd: dir, env, timeout: 600_000 });
  const pkgDir = join(dir, 'node_modules', spec.package);
  const pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as PackageJson;
  const bins = typeof pkg.bin === 'string' ? { [spec.package]: pkg.bin } : (pkg.bin ?? {});
  const chosen = spec.bin ? bins[spec.bin] : Object.values(bins)[0];
  if (!chosen) throw new Error(`${spec.package} ships no bin${spec.bin ? ` named ${spec.bin}` : ''}`);
  return { dir, pkg, main: join(pkgDir, chosen) };
}

async function listTools(spec: ServerSpec, main: string, scratch: string): Promise<Tool[]> {
  const fill = (s: string) => s.replaceAll('{scratch}', scratch);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: scratch };
  for (const [k, v] of Object.entries(spec.env ?? {})) env[k] = fill(v);
  const transport = new StdioClientTransport({ command: process.execPath, args: [main, ...(spec.args ?? []).map(fill)], env, cwd: scratch, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const client = new Client({ name: 'switchboard-devset-capture', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: LIST_TIMEOUT_MS });
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: LIST_TIMEOUT_MS });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; stderr: ${stderr.trim().slice(-600)}`, { cause: e });
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function capture(spec: ServerSpec, folder: string): Promise<string> {
  const { dir, pkg, main } = await install(spec);
  const scratch = join(dir, 'scratch');
  await mkdir(scratch, { recursive: true });
  // A credentials file some servers insist exists before they start (fake content).
  await writeFile(
    join(scratch, 'gcp-oauth.keys.json'),
    JSON.stringify({ installed: { client_id: 'fake-devset', client_secret: 'fake-devset', redirect_uris: ['http://127.0.0.1'] } }),
  );
  const tools = await listTools(spec, main, scratch);
  const catalogue: Catalogue = {
    server: spec.server,
    package: spec.package,
    version: pkg.version,
    ...(spec.env ? { fakeEnv: Object.keys(spec.env) } : {}),
    tools: tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema })),
  };
  const out = join(root, 'bench/devset', folder, `${spec.server}.json`);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(`${out}.tmp`, `${JSON.stringify(catalogue, null, 1)}\n`);
  await rename(`${out}.tmp`, out);
  return `${spec.server}: ${spec.package}@${pkg.version}, ${tools.length} tools`;
}

const only = process.argv.slice(2);
const queue = [...SERVERS.map((spec) => ({ spec, folder: 'catalog' })), ...UNSEEN_SERVERS.map((spec) => ({ spec, folder: 'unseen' }))].filter(
  ({ spec }) => only.length === 0 || only.includes(spec.server),
);
// Two at a time: installs wait on the network, the machine's cores are shared.
async function worker(): Promise<void> {
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { spec, folder } = next;
    try {
      process.stdout.write(`${await capture(spec, folder)}\n`);
    } catch (e) {
      process.stdout.write(`${spec.server}: FAILED ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
}
await Promise.all([worker(), worker()]);
