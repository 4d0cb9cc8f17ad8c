/**
 * The last line of defence: values Switchboard knows to be secret (resolved references,
 * header values, env values under secret-looking names) are replaced by `<redacted>` in
 * every log line and in every tool result that passes through, so an upstream that echoes
 * its environment or a message that quotes a header cannot leak them.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REDACTED } from './redact.js';

/** Shorter values are too likely to occur by chance (`1`, `true`, `debug`) to scrub. */
export const MIN_SECRET_LENGTH = 8;

export class SecretScrubber {
  private readonly values = new Set<string>();
  /** Longest first, so a secret that contains another is replaced whole. */
  private ordered: string[] = [];

  get size(): number {
    return this.values.size;
  }

  add(value: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    this.ordered = [...this.values].sort((a, b) => b.length - a.length);
  }

  scrubText(text: string): string {
    let out = text;
    for (const s of this.ordered) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }

  /** The result unchanged (same object) when it holds no known secret; else a scrubbed copy. */
  scrubResult(result: CallToolResult): CallToolResult {
    if (this.ordered.length === 0) return result;
    const json = JSON.stringify(result);
    let scrubbed = json;
    for (const s of this.ordered) {
      // Compare in JSON's escaping, so a secret with quotes or backslashes is still found.
      const escaped = JSON.stringify(s).slice(1, -1);
      if (scrubbed.includes(escaped)) scrubbed = scrubbed.split(escaped).join(REDACTED);
    }
    return scrubbed === json ? result : (JSON.parse(scrubbed) as CallToolResult);
  }
}
