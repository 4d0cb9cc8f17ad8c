#!/usr/bin/env node
// The build's second step, after tsc: compiles the validators of schemas/ into
// dist/kernel/config/prebuilt/ so that a start loads them instead of compiling the schemas
// (kernel/config/prebuilt-validators.ts says why and what happens without them).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { writePrebuiltValidators } = await import('../dist/kernel/config/prebuild.js');
const started = performance.now();
const files = writePrebuiltValidators();
process.stderr.write(
  `build: ${files.length} schema validators prebuilt in ${Math.round(performance.now() - started)} ms (${files.map((f) => relative(root, f)).join(', ')})\n`,
);
