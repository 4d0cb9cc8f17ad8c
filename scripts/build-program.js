// The whole program bundled for `bin/switchboard.js` (docs/decisions.md, "The program bundled
// at build", "The program's code cache"): the entry scripts/program-entry.cjs (the CLI and the
// public kernel) with everything they import, packages included, as ONE CommonJS file,
// dist/bundle/program-<hash>.cjs. CommonJS because V8's code cache (app/cli/code-cache.ts) is
// offered for scripts only on Node 20; one file because esbuild splits ES modules only. What
// loads on demand (a plugin that is off, the OAuth server, cluster mode, a CLI command) is
// still only evaluated on demand: esbuild wraps each such module in a function run at its
// first import, and V8 compiles a function only when it first runs.
//
// The switch is dist/kernel/public.js, the package's `switchboard/kernel` export: tsc writes it
// as a re-export of dist/kernel/index.js, this step rewrites it to re-export the bundle, last,
// once the bundle is whole. bin/switchboard.js runs the bundle only when that file points at
// it, so a later plain `tsc` (which rewrites every file, public.js included) puts the program
// and a third-party plugin back on tsc's files together: one kernel in a process, whichever
// build ran last.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** How public.js names the bundle once this step made it; bin/switchboard.js reads the name from it. */
export const BUNDLED_KERNEL = /^const \{ kernel \} = createRequire\(import\.meta\.url\)\('\.\.\/bundle\/(program-[0-9a-f]+\.cjs)'\);$/m;

/**
 * Packages Node loads from node_modules: Cedar reads its .wasm beside its own code; the
 * Kubernetes client (about 9 MB of code and its own dependencies) loads only in a cluster;
 * OpenTelemetry's CommonJS modules, bundled, lose their exports (`PrometheusExporter is not a
 * constructor`), and load only with metrics on.
 */
const EXTERNAL = ['@cedar-policy/*', '@kubernetes/client-node', '@opentelemetry/*'];

/** The first line of the SDK's bundle (build-bundles.js): dropped, a CommonJS file has its own `require`. */
const REQUIRE_BANNER = "import { createRequire as bundledRequire } from 'node:module'; const require = bundledRequire(import.meta.url);";

/**
 * public.js re-exporting the bundle's kernel: the program's own instance (bin/switchboard.js
 * required the bundle before any plugin, and Node's require cache answers the same module
 * object), by name, as the kernel's own index exports them.
 */
async function publicKernel(dist, name) {
  const names = Object.keys(await import(pathToFileURL(join(dist, 'kernel/index.js')).href)).sort();
  return [
    '// Written by scripts/build-program.js: the kernel the bundled program runs.',
    "import { createRequire } from 'node:module';",
    `const { kernel } = createRequire(import.meta.url)('../bundle/${name}');`,
    `export const { ${names.join(', ')} } = kernel;`,
    '',
  ].join('\n');
}

/** True when public.js points at a bundle (no tsc ran since this step). */
export function programBundled(root) {
  try {
    return BUNDLED_KERNEL.test(readFileSync(join(root, 'dist/kernel/public.js'), 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Defines `__ownUrl(path)`, the file: URL of a path relative to the bundle's directory, and
 * `__dynamicImport(specifier)`: the loader's (code-cache.ts, which runs the bundle with a
 * `__switchboardImport` of its own) or, required plainly, Node's.
 */
const PRELUDE = [
  'const __ownUrl = (path) => require("node:url").pathToFileURL(require("node:path").join(__dirname, path)).href;',
  'const __dynamicImport = typeof __switchboardImport === "function" ? __switchboardImport : (specifier) => import(specifier);',
].join('\n');

/**
 * Every module keeps its own `import.meta.url` (which CommonJS has not): the URL of its file,
 * computed from the bundle's own directory, so the paths one of ours derives (the template
 * worker, the prebuilt validators, the package root) are those of an unbundled build, and a
 * package that finds a file beside its code would find it too.
 *
 * And every `import()` esbuild leaves in the bundle (of a package left to Node, of a Node
 * built-in, or of a computed specifier: a third-party plugin) calls `__dynamicImport`
 * instead: in Node 20 a function V8 restored from a code cache has lost what Node needs to
 * serve its `import()` ("A dynamic import callback was not specified"), so the import is
 * made by a function outside the cached code (app/cli/code-cache.ts).
 */
function ownUrls(bundleDir, ts) {
  return {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        if (text.startsWith(REQUIRE_BANNER)) text = text.slice(REQUIRE_BANNER.length);
        const own = `__ownUrl(${JSON.stringify(relative(bundleDir, args.path))})`;
        text = text.replaceAll('import.meta.url', own);
        if (text.includes('import(')) text = importsLeftToNode(ts, args.path, text);
        return { contents: text, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Is this `import()` argument one esbuild leaves to Node (not a module it bundles)? */
function leftToNode(argument, ts) {
  if (!argument || !ts.isStringLiteralLike(argument)) return true;
  const spec = argument.text;
  return (
    spec.startsWith('node:') ||
    EXTERNAL.some((pattern) => (pattern.endsWith('/*') ? spec.startsWith(pattern.slice(0, -1)) : spec === pattern || spec.startsWith(`${pattern}/`)))
  );
}

/** `text` with each `import(...)` left to Node calling `__dynamicImport(...)` (found by parsing, never in a string or comment). */
function importsLeftToNode(ts, file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const starts = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && leftToNode(node.arguments[0], ts)) {
      starts.push(node.expression.getStart(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const start of starts.reverse()) text = `${text.slice(0, start)}__dynamicImport${text.slice(start + 'import'.length)}`;
  return text;
}

/**
 * esbuild's helpers that run a wrapped module at its first import, made to note its name in a
 * set a process may provide (`globalThis[Symbol.for('switchboard.evaluatedModules')]`): how a
 * test, or an operator, sees which modules of the one file a start evaluated
 * (test/support/module-recorder.ts). Refused loudly if a new esbuild writes them otherwise.
 */
const HELPERS = [
  // var __esm = (fn, res) => function __init() { return fn && (res = ...
  [/(var __esm = \((\w+), res\) => function __init\(\) \{\n  return \2 && \()/, '$1__evaluated?.add(__getOwnPropNames($2)[0]), '],
  // var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[...
  [/(var __commonJS = \((\w+), (\w+)\) => function \w+\(\) \{\n  return \3 \|\| \()/, '$1__evaluated?.add(__getOwnPropNames($2)[0]), '],
];
const EVALUATED = "const __evaluated = globalThis[Symbol.for('switchboard.evaluatedModules')];";

/** The names of the modules esbuild wrapped (run at first import), from the bundle's text. */
function wrappedModules(text) {
  return [...text.matchAll(/__(?:esm|commonJS)\(\{\n\s+"([^"]+)"\(/g)].map((m) => m[1]);
}

/**
 * Bundles the program into dist/bundle/ and points public.js at it; answers false when it was
 * bundled already. The bundle is made in a directory beside it (the same depth, so the same
 * relative paths) and renamed into place: a start never sees half of one.
 */
export async function bundleProgram(root) {
  if (programBundled(root)) return false;
  const dist = join(root, 'dist');
  const final = join(dist, 'bundle');
  const making = join(dist, `.bundle-${process.pid}`);
  rmSync(making, { recursive: true, force: true });
  // Loaded here: build-if-stale.js asks programBundled() where esbuild may not be installed.
  const { build } = await import('esbuild');
  const { default: ts } = await import('typescript');
  const result = await build({
    entryPoints: [join(root, 'scripts/program-entry.cjs')],
    absWorkingDir: root,
    bundle: true,
    write: false,
    outfile: join(making, 'program.cjs'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownUrls(final, ts)],
    metafile: true,
    logLevel: 'warning',
  });
  // Strict, as the ES modules it is made of were: esbuild writes "use strict" only for some inputs.
  let text = `"use strict";\n${PRELUDE}\n${EVALUATED}\n${result.outputFiles[0].text.replace(/^"use strict";\n/, '')}`;
  for (const [helper, noting] of HELPERS) {
    if (!helper.test(text)) throw new Error(`build-program: esbuild's helper changed; cannot note evaluated modules (${helper})`);
    text = text.replace(helper, noting);
  }
  const name = `program-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.cjs`;
  // What the file holds: the modules it runs at every start, and those it runs on demand
  // (test/support/module-recorder.ts).
  const wrapped = wrappedModules(text);
  const lazy = new Set(wrapped);
  const inputs = Object.keys(Object.values(result.metafile.outputs)[0].inputs);
  const modules = { file: name, always: inputs.filter((input) => !lazy.has(input)), onDemand: wrapped };
  mkdirSync(making, { recursive: true });
  writeFileSync(join(making, name), text);
  writeFileSync(join(making, 'inputs.json'), `${JSON.stringify(modules, null, 1)}\n`);
  rmSync(final, { recursive: true, force: true });
  renameSync(making, final);
  const publicJs = join(dist, 'kernel/public.js');
  writeFileSync(`${publicJs}.${process.pid}`, await publicKernel(dist, name));
  renameSync(`${publicJs}.${process.pid}`, publicJs);
  rmSync(`${publicJs}.map`, { force: true }); // tsc's, of the file replaced
  return true;
}
