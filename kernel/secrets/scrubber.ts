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
 * computed once, when the secret is added (secret-forms.ts). Whether a text holds any of
 * them is one `includes` per form for a few secrets, and past PATTERN_AFTER_FORMS one
 * precompiled pattern of them all (a scan per form grows with the count, the pattern barely:
 * on 2 KB without a secret, 1 secret 3.5 µs, 5 secrets 6 µs, 20 secrets 6 µs, where the raw
 * values alone took 2.2, 11 and 45 µs as one scan each); the replacing happens only when
 * something matched. Not caught: base64 wrapped across lines, other encodings, the secret split up.
 */
import type { CallToolResult } from '#mcp-sdk/types.js';
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

/** Forms beyond which one pattern finds them faster than a scan per form. */
const PATTERN_AFTER_FORMS = 24;

/** Whether a text holds any of the forms. */
type Finder = (text: string) => boolean;

function finder(forms: readonly string[]): Finder {
  if (forms.length <= PATTERN_AFTER_FORMS) return (text) => forms.some((f) => text.includes(f));
  const pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'));
  return (text) => pattern.test(text);
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
  /** Whether a text holds any form of any secret, plain or in JSON's escaping: whether there is anything to replace. */
  private inText: Finder = () => false;
  private inJson: Finder = () => false;

  get size(): number {
    return this.values.size;
  }

  add(value: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    this.ordered = [...this.values].sort((a, b) => b.length - a.length).map(known);
    this.inText = finder(this.ordered.flatMap((k) => k.text));
    this.inJson = finder(this.ordered.flatMap((k) => k.json));
  }

  scrubText(text: string): string {
    if (!this.inText(text)) return text;
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
    if (!this.inJson(json)) return value;
    let scrubbed = json;
    for (const s of this.ordered) scrubbed = replaceAll(scrubbed, s.json, REDACTED);
    return scrubbed === json ? value : (JSON.parse(scrubbed) as T);
  }

  /** A tool result: see scrubValue. */
  scrubResult(result: CallToolResult): CallToolResult {
    return this.scrubValue(result);
  }
}
