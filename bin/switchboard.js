#!/usr/bin/env -S node --max-semi-space-size=4
// The published entry: the compiled CLI lives in dist/ (built by `npm run build`).
// --max-semi-space-size=4 caps V8's young generation at 3 x 4 MiB instead of 3 x 16 MiB when
// this file runs as a program; heap-settings.js keeps it from growing however the process was
// launched (`node bin/switchboard.js` skips the shebang), and comes first so it applies before
// the heap grows (docs/decisions.md, "Heap settings however launched"): main.js is imported
// only once it ran, since a static import would load and parse main's whole graph first.
import '../dist/app/cli/heap-settings.js';
import module from 'node:module';
// Node 22.1 and later keep V8's compiled code of every module on disk (Node's own directory
// under the system temp dir; NODE_DISABLE_COMPILE_CACHE=1 switches it off), so a start
// compiles again only what changed; Node 20 has no such cache and skips this.
module.enableCompileCache?.();
await import('../dist/app/cli/main.js');
