#!/usr/bin/env node
// `npm start` and `npm pack` build only when a source changed since the last build. The emit
// (scripts/emit.js) writes one .js per .ts, so dist/ is current when every source is older
// than its own output and tsconfig.json is older than all of them. Timestamps, not hashes:
// checking costs a few milliseconds of stat calls. A source deleted since the build leaves its
// output behind, exactly as a plain `tsc` does. The build's later steps run after the emit
// (scripts/build-bundles.js, scripts/build-prebuilt.js: schema validators, the stemmed WordNet
// table). No type-check here: `npm run build` and `npm test` make it; a start needs only the
// JavaScript.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typescriptProject } from './emit.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const project = typescriptProject(root);
const { tsconfig, outDir } = project;

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The first reason the emit's output is out of date, or undefined when it is current. */
function staleness() {
  const configTime = mtime(tsconfig);
  for (const source of project.files) {
    const output = join(outDir, relative(project.rootDir, source)).replace(/\.ts$/, '.js');
    const built = mtime(output);
    if (built === undefined) return `${relative(root, output)} is missing`;
    if (mtime(source) > built) return `${relative(root, source)} changed`;
    if (configTime > built) return 'tsconfig.json changed';
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
  // The first line build-bundles.js writes; the emit's re-export has none.
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
  process.stderr.write(`build: ${reason}; emitting\n`);
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'emit.js')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  process.stderr.write(`build: ${prebuiltReason}\n`);
}
// The emit ran, or only a later step's output is out of date: the later steps run (they are
// cheap, and each does nothing when its output is current).
for (const step of [BUNDLE, PREBUILD]) {
  if (mtime(step) === undefined) continue;
  const result = spawnSync(process.execPath, [step], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
