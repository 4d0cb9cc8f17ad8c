#!/usr/bin/env node
// The build's second step, after tsc: what every start would otherwise compute, computed once
// from tsc's output. The schema validators of schemas/ and of the built-in plugins' options
// (kernel/config/prebuilt-validators.ts), the validator of ajv's meta-schema
// (kernel/config/meta-schema-check.ts), the stemmed and inverted WordNet table
// (plugins/meta-tools/ranking/related.ts) and the English words' filter (english.ts beside it).
// Each file carries a fingerprint of what it was made from; a start ignores a missing or stale
// one and computes it as before, so a plain `tsc` build still runs, only slower to start.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { writePrebuiltValidators, writePrebuiltOptionValidators, writePrebuiltMetaSchemaValidator } = await import('../dist/kernel/config/prebuild.js');
const { BUILT_IN_PLUGINS } = await import('../dist/app/built-in-plugins.js');
const { writeInvertedTable } = await import('../dist/plugins/meta-tools/ranking/related.js');
const { writeEnglishFilter } = await import('../dist/plugins/meta-tools/ranking/english.js');
const started = performance.now();
const withOptions = [];
for (const b of BUILT_IN_PLUGINS) {
  const plugin = (await b.load()).default;
  if (plugin.optionsSchema) withOptions.push({ name: plugin.name, optionsSchema: plugin.optionsSchema });
}
const files = [
  ...writePrebuiltValidators(),
  ...writePrebuiltOptionValidators(withOptions),
  writePrebuiltMetaSchemaValidator(),
  await writeInvertedTable(),
  await writeEnglishFilter(),
];
process.stderr.write(
  `build: ${files.length} files prebuilt in ${Math.round(performance.now() - started)} ms (${files.map((f) => relative(root, f)).join(', ')})\n`,
);
