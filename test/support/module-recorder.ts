/**
 * Which modules a process loads, recorded by a loader hook given through NODE_OPTIONS, as an
 * operator could: every module URL loaded through import (ESM and the CommonJS it imports),
 * and every CommonJS file loaded by require (which Node 20's loader hooks do not see: what a
 * module requires on first use, as gotpl does re2js), written one a line to $MODULES_OUT
 * when the process exits. A file of the bundled program
 * (dist/bundle/, scripts/build-program.js) stands for the modules it holds: `loadedModules`
 * lists them beside it, so a test names the modules of ours and the packages it means.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './harness.js';

const RECORDER = `
import { createRequire, register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(
  'let port; export function initialize(d) { port = d.port; }' +
  'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }'
), { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => {
  for (const file of Object.keys(createRequire(process.execPath).cache)) seen.add(pathToFileURL(file).href);
  writeFileSync(process.env.MODULES_OUT, [...seen].join('\\n'));
});
`;

/** The environment that makes a node process record its modules into `out`. */
export function recordModules(out: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(RECORDER)}`, MODULES_OUT: out };
}

/** What the bundle's files hold (written by the build), by file name. */
async function bundleInputs(): Promise<Record<string, string[]>> {
  return JSON.parse(await readFile(join(ROOT, 'dist/bundle/inputs.json'), 'utf8')) as Record<string, string[]>;
}

/**
 * What the process recorded into `out`: `files`, the URLs it loaded, and `modules`, the same with
 * the URLs of the modules each bundle file holds after that file.
 */
export async function loadedModules(out: string): Promise<{ files: string[]; modules: string[] }> {
  const files = (await readFile(out, 'utf8')).split('\n');
  const bundle = `${pathToFileURL(join(ROOT, 'dist/bundle')).href}/`;
  if (!files.some((url) => url.startsWith(bundle))) return { files, modules: files };
  const inputs = await bundleInputs();
  const modules = files.flatMap((url) =>
    url.startsWith(bundle) ? [url, ...(inputs[url.slice(bundle.length)] ?? []).map((input) => pathToFileURL(join(ROOT, input)).href)] : [url],
  );
  return { files, modules };
}
