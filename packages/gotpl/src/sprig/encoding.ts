/**
 * sprig's encodings and checksums: base64 and base32 (standard alphabets, padded; a
 * decoding error is returned as the text of Go's error, as sprig does), sha1sum,
 * sha256sum, sha512sum (hex) and adler32sum (decimal).
 */
import { createHash } from 'node:crypto';
import { utf8Bytes } from '../unicode.js';
import type { FunctionGroup } from './define.js';
import { fixed, S } from './define.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const decoder = new TextDecoder();

function decodeMap(alphabet: string): Int16Array {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
}
const B64_MAP = decodeMap(B64);
const B32_MAP = decodeMap(B32);
const PAD = 0x3d;

class CorruptInput extends Error {
  constructor(offset: number, encoding: string) {
    super(`illegal ${encoding} data at input byte ${offset}`);
  }
}

const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

/** encoding/base64's decodeQuantum loop (StdEncoding). */
function b64decode(s: string): string {
  const src = utf8Bytes(s);
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | null = null;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return decoder.decode(new Uint8Array(out));
        throw new CorruptInput(si - j, 'base64');
      }
      const c = src[si++]!;
      const v = B64_MAP[c]!;
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== PAD || j < 2) throw new CorruptInput(si - 1, 'base64');
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw new CorruptInput(src.length, 'base64');
        if (src[si] !== PAD) throw new CorruptInput(si - 1, 'base64');
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 255, (val >> 8) & 255, val & 255];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing !== null) throw new CorruptInput(trailing, 'base64');
  }
  return decoder.decode(new Uint8Array(out));
}

/** encoding/base32's decode (StdEncoding), after DecodeString strips newlines. */
function b32decode(s: string): string {
  const src = utf8Bytes(s).filter((b) => !isNewline(b));
  const olen = src.length;
  const out: number[] = [];
  let p = 0;
  let end = false;
  while (p < olen && !end) {
    const dbuf = new Array<number>(8).fill(0);
    let dlen = 8;
    for (let j = 0; j < 8;) {
      if (p === olen) throw new CorruptInput(olen - (olen - p) - j, 'base32');
      const c = src[p++]!;
      const left = olen - p;
      if (c === PAD && j >= 2 && left < 8) {
        if (left + j < 7) throw new CorruptInput(olen, 'base32');
        for (let k = 0; k < 7 - j; k++) if (left > k && src[p + k] !== PAD) throw new CorruptInput(olen - left + k - 1, 'base32');
        dlen = j;
        end = true;
        if (dlen === 1 || dlen === 3 || dlen === 6) throw new CorruptInput(olen - left - 1, 'base32');
        break;
      }
      const v = B32_MAP[c]!;
      if (v < 0) throw new CorruptInput(olen - left - 1, 'base32');
      dbuf[j++] = v;
    }
    const [a, b, c, d, e, f, g, h] = dbuf as [number, number, number, number, number, number, number, number];
    const bytes = [
      ((a << 3) | (b >> 2)) & 255,
      ((b << 6) | (c << 1) | (d >> 4)) & 255,
      ((d << 4) | (e >> 1)) & 255,
      ((e << 7) | (f << 2) | (g >> 3)) & 255,
      ((g << 5) | h) & 255,
    ];
    // Bytes decoded from 8, 7, 5, 4 or 2 characters (other counts were refused above).
    const n = [0, 0, 1, 0, 2, 3, 0, 4, 5][dlen]!;
    out.push(...bytes.slice(0, n));
  }
  return decoder.decode(new Uint8Array(out));
}

function b32encode(s: string): string {
  const bytes = utf8Bytes(s);
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    const chunk = bytes.subarray(i, i + 5);
    let bits = 0n;
    for (let k = 0; k < 5; k++) bits = (bits << 8n) | BigInt(chunk[k] ?? 0);
    const chars = [2, 4, 5, 7, 8][chunk.length - 1]!;
    for (let k = 0; k < 8; k++) out += k < chars ? B32[Number((bits >> BigInt(35 - 5 * k)) & 31n)]! : '=';
  }
  return out;
}

function adler32(s: string): number {
  let a = 1;
  let b = 0;
  for (const byte of utf8Bytes(s)) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return (b * 65536 + a) >>> 0;
}

const hash = (algorithm: string) => (a: unknown[]) =>
  createHash(algorithm)
    .update(a[0] as string, 'utf8')
    .digest('hex');

/** The decoders answer Go's error text instead of failing, as sprig's do. */
function orErrorText(decode: (s: string) => string) {
  return (a: unknown[]): string => {
    try {
      return decode(a[0] as string);
    } catch (e) {
      if (e instanceof CorruptInput) return e.message;
      throw e;
    }
  };
}

export const ENCODING: FunctionGroup = {
  b64enc: fixed([S], (a) => Buffer.from(a[0] as string, 'utf8').toString('base64')),
  b64dec: fixed([S], orErrorText(b64decode)),
  b32enc: fixed([S], (a) => b32encode(a[0] as string)),
  b32dec: fixed([S], orErrorText(b32decode)),
  sha1sum: fixed([S], hash('sha1')),
  sha256sum: fixed([S], hash('sha256')),
  sha512sum: fixed([S], hash('sha512')),
  adler32sum: fixed([S], (a) => String(adler32(a[0] as string))),
};
