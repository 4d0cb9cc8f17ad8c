#!/usr/bin/env node
// Prettier's check for `npm test` (scripts/checks.js), skipping files already found formatted.
//
// Prettier's own cache names files by their absolute path, and CI checks a fresh clone, often
// in a new directory, so it never hits there. This one remembers what was checked by content:
// a key is the hash of Prettier's version, its configuration files, the file's path in the
// repository (overrides can match paths) and its text, so any change to one of them checks the
// file again. Only a check that passed adds keys. The keys live in the user's cache directory
// (XDG_CACHE_HOME or ~/.cache, `switchboard/format-checked`, 0700), as the Kubernetes test
// binaries do, and are written whole or not at all (temp file + rename). Whoever can write that
// directory can make the check skip a file; it decides formatting only.
//
// Without git (an unpacked tarball) or with SWITCHBOARD_FORMAT_CACHE=0 it is Prettier's plain
// `--check` of every file.
//
//   node scripts/format-check.js      exit status and output as `prettier --check`
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const prettierDir = dirname(require.resolve('prettier/package.json'));
const PRETTIER = join(prettierDir, 'bin', 'prettier.cjs');
const GLOB = '**/*.{ts,js}';
/** Enough for several branches' worth of files; the oldest keys go first. */
const MAX_KEYS = 20_000;
/** What decides Prettier's answer besides a file's own path and text: any configuration file it reads at the root (and package.json's `prettier` key, below). */
const CONFIG_FILES = [
  ...['.prettierrc', '.prettierrc.json', '.prettierrc.json5', '.prettierrc.yaml', '.prettierrc.yml', '.prettierrc.toml'],
  ...['.prettierrc.js', '.prettierrc.cjs', '.prettierrc.mjs', 'prettier.config.js', 'prettier.config.cjs', 'prettier.config.mjs'],
  ...['.prettierignore', '.editorconfig'],
];

/** Runs Prettier's check with `args`; answers its exit status, its output passed through. */
function prettier(args) {
  return spawnSync(process.execPath, [PRETTIER, '--check', ...args], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

/** The files Prettier's glob would check, as git knows them (tracked and new, not ignored); undefined without git. */
function sourceFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.ts', '*.js'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) return undefined;
  // A file deleted but not yet staged is still listed.
  return listed.stdout.split('\0').filter((f) => f && existsSync(join(root, f)));
}

function cacheFile() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'switchboard', 'format-checked', 'keys.txt');
}

function readKeys(file) {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function writeKeys(file, keys) {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${keys.slice(-MAX_KEYS).join('\n')}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch (err) {
    // A cache that cannot be written costs the next run its time, nothing else.
    process.stderr.write(`format-check: the cache was not written (${err.message})\n`);
  }
}

const files = process.env.SWITCHBOARD_FORMAT_CACHE === '0' ? undefined : sourceFiles();
if (files === undefined) process.exit(prettier([GLOB]));

const settings = createHash('sha256').update(JSON.parse(readFileSync(join(prettierDir, 'package.json'), 'utf8')).version);
for (const name of CONFIG_FILES) settings.update(`\0${name}\0`).update(existsSync(join(root, name)) ? readFileSync(join(root, name)) : '');
settings.update(`\0package.json\0${JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).prettier ?? null)}`);
const salt = settings.digest('hex');
const keyOf = (file) =>
  createHash('sha256')
    .update(salt)
    .update(`\0${file}\0`)
    .update(readFileSync(join(root, file)))
    .digest('base64url');

const store = cacheFile();
const known = readKeys(store);
const checked = new Set(known);
const keys = new Map(files.map((f) => [f, keyOf(f)]));
const unchecked = files.filter((f) => !checked.has(keys.get(f)));
if (unchecked.length === 0) {
  console.log(`All ${files.length} files were found formatted before, unchanged since (${store}).`);
  process.exit(0);
}
// Prettier leaves out what .prettierignore names, also when it is named on the command line.
const status = prettier(['--no-error-on-unmatched-pattern', ...unchecked]);
if (status === 0) {
  if (unchecked.length < files.length) console.log(`(${files.length - unchecked.length} more were found formatted before, unchanged since)`);
  writeKeys(store, [...known, ...unchecked.map((f) => keys.get(f))]);
}
process.exit(status);
