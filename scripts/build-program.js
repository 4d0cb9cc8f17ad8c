// The whole program bundled for `bin/switchboard.js` (docs/decisions.md, "The program bundled
// at build"): the entry `main` (the CLI, dist/app/cli/main.js) and the entry `kernel` (the
// public API, dist/kernel/index.js) with everything they import, packages included, in
// dist/bundle/. What loads only on demand (a plugin that is off, the OAuth server, cluster
// mode, a CLI command) stays behind its dynamic import, in a chunk of its own.
//
// The switch is dist/kernel/public.js, the package's `switchboard/kernel` export: tsc writes it
// as a re-export of dist/kernel/index.js, this step rewrites it to re-export the bundle's
// kernel, last, once the bundle is whole. bin/switchboard.js runs the bundle only when that
// file points at it, so a later plain `tsc` (which rewrites every file, public.js included)
// puts the program and a third-party plugin back on tsc's files together: one kernel in a
// process, whichever build ran last.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** What public.js says once this step made the bundle; bin/switchboard.js looks for it. */
export const BUNDLED_KERNEL = "export * from '../bundle/kernel.js';";

/**
 * Packages Node loads from node_modules: Cedar reads its .wasm beside its own code;
 * OpenTelemetry's CommonJS modules, bundled, lose their exports (`PrometheusExporter is not a
 * constructor`), and load only with metrics on. The Kubernetes client is bundled, in the lazy
 * chunk of the Kubernetes store: the store takes only its KubeConfig, and Node would load all
 * of it (its generated API, about 1,000 files) at 1.0 s of CPU per start, the bundle's
 * tree-shaken part at 0.25 s (docs/decisions.md, "The program bundled at build").
 */
const EXTERNAL = ['@cedar-policy/*', '@opentelemetry/*'];

/** The first line the SDK's bundle has (build-bundles.js): the program's bundle declares its own `require`. */
const REQUIRE_BANNER = "import { createRequire as bundledRequire } from 'node:module'; const require = bundledRequire(import.meta.url);";

/** True when public.js points at a bundle (no tsc ran since this step). */
export function programBundled(root) {
  try {
    return readFileSync(join(root, 'dist/kernel/public.js'), 'utf8').includes(BUNDLED_KERNEL);
  } catch {
    return false;
  }
}

/**
 * Every module keeps its own `import.meta.url`: the URL of its file, computed from the chunk's
 * own URL (every chunk sits in dist/bundle/), so the paths one of ours derives (the template
 * worker, the prebuilt validators, the package root) are those of an unbundled build, and a
 * package that finds a file beside its code would find it too.
 */
function ownUrls(bundleDir) {
  return {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        if (text.startsWith(REQUIRE_BANNER)) text = text.slice(REQUIRE_BANNER.length);
        const own = `new URL(${JSON.stringify(relative(bundleDir, args.path))}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', own), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * A large JSON file a package requires (mime-db's database of every media type, read by koa at
 * each start, in two versions) is written beside the chunks, compact, and read and parsed when
 * the package requires it, instead of becoming esbuild's object literal: V8 parses JSON several
 * times faster than the same data as code, and this one runs at every start. Read from its own
 * file rather than parsed from a string in the chunk, its text is garbage once parsed: a string
 * literal stays in the heap twice for the life of the process (in the chunk's source and in the
 * constant pool of the function that parsed it); mime-db's two copies, 0.6 MiB in all.
 */
const JSON_AS_TEXT_BYTES = 10_000;
function largeJsonParsed(outdir) {
  return {
    name: 'large-json-parsed',
    setup(b) {
      b.onLoad({ filter: /\.json$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (text.length < JSON_AS_TEXT_BYTES) return undefined;
        const compact = JSON.stringify(JSON.parse(text));
        const name = `data-${createHash('sha256').update(compact).digest('hex').slice(0, 12)}.json`;
        mkdirSync(outdir, { recursive: true });
        writeFileSync(join(outdir, name), compact);
        // Required at run time from beside the chunk (each chunk's own `require`).
        return { contents: `module.exports = require(${JSON.stringify(`./${name}`)});`, loader: 'js' };
      });
      b.onResolve({ filter: /^\.\/data-[0-9a-f]{12}\.json$/ }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * Bundles the program into dist/bundle/ and points public.js at it; answers false when it was
 * bundled already. The bundle is made in a directory beside it (the same depth, so the same
 * relative URLs) and renamed into place: a start never sees half of one.
 */
export async function bundleProgram(root) {
  if (programBundled(root)) return false;
  const dist = join(root, 'dist');
  const final = join(dist, 'bundle');
  const making = join(dist, `.bundle-${process.pid}`);
  rmSync(making, { recursive: true, force: true });
  // Loaded here: build-if-stale.js asks programBundled() where esbuild may not be installed.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { main: join(dist, 'app/cli/main.js'), kernel: join(dist, 'kernel/index.js') },
    absWorkingDir: root,
    outdir: making,
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownUrls(final), largeJsonParsed(making)],
    metafile: true,
    minifyWhitespace: true,
    logLevel: 'warning',
    // The CommonJS packages inside call require(); an ES module has none of its own.
    banner: { js: REQUIRE_BANNER },
  });
  // Which modules each file holds: what a start loaded, for the tests that list it
  // (test/support/module-recorder.ts).
  const inputs = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    inputs[relative(making, join(root, file))] = Object.keys(output.inputs); // relative to root (absWorkingDir)
  }
  writeFileSync(join(making, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
  rmSync(final, { recursive: true, force: true });
  renameSync(making, final);
  const publicJs = join(dist, 'kernel/public.js');
  writeFileSync(`${publicJs}.${process.pid}`, `// Written by scripts/build-program.js: the kernel the bundled program runs.\n${BUNDLED_KERNEL}\n`);
  renameSync(`${publicJs}.${process.pid}`, publicJs);
  rmSync(`${publicJs}.map`, { force: true }); // tsc's, of the file replaced
  return true;
}
