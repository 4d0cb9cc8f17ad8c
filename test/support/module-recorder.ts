/**
 * Which modules a process loads, recorded by a loader hook given through NODE_OPTIONS, as an
 * operator could: every module URL loaded through import (ESM and the CommonJS it imports),
 * written one a line to $MODULES_OUT when the process exits.
 */
const RECORDER = `
import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(
  'let port; export function initialize(d) { port = d.port; }' +
  'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }'
), { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => writeFileSync(process.env.MODULES_OUT, [...seen].join('\\n')));
`;

/** The environment that makes a node process record its modules into `out`. */
export function recordModules(out: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(RECORDER)}`, MODULES_OUT: out };
}
