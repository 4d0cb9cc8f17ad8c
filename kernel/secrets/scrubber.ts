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
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REDACTED } from './redact.js';

/** Shorter values are too likely to occur by chance (`1`, `true`, `debug`) to scrub. */
export const MIN_SECRET_LENGTH = 8;

interface Known {
  raw: string;
  /** As it appears inside a JSON string (quotes and backslashes escaped). */
  json: string;
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
    this.ordered = [...this.values].sort((a, b) => b.length - a.length).map((raw) => ({ raw, json: JSON.stringify(raw).slice(1, -1) }));
  }

  scrubText(text: string): string {
    let out = text;
    for (const s of this.ordered) if (out.includes(s.raw)) out = out.split(s.raw).join(REDACTED);
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
    for (const s of this.ordered) {
      const encoded = encode(s.raw);
      if (out.includes(encoded)) out = out.split(encoded).join(redacted);
    }
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
    for (const s of this.ordered) if (scrubbed.includes(s.json)) scrubbed = scrubbed.split(s.json).join(REDACTED);
    return scrubbed === json ? value : (JSON.parse(scrubbed) as T);
  }

  /** A tool result: see scrubValue. */
  scrubResult(result: CallToolResult): CallToolResult {
    return this.scrubValue(result);
  }
}
