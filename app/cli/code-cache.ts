/**
 * Runs the bundled program (dist/bundle/program-<hash>.cjs, scripts/build-program.js) with
 * V8's code cache: the bytecode V8 compiled for it in an earlier start, kept on disk, so a
 * start deserializes what it ran last time instead of parsing and compiling 6 MB of
 * JavaScript again (docs/decisions.md, "The program's code cache").
 *
 * Why here: Node 22.1+ keeps such a cache itself (`module.enableCompileCache`), Node 20 does
 * not, and Switchboard supports both. V8's own API (`vm.Script`'s `cachedData`) is on both,
 * for CommonJS code only, which is why the program is bundled as one CommonJS file.
 *
 * Where: `$SWITCHBOARD_CODE_CACHE` (a directory, or `off`), else
 * `$XDG_CACHE_HOME/switchboard/code-cache` (`~/.cache/...`). Cached bytecode is code: the
 * directory must be the user's own and writable by nobody else (owner, mode 0700), or the
 * cache is neither read nor written. A file is named by the bundle's content hash and
 * Node's version; V8 checks the rest (its own version and flags) and rejects what does not
 * match, in which case the program is compiled from source as without a cache and the file
 * is written again. Anything that goes wrong with the cache (unreadable, unwritable,
 * rejected) only costs the compile: it never stops a start.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The program's exports bin/switchboard.js uses: its CLI. */
export interface Program {
  main(hooks?: { started?: () => void }): Promise<void>;
}

/** How many cache files (builds x Node versions) the directory keeps; older ones are removed when one is written. */
const KEEP_FILES = 8;

/** The cache directory for this environment, or undefined when switched off. */
export function codeCacheDir(env: NodeJS.ProcessEnv, home: string): string | undefined {
  const chosen = env.SWITCHBOARD_CODE_CACHE?.trim();
  if (chosen === 'off') return undefined;
  if (chosen) return chosen;
  const base = env.XDG_CACHE_HOME?.trim() || join(home, '.cache');
  return join(base, 'switchboard', 'code-cache');
}

/** The cache file of a bundle (by the hash in its name) under this Node. */
export function codeCacheFile(dir: string, bundleFile: string, nodeVersion: string, arch: string): string {
  return join(dir, `${basename(bundleFile, '.cjs')}-node${nodeVersion.replace(/^v/, '')}-${arch}.bin`);
}

/**
 * True when `dir` is ours alone: owned by this user and not writable by group or others.
 * Made (0700) when missing.
 */
export function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    const uid = process.getuid?.();
    return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** A code cache that differs only when V8's flags do. */
function flagProbe(): Buffer {
  return new Script('0', { filename: 'switchboard:flag-probe' }).createCachedData();
}

/** Writes the cache whole or not at all, then keeps the newest KEEP_FILES files. */
function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, file);
    pruneCache(dirname(file), KEEP_FILES);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** Removes all but the `keep` most recently written cache files of `dir`. */
export function pruneCache(dir: string, keep: number): void {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { path } of files.slice(keep)) rmSync(path, { force: true });
}

/**
 * Loads the bundle through Node's CommonJS loader (so `require.cache` holds it, and the
 * `switchboard/kernel` export a third-party plugin imports is this very instance), compiling
 * it with the cached bytecode when there is some. `started` writes the cache when there was
 * none or V8 refused it; the program calls it once started (serve: at its ready line), and
 * the process's exit calls it otherwise.
 */
export function loadProgram(bundleUrl: URL, env: NodeJS.ProcessEnv = process.env): Program & { started(): void } {
  const bundleFile = fileURLToPath(bundleUrl);
  const dir = codeCacheDir(env, homedir());
  const cacheFile = dir && privateDir(dir) ? codeCacheFile(dir, bundleFile, process.version, process.arch) : undefined;
  let script: Script | undefined;
  let needsWrite = false;
  // V8 refuses a cache made under other flags than its own at load. The program may change
  // flags once running (idle compaction, Cedar's workaround): a cache is written only while
  // they are still those of the start, which the cache of one tiny script tells (its bytes
  // record the flags, and nothing else of it changes).
  const flagsAtStart = flagProbe();
  const started = (): void => {
    if (!needsWrite || !script || !cacheFile) return;
    needsWrite = false;
    if (flagProbe().equals(flagsAtStart)) writeCache(cacheFile, script.createCachedData());
  };

  const proto = Module.prototype as unknown as { _compile: (this: Module, content: string, filename: string, ...rest: unknown[]) => unknown };
  const compile = proto._compile;
  proto._compile = function (this: Module, content: string, filename: string, ...rest: unknown[]): unknown {
    if (filename !== bundleFile) return compile.call(this, content, filename, ...rest);
    proto._compile = compile;
    let cachedData: Buffer | undefined;
    if (cacheFile) {
      try {
        cachedData = readFileSync(cacheFile);
      } catch {
        // No cache yet (or unreadable): compiled from source, and written once started.
      }
    }
    script = new Script(`(function (exports, require, module, __filename, __dirname, __switchboardImport) {${content}\n})`, { filename, cachedData });
    needsWrite = cachedData === undefined || script.cachedDataRejected === true;
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    // The bundle's import() calls (build-program.js): made here, outside the cached code.
    const importer = (specifier: string): Promise<unknown> => import(specifier);
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename), importer);
  };
  let program: Program;
  try {
    program = createRequire(bundleFile)(bundleFile) as Program;
  } finally {
    proto._compile = compile;
  }
  process.once('exit', started);
  return { main: (hooks) => program.main(hooks), started };
}
