/**
 * How deep a request body nests, read from its bytes before JSON.parse sees it.
 *
 * V8 parses deeply nested JSON about twenty times slower per byte than flat JSON: a 4 MiB body
 * of arrays nested a million deep held the event loop for about a second in JSON.parse alone
 * (a flat body of the same size: 50 ms), before any limit of Switchboard's could look at it
 * (a tool's arguments nest at most 64 deep). Only bodies over SCAN_FROM_BYTES are scanned: a
 * smaller one parses in milliseconds however it nests, and the scan stays off the hot path of
 * ordinary calls.
 */

/** Bodies up to this size are parsed without a scan (a 64 KiB body nested throughout: ~15 ms). */
export const SCAN_FROM_BYTES = 64 * 1024;

/** The deepest nesting a body may have: far above any message Switchboard reads (arguments: 64). */
export const MAX_BODY_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
/** `[`: a body that opens with one is a batch, which the transports may refuse whole (body.ts). */
export const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether `body` (JSON as UTF-8) opens more than `limit` objects and arrays inside one another.
 * Brackets inside strings are text, not nesting; a multi-byte UTF-8 character has no byte below
 * 0x80, so it is never mistaken for one. Not a validator: JSON.parse still judges the rest.
 */
export function nestsDeeperThan(body: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
  }
  return false;
}
