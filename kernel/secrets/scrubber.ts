/**
 * The last line of defence: values Switchboard knows to be secret are replaced by
 * `<redacted>` wherever upstream content leaves Switchboard (log lines, tool results, errors,
 * descriptions, resources, prompts, notifications, the event log, execution records, admin
 * pages), so an upstream that echoes its environment or a message that quotes a header
 * cannot leak them.
 *
 * Whose values count is decided by whoever feeds `add` (plugins/upstreams/resolved-secrets.ts
 * and Switchboard's own credentials): only the operator's. A caller who could add strings
 * here could blank out ordinary text in every other session's results.
 *
 * An upstream that encodes a secret before giving it away (a Basic header, a JWT-style
 * segment, a hex dump, a URL) is caught too: each secret is also looked for as its base64
 * (standard and URL-safe, at each of the three byte alignments it can have inside a longer
 * encoded text), its hex (lower and upper case) and its percent-encoding. Those forms are
 * computed once, when the secret is added (secret-forms.ts); a scrub only looks for more
 * strings. Not caught: base64 wrapped across lines, other encodings, the secret split up.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REDACTED } from './redact.js';
import { encodedForms } from './secret-forms.js';

/** Shorter values are too likely to occur by chance (`1`, `true`, `debug`) to scrub. */
export const MIN_SECRET_LENGTH = 8;

interface Known {
  /** The value, then its encoded forms: what plain text is searched for. */
  text: readonly string[];
  /** The same, as they appear inside a JSON string (quotes and backslashes escaped). */
  json: readonly string[];
}

function known(raw: string): Known {
  const text = [raw, ...encodedForms(raw)];
  return { text, json: text.map((t) => JSON.stringify(t).slice(1, -1)) };
}

/** `text` with every occurrence of each of `forms` replaced by `by`. */
function replaceAll(text: string, forms: readonly string[], by: string): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(by);
  return out;
}

export class SecretScrubber {
  private readonly values = new Set<string>();
  /** Longest first, so a secret that contains another is replaced whole. */
  private ordered: Known[] = [];

  get size(): number {
    return this.values.size;
  }

  add(value: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    this.ordered = [...this.values].sort((a, b) => b.length - a.length).map(known);
  }

  scrubText(text: string): string {
    let out = text;
    for (const s of this.ordered) out = replaceAll(out, s.text, REDACTED);
    return out;
  }

  /**
   * Text in some encoding (HTML, say): each secret is looked for as `encode` writes it and
   * replaced by the encoded `<redacted>`, so the replacement reads right in that encoding too.
   */
  scrubEncoded(text: string, encode: (plain: string) => string): string {
    if (this.ordered.length === 0) return text;
    const redacted = encode(REDACTED);
    let out = text;
    for (const s of this.ordered) out = replaceAll(out, s.text.map(encode), redacted);
    return out;
  }

  /**
   * Any JSON value: unchanged (the same object) when it holds no known secret, else a
   * scrubbed copy. Compared in JSON's escaping, so a secret with quotes or backslashes is
   * found and replaced without breaking the JSON around it.
   */
  scrubValue<T>(value: T): T {
    if (this.ordered.length === 0 || value === null || value === undefined) return value;
    if (typeof value === 'string') return this.scrubText(value) as T;
    if (typeof value !== 'object') return value;
    const json = JSON.stringify(value);
    let scrubbed = json;
    for (const s of this.ordered) scrubbed = replaceAll(scrubbed, s.json, REDACTED);
    return scrubbed === json ? value : (JSON.parse(scrubbed) as T);
  }

  /** A tool result: see scrubValue. */
  scrubResult(result: CallToolResult): CallToolResult {
    return this.scrubValue(result);
  }
}
