#!/usr/bin/env -S node --max-semi-space-size=4
// The published entry: the compiled CLI lives in dist/ (built by `npm run build`).
// --max-semi-space-size=4 caps V8's young generation at 3 x 4 MiB instead of 3 x 16 MiB when
// this file runs as a program; heap-settings.js keeps it from growing however the process was
// launched (`node bin/switchboard.js` skips the shebang), and comes first so it applies before
// the heap grows (docs/decisions.md, "Heap settings however launched"): main.js is imported
// only once it ran, since a static import would load and parse main's whole graph first.
import '../dist/app/cli/heap-settings.js';
await import('../dist/app/cli/main.js');
