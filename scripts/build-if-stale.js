#!/usr/bin/env node
// `npm start` and `npm pack` build only when a source changed since the last build: a full
// tsc run costs 9-13 s (a minute on a loaded machine) and `npm start` used to pay it on every
// start. tsc emits one .js per .ts, so dist/ is current when every source is older than its
// own output and tsconfig.json is older than all of them. Timestamps, not hashes: checking
// costs a few milliseconds of stat calls. A source deleted since the build leaves its output
// behind, exactly as a plain `tsc` does. The build's second step runs after tsc
// (scripts/build-prebuilt.js: schema validators, the stemmed WordNet table).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsconfig = join(root, 'tsconfig.json');
const config = JSON.parse(readFileSync(tsconfig, 'utf8'));
const outDir = join(root, config.compilerOptions.outDir);

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function* sources(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // an `include` folder that does not exist holds nothing to build
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** The first reason tsc's output is out of date, or undefined when it is current. */
function staleness() {
  const configTime = mtime(tsconfig);
  for (const dir of config.include) {
    for (const source of sources(join(root, dir))) {
      const output = join(outDir, relative(root, source)).replace(/\.ts$/, '.js');
      const built = mtime(output);
      if (built === undefined) return `${relative(root, output)} is missing`;
      if (mtime(source) > built) return `${relative(root, source)} changed`;
      if (configTime > built) return 'tsconfig.json changed';
    }
  }
  return undefined;
}

/** The build's later steps, in a project that has them. */
const BUNDLE = join(root, 'scripts', 'build-bundles.js');
const PREBUILD = join(root, 'scripts', 'build-prebuilt.js');

/** Why a bundle (scripts/build-bundles.js) is out of date: not made, or the SDK's older than the SDK installed. */
async function bundleStaleness() {
  if (mtime(BUNDLE) === undefined) return undefined;
  const { programBundled } = await import('./build-program.js');
  const entry = join(outDir, 'packages/mcp-sdk/types.js');
  const built = mtime(entry);
  // The first line build-bundles.js writes; tsc's re-export has none.
  if (built === undefined || !readFileSync(entry, 'utf8').startsWith('import { createRequire as bundledRequire }')) return 'the MCP SDK is not bundled';
  const sdk = mtime(join(root, 'node_modules/@modelcontextprotocol/sdk/package.json'));
  if (sdk !== undefined && sdk > built) return 'the MCP SDK installed is newer than its bundle';
  if (!programBundled(root)) return 'the program is not bundled';
  return undefined;
}

/** The first reason what PREBUILD writes is out of date (missing, or older than what it is made from). */
function prebuiltStaleness() {
  if (mtime(PREBUILD) === undefined) return undefined;
  for (const name of readdirSync(join(root, 'schemas'))) {
    const built = mtime(join(outDir, 'kernel/config/prebuilt', name.replace(/\.schema\.json$/, '.cjs')));
    if (built === undefined || mtime(join(root, 'schemas', name)) > built) return `the validator of schemas/${name} is not prebuilt`;
  }
  const words = 'plugins/meta-tools/ranking/related-words.txt';
  const stemmed = mtime(join(outDir, 'plugins/meta-tools/ranking/related-inverted.txt'));
  if (stemmed === undefined || mtime(join(root, words)) > stemmed) return `${words} is not stemmed`;
  const english = 'plugins/meta-tools/ranking/english-words.txt';
  const filter = mtime(join(outDir, 'plugins/meta-tools/ranking/english-words.bloom'));
  if (filter === undefined || mtime(join(root, english)) > filter) return `${english} has no filter built`;
  return undefined;
}

const started = performance.now();
const reason = staleness();
const prebuiltReason = reason === undefined ? ((await bundleStaleness()) ?? prebuiltStaleness()) : undefined;
if (reason === undefined && prebuiltReason === undefined) {
  process.stderr.write(`build: dist/ is up to date (checked in ${Math.round(performance.now() - started)} ms)\n`);
  process.exit(0);
}
if (reason !== undefined) {
  process.stderr.write(`build: ${reason}; running tsc\n`);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', tsconfig], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  process.stderr.write(`build: ${prebuiltReason}\n`);
}
// tsc ran, or only a later step's output is out of date: the later steps run (they are cheap,
// and each does nothing when its output is current).
for (const step of [BUNDLE, PREBUILD]) {
  if (mtime(step) === undefined) continue;
  const result = spawnSync(process.execPath, [step], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
