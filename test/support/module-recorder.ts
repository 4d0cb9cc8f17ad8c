/**
 * Which modules a process loads, recorded by a loader hook given through NODE_OPTIONS, as an
 * operator could: every module URL loaded through import (ESM and the CommonJS it imports),
 * and the modules of the bundled program (dist/bundle/program-*.cjs, scripts/build-program.js)
 * it evaluated, which the bundle notes in a set the hook provides; written one a line to
 * $MODULES_OUT when the process exits. `loadedModules` names the bundle's modules as the files
 * of dist/ and node_modules/ they were built from, so a test names the modules of ours and
 * the packages it means, bundled or not.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './harness.js';

const RECORDER = `
import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = new Set();
const evaluated = new Set();
globalThis[Symbol.for('switchboard.evaluatedModules')] = evaluated;
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(
  'let port; export function initialize(d) { port = d.port; }' +
  'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }'
), { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => writeFileSync(process.env.MODULES_OUT, [...seen, ...[...evaluated].map((m) => 'bundled:' + m)].join('\\n')));
`;

/** The environment that makes a node process record its modules into `out`. */
export function recordModules(out: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(RECORDER)}`, MODULES_OUT: out };
}

/** What the bundle holds (written by the build): the modules it runs at every start, and those it runs on demand. */
interface BundleInputs {
  file: string;
  always: string[];
  onDemand: string[];
}

/**
 * What the process recorded into `out`: `files`, the URLs it loaded, and `modules`, the same with
 * the bundle's modules it evaluated (when it ran the bundle: `bundled` true) as file URLs.
 */
export async function loadedModules(out: string): Promise<{ files: string[]; modules: string[]; bundled: boolean }> {
  const lines = (await readFile(out, 'utf8')).split('\n');
  const files = lines.filter((line) => !line.startsWith('bundled:'));
  const evaluated = lines.filter((line) => line.startsWith('bundled:')).map((line) => line.slice('bundled:'.length));
  if (evaluated.length === 0) return { files, modules: files, bundled: false };
  const inputs = JSON.parse(await readFile(join(ROOT, 'dist/bundle/inputs.json'), 'utf8')) as BundleInputs;
  const url = (input: string): string => pathToFileURL(join(ROOT, input)).href;
  return { files, modules: [...files, ...inputs.always.map(url), ...evaluated.map(url)], bundled: true };
}
