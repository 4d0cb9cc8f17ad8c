#!/usr/bin/env -S node --max-semi-space-size=4
// The published entry: the compiled CLI lives in dist/ (built by `npm run build`).
// --max-semi-space-size=4 caps V8's young generation at 3 x 4 MiB instead of 3 x 16 MiB:
// loading thousands of tools grows it to the maximum and it is never given back, which was
// a quarter of the RSS (docs/decisions.md, "Footprint"). Launch with the same flag when
// running `node bin/switchboard.js` yourself (examples/quickstart/start.js does).
import '../dist/app/cli/main.js';
