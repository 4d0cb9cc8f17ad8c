#!/usr/bin/env node
// The published entry: the compiled CLI lives in dist/ (built by `npm run build`).
import '../dist/kernel/cli/main.js';
