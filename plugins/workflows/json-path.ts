/**
 * The small JSONPath subset conditions use in `expect.json_path`: `$`, `.key`, `['key']`,
 * `[index]`, and bare dotted paths (`status.code`). Missing paths yield undefined.
 */
export function readJsonPath(value: unknown, path: string): unknown {
  let p = path.trim();
  if (p.startsWith('$')) p = p.slice(1);
  const segments: (string | number)[] = [];
  const re = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[['"]([^'"]*)['"]\]/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < p.length && (m = re.exec(p))) {
    segments.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]!));
  }
  if (re.lastIndex < p.length && p.length > 0) throw new Error(`json_path '${path}' is not understood near '${p.slice(re.lastIndex)}'`);
  let node: unknown = value;
  for (const s of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[s];
  }
  return node;
}

/** A value's text form, as a Go template would print it: strings as they are, the rest as JSON. */
function textForm(v: unknown): string {
  if (typeof v === 'string') return v;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify answers undefined for undefined, a function or a symbol, whatever its type says
  return JSON.stringify(v) ?? String(v);
}

/** Loose comparison (reference-behaviour.md §3): equal, or with the same text form (`3` matches `"3"`). */
export function looselyEqual(a: unknown, b: unknown): boolean {
  return deepEqual(a, b) || textForm(a) === textForm(b);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
