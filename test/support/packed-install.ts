/**
 * The repository as a user gets it: `npm pack` (its prepack build check included), then the
 * tarball installed the way the test says, `global` (`npm install -g --prefix DIR`, as
 * newcomer does) or `local` (`npm install --omit=dev TARBALL` in a project directory, as
 * third-party-package does).
 *
 * Packing costs a few CPU-seconds; installing the dependency tree costs tens (on two cores,
 * the most costly step of either file). The install is therefore cached in
 * ~/.cache/switchboard-test-install/<kind>-<hash>/ under a hash of the tarball's bytes (npm
 * writes its entries with a fixed date, so the same contents make the same tarball): a
 * change to anything the package ships makes a new install. It is installed into a temp
 * directory beside it and renamed into place, so parallel test files and later runs share
 * one and never see half of one. Installs unused for two days are removed. A new tarball
 * whose dependency tree is that of an earlier install (the same dependency specs: most
 * changes touch only the package's own files) is installed from that one, not by npm again
 * (fromDonor).
 *
 * The installed tree is shared: tests read and run it, and write nothing into it (their
 * configuration, HOME and projects live in their own temp directories).
 *
 * Packing itself costs about 2.8 s of CPU (npm's start, its prepack script, reading and
 * compressing a thousand files), paid by every file that installs, in every run. So the
 * tarball's hash is remembered too, under a fingerprint of what npm would read to make it:
 * path, size, inode and modification time of every file below the folders `files` names in
 * package.json (a superset of what it packs), and package.json, README and LICENSE. A build
 * rewrites its outputs (new times), so the next file packs again, and finds the same install
 * when the contents are the same. The prepack step still runs first (scripts/build-if-stale.js,
 * 0.15 s): a source edited since the build is built before the fingerprint is taken, as npm
 * pack would.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './harness.js';

const run = promisify(execFile);
const CACHE = join(homedir(), '.cache', 'switchboard-test-install');
const UNUSED_MS = 2 * 24 * 3600_000;
/** An install still in its temp directory after this was stopped (an install takes minutes at most). */
const ABANDONED_MS = 3600_000;

export type InstallKind = 'global' | 'local';

export interface PackedInstall {
  /** `global`: the prefix (bin/, lib/node_modules/switchboard/); `local`: the project (node_modules/). */
  dir: string;
  /** The installed package's own directory. */
  installed: string;
  /** False when the install came from the cache. */
  fresh: boolean;
}

const pending = new Map<InstallKind, Promise<PackedInstall>>();

/** Packs the repository and returns an install of that tarball of `kind`, from the cache when it holds one (once per process). */
export function packedInstall(kind: InstallKind): Promise<PackedInstall> {
  let install = pending.get(kind);
  if (!install) pending.set(kind, (install = packAndInstall(kind)));
  return install;
}

function installPaths(kind: InstallKind, hash: string): { dir: string; installed: string } {
  const dir = join(CACHE, `${kind}-${hash}`);
  return { dir, installed: kind === 'global' ? join(dir, 'lib', 'node_modules', 'switchboard') : join(dir, 'node_modules', 'switchboard') };
}

async function cached(kind: InstallKind, hash: string): Promise<PackedInstall | undefined> {
  const { dir, installed } = installPaths(kind, hash);
  if (!(await exists(installed))) return undefined;
  const now = new Date();
  await utimes(dir, now, now);
  return { dir, installed, fresh: false };
}

async function packAndInstall(kind: InstallKind): Promise<PackedInstall> {
  await run(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { cwd: ROOT });
  const fingerprint = await packFingerprint();
  const packedFrom = fingerprint ? join(CACHE, 'packs', fingerprint) : undefined;
  const known = packedFrom ? await readFile(packedFrom, 'utf8').catch(() => undefined) : undefined;
  if (known) {
    const hit = await cached(kind, known.trim());
    if (hit) return hit;
  }
  const packDir = await mkdtemp(join(tmpdir(), 'sb-pack-'));
  try {
    // --ignore-scripts: its prepack step ran above.
    const { stdout } = await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT });
    const tarball = join(packDir, stdout.trim().split('\n').pop()!);
    const hash = createHash('sha256')
      .update(await readFile(tarball))
      .digest('hex')
      .slice(0, 16);
    if (packedFrom) {
      await mkdir(dirname(packedFrom), { recursive: true });
      // Whole or not at all (temp + rename): another file may read it at any time.
      const temp = `${packedFrom}.${process.pid}.tmp`;
      await writeFile(temp, hash);
      await rename(temp, packedFrom);
    }
    const hit = await cached(kind, hash);
    if (hit) return hit;
    const { dir, installed } = installPaths(kind, hash);
    await mkdir(CACHE, { recursive: true });
    const work = await mkdtemp(join(CACHE, `.installing-${kind}-`));
    const donorRecord = join(CACHE, 'deps', `${kind}-${await dependencyKey()}`);
    const donor = await readFile(donorRecord, 'utf8').then(
      (name) => join(CACHE, name.trim()),
      () => undefined,
    );
    try {
      if (donor && (await exists(join(donor, relative(dir, installed), 'package.json')))) {
        await fromDonor(donor, work, relative(dir, installed), tarball);
      } else if (kind === 'global') {
        await run('npm', ['install', '-g', '--prefix', work, '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: packDir });
      } else {
        await writeFile(join(work, 'package.json'), JSON.stringify({ name: 'my-gateway', private: true, type: 'module' }));
        await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=dev', tarball], { cwd: work });
      }
      // Links npm made are relative (bin/, node_modules/.bin/): the tree stays whole when renamed.
      await rename(work, dir).catch(async (err: unknown) => {
        // Another file installed the same tarball first: theirs is as good.
        if (!(await exists(installed))) throw err;
      });
      await mkdir(dirname(donorRecord), { recursive: true });
      const temp = `${donorRecord}.${process.pid}.tmp`;
      await writeFile(temp, `${kind}-${hash}`);
      await rename(temp, donorRecord);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    await pruneUnused();
    return { dir, installed, fresh: true };
  } finally {
    await rm(packDir, { recursive: true, force: true });
  }
}

/**
 * What decides the dependency tree npm installs for the package: its name, bin entries,
 * install scripts and dependency specs, and the Node version. Two tarballs that agree on
 * these get the same tree from npm, whatever else differs in them.
 */
async function dependencyKey(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const scripts = (pkg.scripts ?? {}) as Record<string, unknown>;
  const decides = {
    node: process.version,
    name: pkg.name,
    bin: pkg.bin,
    install: [scripts.preinstall, scripts.install, scripts.postinstall],
    ...Object.fromEntries(
      ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies', 'overrides'].map((k) => [k, pkg[k]]),
    ),
  };
  return createHash('sha256').update(JSON.stringify(decides)).digest('hex').slice(0, 16);
}

/**
 * A new tarball's install made from an earlier one with the same dependency tree
 * (dependencyKey), instead of `npm install` resolving and writing twelve thousand files
 * again (20-60 s of CPU, every time anything the package ships changed): the earlier
 * install hard-linked (nothing writes into an install, so they may share files), its
 * package folder emptied but for node_modules, the tarball's files extracted there and its
 * bin entries made executable, as npm does.
 */
async function fromDonor(donor: string, work: string, packageDir: string, tarball: string): Promise<void> {
  await run('cp', ['-al', `${donor}/.`, `${work}/`]);
  const target = join(work, packageDir);
  for (const name of await readdir(target)) if (name !== 'node_modules') await rm(join(target, name), { recursive: true, force: true });
  await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  const { bin } = JSON.parse(await readFile(join(target, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  for (const file of typeof bin === 'string' ? [bin] : Object.values(bin ?? {})) await chmod(join(target, file), 0o755);
}

/**
 * What npm would read to pack the repository, as a hash of each file's path, size, inode and
 * time (see the top of this file); undefined when `files` has an entry with no folder to
 * start from (`**` at the top), whose superset would be the whole repository.
 */
async function packFingerprint(): Promise<string | undefined> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  // Each positive entry's folder, up to its first wildcard: a superset of what the entry packs.
  const roots = pkg.files.filter((f) => !f.startsWith('!')).map((f) => f.split('*')[0]!.replace(/\/[^/]*$/, ''));
  if (roots.includes('')) return undefined;
  const hash = createHash('sha256');
  const add = async (path: string): Promise<void> => {
    const s = await stat(path).catch(() => undefined);
    if (!s) return;
    if (s.isDirectory()) {
      for (const name of (await readdir(path)).sort()) await add(join(path, name));
      return;
    }
    hash.update(`${relative(ROOT, path)}\0${s.size}\0${s.ino}\0${s.mtimeMs}\n`);
  };
  const top = (await readdir(ROOT)).filter((n) => n === 'package.json' || /^(README|LICEN[CS]E)/i.test(n));
  for (const path of [...new Set([...roots, ...top])].sort()) await add(join(ROOT, path));
  return hash.digest('hex').slice(0, 32);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Removes installs no test used for two days (each is a whole dependency tree), and installs a stopped run left half done. */
async function pruneUnused(): Promise<void> {
  for (const name of await readdir(CACHE)) {
    const path = join(CACHE, name);
    const s = await stat(path).catch(() => undefined);
    const limit = name.startsWith('.installing-') ? ABANDONED_MS : UNUSED_MS;
    if (s && Date.now() - s.mtimeMs > limit) await rm(path, { recursive: true, force: true });
  }
}

/** An environment whose PATH finds a `global` install's `switchboard` first, with a HOME of its own. */
export function installedEnv(install: PackedInstall, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [join(install.dir, 'bin'), dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: home,
  };
  delete env.SWITCHBOARD_ENDPOINT;
  delete env.SWITCHBOARD_HOST;
  delete env.SWITCHBOARD_PORT;
  delete env.XDG_CONFIG_HOME;
  return env;
}
