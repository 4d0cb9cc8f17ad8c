/**
 * What crosses between the engine and its template worker (template-isolation.ts,
 * template-thread.ts): a compiled value tree as plain data (template sources, not compiled
 * templates, which do not survive structured cloning), and the rendered value or the
 * template error's fields.
 */
import type { CompiledValue } from './templates.js';

export type WireValue =
  { k: 'l'; v: unknown } | { k: 't'; name: string; source: string; path: string } | { k: 'a'; i: WireValue[] } | { k: 'o'; e: [string, WireValue][] };

export interface RenderRequest {
  id: number;
  value: WireValue;
  data: unknown;
  limits: { maxIterations: number; maxOutputBytes: number; maxMilliseconds: number };
  setting: string;
  /**
   * A forEach's items: a list longer than this is refused anyway, so the worker answers its
   * length instead of the list (a 100,000-item list cost the main thread 10-50 ms to receive).
   */
  maxItems?: number;
}

interface Located {
  templateName: string;
  line: number;
  column: number;
  message: string;
  reason: string;
}

export type WireFailure =
  | ({ kind: 'budget'; limit: 'maxIterations' | 'maxOutputBytes' | 'maxMilliseconds'; value: number; setting: string } & Located)
  | ({ kind: 'exec'; context: string; executing: string } & Located)
  | { kind: 'internal'; message: string };

export type RenderReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: 'too-long'; length: number } | { id: number; ok: false; path: string; failure: WireFailure };

const wired = new WeakMap<CompiledValue, WireValue>();

/** The plain form of `cv`, made once per compiled value. */
export function toWire(cv: CompiledValue): WireValue {
  let w = wired.get(cv);
  if (w !== undefined) return w;
  switch (cv.kind) {
    case 'literal':
      w = { k: 'l', v: cv.value };
      break;
    case 'template':
      w = { k: 't', name: cv.template.name, source: cv.template.source, path: cv.path };
      break;
    case 'array':
      w = { k: 'a', i: cv.items.map(toWire) };
      break;
    case 'object':
      w = { k: 'o', e: cv.entries.map(([key, v]) => [key, toWire(v)]) };
      break;
  }
  wired.set(cv, w);
  return w;
}
