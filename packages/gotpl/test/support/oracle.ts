/**
 * The reference implementation: Go's own text/template compiled to WebAssembly
 * (@evertdespiegeleer/go-template), run with missingkey=error on JSON-decoded data.
 * Its wrapper reduces errors to a fragment of the message, so we call the global Render
 * function the WASM module installs and get Go's complete messages.
 */
import { compile, TemplateExecError, TemplateParseError } from '../../src/index.js';

export type Outcome =
  { readonly kind: 'ok'; readonly output: string } | { readonly kind: 'parse'; readonly message: string } | { readonly kind: 'exec'; readonly message: string };

type Render = (template: string, json: string) => string;

let render: Render | undefined;

/** Loads and starts the WASM module once (about 0.2 s). */
export async function loadOracle(): Promise<void> {
  if (render !== undefined) return;
  const mod = (await import('@evertdespiegeleer/go-template')) as { parse: (t: string, v: unknown) => Promise<string> };
  await mod.parse('', {});
  const fn = (globalThis as { Render?: Render }).Render;
  if (typeof fn !== 'function') throw new Error('go-template did not install globalThis.Render');
  render = fn;
}

const PARSE = 'Template parse error: ';
const EXEC = 'Template exec error: ';

/** Go's verdict. The template is named "tpl", as in the WASM module. */
export function runGo(template: string, data: unknown): Outcome {
  if (render === undefined) throw new Error('call loadOracle() first');
  const out = render(template, JSON.stringify(data));
  if (out.startsWith(PARSE)) return { kind: 'parse', message: out.slice(PARSE.length) };
  if (out.startsWith(EXEC)) return { kind: 'exec', message: out.slice(EXEC.length) };
  if (out.startsWith('JSON parse error:')) throw new Error(out);
  return { kind: 'ok', output: out };
}

/**
 * Our verdict, in the same shape. Our parse messages carry a column Go's lack
 * (`tpl:3:7:` vs `tpl:3:`); it is removed so the rest can be compared.
 */
export function runOurs(template: string, data: unknown): Outcome {
  try {
    return { kind: 'ok', output: compile(template, { name: 'tpl' }).render(data) };
  } catch (e) {
    if (e instanceof TemplateParseError) return { kind: 'parse', message: e.message.replace(/^(template: tpl:\d+):\d+:/, '$1:') };
    if (e instanceof TemplateExecError) return { kind: 'exec', message: e.message };
    throw e;
  }
}
