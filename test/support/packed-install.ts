/**
 * The package as a newcomer installs it: `npm pack` of this repository, `npm install -g` of
 * the tarball into a prefix of its own. Packing and installing cost tens of seconds, so the
 * result is kept in ~/.cache/switchboard-test/packed/<key>/, where the key hashes what goes
 * into the package (package.json, and the name, size and time of every file under the folders
 * it ships): test files that need the installed command share one install, across mocha
 * workers and runs, and any rebuild makes a new one. Written whole (a temp folder, then
 * rename), so a worker never sees half an install; older keys are removed.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './harness.js';

const exec = promisify(execFile);

export interface PackedInstall {
  /** The global prefix: bin/switchboard, lib/node_modules/switchboard. */
  prefix: string;
  /** The installed package's folder. */
  installed: string;
}

/** The folders and files package.json's `files` ships from (negations only narrow them). */
const SHIPPED = ['package.json', 'bin', 'dist/app', 'dist/client', 'dist/kernel', 'dist/lib', 'dist/packages', 'dist/plugins', 'schemas', 'docs', 'plugins'];

async function fingerprint(path: string, hash: ReturnType<typeof createHash>): Promise<void> {
  let s;
  try {
    s = await stat(path);
  } catch {
    return;
  }
  if (s.isDirectory()) {
    for (const name of (await readdir(path)).sort()) await fingerprint(join(path, name), hash);
    return;
  }
  hash.update(`${path}\0${s.size}\0${s.mtimeMs}\n`);
}

async function packageKey(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(join(ROOT, 'package.json')));
  for (const p of SHIPPED) await fingerprint(join(ROOT, p), hash);
  return hash.digest('hex').slice(0, 16);
}

let installing: Promise<PackedInstall> | undefined;

/** The installed package, packed and installed once per content of the repository. */
export function packedInstall(): Promise<PackedInstall> {
  installing ??= (async () => {
    const cache = join(homedir(), '.cache', 'switchboard-test', 'packed');
    const key = await packageKey();
    const prefix = join(cache, key);
    const result = { prefix, installed: join(prefix, 'lib', 'node_modules', 'switchboard') };
    if (existsSync(join(result.installed, 'package.json'))) return result;
    await mkdir(cache, { recursive: true });
    const work = await mkdtemp(join(cache, `.${key}-`));
    try {
      const { stdout } = await exec('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT });
      const tarball = join(work, stdout.trim().split('\n').pop()!);
      const staged = join(work, 'prefix');
      await exec('npm', ['install', '-g', '--prefix', staged, '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: work });
      try {
        await rename(staged, prefix);
      } catch (err) {
        // Another worker finished the same install first: use theirs.
        if (!existsSync(join(result.installed, 'package.json'))) throw err;
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    // Installs of older contents are never used again.
    for (const name of await readdir(cache)) if (name !== key && !name.startsWith('.')) await rm(join(cache, name), { recursive: true, force: true });
    return result;
  })();
  return installing;
}

/** An environment whose PATH finds the installed `switchboard` first, with a HOME of its own. */
export function installedEnv(install: PackedInstall, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [join(install.prefix, 'bin'), dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: home,
  };
  delete env.SWITCHBOARD_ENDPOINT;
  delete env.SWITCHBOARD_HOST;
  delete env.SWITCHBOARD_PORT;
  delete env.XDG_CONFIG_HOME;
  return env;
}
