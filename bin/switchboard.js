#!/usr/bin/env -S node --max-semi-space-size=4
// The published entry: the compiled CLI lives in dist/ (built by `npm run build`).
// --max-semi-space-size=4 caps V8's young generation at 3 x 4 MiB instead of 3 x 16 MiB when
// this file runs as a program; heap-settings.js keeps it from growing however the process was
// launched (`node bin/switchboard.js` skips the shebang), and comes first so it applies before
// the heap grows (docs/decisions.md, "Heap settings however launched"): main.js is imported
// only once it ran, since a static import would load and parse main's whole graph first.
import '../dist/app/cli/heap-settings.js';
import module from 'node:module';
import { readFileSync } from 'node:fs';
// Node 22.1 and later keep V8's compiled code of every module on disk (Node's own directory
// under the system temp dir; NODE_DISABLE_COMPILE_CACHE=1 switches it off), so a start
// compiles again only what changed; Node 20 has no such cache and skips this.
module.enableCompileCache?.();
// `npm run build` bundles the program (dist/bundle: a few files to read and compile instead of
// ~900) and then points the public kernel at the bundle's; a plain tsc since points it back at
// its own files. The program runs whichever kernel a third-party plugin would import
// (scripts/build-program.js).
let bundled = false;
try {
  bundled = readFileSync(new URL('../dist/kernel/public.js', import.meta.url), 'utf8').includes("from '../bundle/kernel.js'");
} catch {
  // dist/ built before public.js existed: tsc's files.
}
await import(bundled ? '../dist/bundle/main.js' : '../dist/app/cli/main.js');
