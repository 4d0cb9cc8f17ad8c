/**
 * SEP-2243 (MCP 2026-07-28, streamable HTTP): a tool may mark input properties with
 * `x-mcp-header: <Name>`, and a client then sends each such argument in an `Mcp-Param-<Name>`
 * header as well as in the body, so that proxies and load balancers can route on it. The
 * server checks the two agree (-32020 when they do not). The v2 SDK client adds the headers in
 * its high-level `callTool`, which Switchboard does not use (modern-upstream.ts relays results
 * unparsed), so the declarations are read here once per listed tool and the headers made per call.
 *
 * Only what a conforming client sends: a property reached from the schema's root through
 * `properties` alone, typed string, integer or boolean, named by an RFC 9110 token. Anything else
 * the server would reject as an invalid tool definition; no header is made for it.
 */

/** One marked property: where it is in the arguments, and the header that mirrors it. */
export interface ParamHeader {
  path: readonly string[];
  header: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** How deep a `properties` chain is followed: tools nest a few levels at most. */
const MAX_DEPTH = 8;
const SENTINEL = /^=\?base64\?.*\?=$/;

/** The marked properties of a tool's `inputSchema`, in schema order (none for most tools). */
export function paramHeadersOf(inputSchema: unknown): ParamHeader[] {
  const found: ParamHeader[] = [];
  const walk = (schema: unknown, path: string[]): void => {
    if (typeof schema !== 'object' || schema === null || path.length > MAX_DEPTH) return;
    const s = schema as { 'x-mcp-header'?: unknown; type?: unknown; properties?: unknown };
    const header = s['x-mcp-header'];
    if (path.length > 0 && typeof header === 'string' && TOKEN.test(header) && typeof s.type === 'string' && PRIMITIVE.has(s.type))
      found.push({ path, header });
    if (typeof s.properties === 'object' && s.properties !== null)
      for (const [key, child] of Object.entries(s.properties as Record<string, unknown>)) walk(child, [...path, key]);
  };
  walk(inputSchema, []);
  return found;
}

/**
 * A header field value as 2026-07-28 carries names and parameters: plain when it is printable
 * ASCII without surrounding spaces (and could not be mistaken for the sentinel), else
 * `=?base64?<UTF-8 in Base64>?=`.
 */
export function headerValue(value: string): string {
  const plain = value !== '' && /^[\x20-\x7e]*$/.test(value) && value.trim() === value && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The `Mcp-Param-*` headers of one call; an argument absent, null or not a primitive gets none. */
export function paramHeaders(marked: readonly ParamHeader[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of marked) {
    let value: unknown = args;
    for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    let text: string | undefined;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'boolean') text = String(value);
    // An integer beyond 2^53 has no exact text; the body carries it as the server parses it.
    else if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) text = String(value);
    if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = headerValue(text);
  }
  return headers;
}
