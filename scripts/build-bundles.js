#!/usr/bin/env node
// A build step after tsc: code Node would otherwise load file by file at every start, bundled
// by esbuild into a few files in place of tsc's output. A start is mostly Node's ES module
// loader reading and compiling one file after another (CONTRIBUTING.md, "What the suite
// costs"); the MCP SDK alone is ~180 of them (its zod 3 and 4, zod-to-json-schema): 0.31 s of
// CPU to import its server, 0.08 s bundled.
//
//   node scripts/build-bundles.js              the SDK, as Switchboard loads it (packages/mcp-sdk),
//                                              then the whole program (dist/bundle: build-program.js)
//   node scripts/build-bundles.js --fixtures   and the suite's most-started MCP server fixtures
//
// The SDK's and the fixtures' bundles import nothing of ours, so they are never older than code
// of ours they hold; tsc rewrites each file with its plain output at every build and this step
// bundles it again. The program's bundle holds our code: tsc switches it off by rewriting
// dist/kernel/public.js (build-program.js). A build without this step (a plain `tsc`) runs the
// same, only slower to start. docs/decisions.md: "The MCP SDK bundled at build", "The program
// bundled at build".
import { build, buildSync } from 'esbuild';
import { bundleProgram } from './build-program.js';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The reference MCP servers the suite runs over stdio (npm packages of the MCP project), each
 * bundled from node_modules into dist/test/reference-servers/<package>.js: the same code, one
 * file instead of the SDK's and their own read one by one (server-everything: 0.62 s of CPU to
 * load it; 53 places in the tests start it). test/support/harness.ts starts the bundle
 * when there is one (a build without --fixtures runs the packages as they are).
 */
const REFERENCE_SERVERS = ['server-everything', 'server-memory', 'server-filesystem', 'server-sequential-thinking'];

/** The suite's MCP server fixtures started most often (about 240 starts in one `npm test`). */
const FIXTURES = ['test-server', 'asking-server', 'task-server', 'oversized-tools-server', 'family-member', 'modern-server'];

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

// The first line of every file this step writes: how a second run knows there is nothing to do.
const BANNER = "import { createRequire as bundledRequire } from 'node:module'; const require = bundledRequire(import.meta.url);";

/**
 * Bundles each entry over itself, all but the `external` packages; with `splitting`, what
 * entries share goes to chunk files beside them (the old ones removed first). Answers false
 * when they were bundled already (this step run twice with no tsc between).
 */
function bundleInPlace(entryPoints, outdir, splitting, external) {
  const sources = entryPoints.map((file) => readFileSync(file, 'utf8'));
  const bundled = sources.filter((text) => text.startsWith(BANNER)).length;
  if (bundled === entryPoints.length) return false;
  if (bundled > 0) throw new Error(`${relative(root, outdir)}: some files are bundled, others not: run tsc, then this step`);
  sources.forEach((text, i) => {
    // Our own code inside a bundle could be left stale by a later tsc run, which rewrites only its own files.
    const ours = /^(?:import|export)\s[^;]*?from\s+'\.{1,2}\//m.exec(text);
    if (ours) throw new Error(`${relative(root, entryPoints[i])}: imports a module of ours (${ours[0]}...); only packages may be bundled`);
  });
  if (splitting) for (const chunk of readdirSync(outdir).filter((f) => f.startsWith('chunk-'))) rmSync(join(outdir, chunk));
  // tsc's source maps describe the files this step replaces.
  for (const file of entryPoints) rmSync(`${file}.map`, { force: true });
  buildSync({
    entryPoints,
    outdir,
    outbase: outdir,
    allowOverwrite: true,
    bundle: true,
    splitting,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    external,
    // The bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: BANNER },
  });
  return true;
}

/**
 * One reference server's package bundled into `out/<name>.js`. server-everything reads its docs
 * and server-memory its default file beside their own modules: each module's `import.meta.url`
 * stays the URL of its file in node_modules, written relative to the bundle so that a moved
 * checkout still finds it.
 */
async function bundleReferenceServer(name, out) {
  const pkg = join(root, 'node_modules', '@modelcontextprotocol', name);
  const outfile = join(out, `${name}.js`);
  // The bundle names the package's version in its banner: made from this one, nothing to do.
  const made = `// ${name}@${JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version}`;
  if (existsSync(outfile) && readFileSync(outfile, 'utf8').slice(0, 500).split('\n').includes(made)) return false;
  await build({
    entryPoints: [join(pkg, 'dist', 'index.js')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: `${BANNER}\n${made}` },
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.js$/ }, (args) => {
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return undefined;
            const own = `new URL(${JSON.stringify(relative(out, args.path).split(sep).join('/'))}, import.meta.url).href`;
            return { contents: text.replaceAll('import.meta.url', own), loader: 'js', resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  return true;
}

const started = performance.now();
const sdk = join(root, 'dist', 'packages', 'mcp-sdk');
const done = [];
const entries = [...files(sdk)].filter((f) => !f.slice(sdk.length + 1).startsWith('chunk-'));
// Switchboard's own schema validators load ajv from node_modules: one copy, not two.
if (bundleInPlace(entries, sdk, true, ['ajv', 'ajv-formats'])) done.push(`the MCP SDK (${entries.length} entry points)`);
if (process.argv.includes('--fixtures')) {
  const dir = join(root, 'dist', 'test', 'fixtures');
  // A fixture is a process of its own: ajv inside too (its ~60 CommonJS files read one by one
  // were a sixth of a fixture's start: 380 against 312 ms of CPU to answer tools/list).
  const bundled = FIXTURES.filter((name) => bundleInPlace([join(dir, `${name}.js`)], dir, false, []));
  if (bundled.length) done.push(`${bundled.length} test fixtures`);
}
if (process.argv.includes('--fixtures')) {
  const out = join(root, 'dist', 'test', 'reference-servers');
  const made = (await Promise.all(REFERENCE_SERVERS.map((name) => bundleReferenceServer(name, out)))).filter(Boolean).length;
  if (made) done.push(`${made} reference servers`);
}
// Last: the program's bundle holds the SDK's, and is what bin/switchboard.js runs (build-program.js).
if (await bundleProgram(root)) done.push('the program (dist/bundle)');
const ms = Math.round(performance.now() - started);
process.stderr.write(done.length ? `build: bundled ${done.join(' and ')} in ${ms} ms\n` : `build: bundles up to date (checked in ${ms} ms)\n`);
