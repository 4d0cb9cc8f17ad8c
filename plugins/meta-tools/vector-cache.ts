/**
 * Tool vectors kept on disk, so a restart (or a server reconnecting) does not embed every tool
 * again: for a remote model that is minutes and money at ten thousand tools. One file per
 * model under `<config>/state/embeddings/`, keyed by the model id; each vector under the hash
 * of the model id and the text embedded (a tool's name and description), so a changed
 * description is a new key and a renamed model a new file. Written whole, atomically, only
 * when new vectors were made; bounded in vectors and bytes (current tools first, then the
 * most recent others). A file that does not parse is ignored (the vectors are made again).
 *
 * Format: one JSON header line `{"format","modelId","dimension","count"}`, then `count`
 * records of a 16-byte key and `dimension` little-endian float32s.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE, writeFileAtomic } from '../../lib/files/atomic-write.js';

const FORMAT = 'switchboard-vectors/1';
const KEY_BYTES = 16;
/** Bounds of one cache file: whichever is reached first. */
export const MAX_CACHED_VECTORS = 100_000;
export const MAX_CACHE_BYTES = 256 * 1024 * 1024;

/** The cache key of a text embedded by a model: hex of the first 16 bytes of sha256(modelId, text). */
export function vectorKey(modelId: string, text: string): string {
  return createHash('sha256')
    .update(modelId)
    .update('\0')
    .update(text)
    .digest('hex')
    .slice(0, KEY_BYTES * 2);
}

export class VectorCache {
  private readonly file: string;

  constructor(
    dir: string,
    private readonly modelId: string,
  ) {
    this.file = join(dir, `${createHash('sha256').update(modelId).digest('hex').slice(0, 16)}.bin`);
  }

  get path(): string {
    return this.file;
  }

  /** Every vector in the file, by key; empty when there is no (valid) file. */
  async read(): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    let buf: Buffer;
    try {
      buf = await readFile(this.file);
    } catch {
      return out;
    }
    const nl = buf.indexOf(10);
    if (nl < 0 || nl > 4096) return out;
    let header: { format?: unknown; modelId?: unknown; dimension?: unknown; count?: unknown };
    try {
      header = JSON.parse(buf.subarray(0, nl).toString('utf8')) as typeof header;
    } catch {
      return out;
    }
    const { dimension, count } = header;
    if (header.format !== FORMAT || header.modelId !== this.modelId || typeof dimension !== 'number' || typeof count !== 'number') return out;
    if (!Number.isInteger(dimension) || dimension < 1 || !Number.isInteger(count) || count < 0) return out;
    const record = KEY_BYTES + 4 * dimension;
    if (buf.length !== nl + 1 + count * record) return out;
    for (let i = 0, at = nl + 1; i < count; i++, at += record) {
      const key = buf.toString('hex', at, at + KEY_BYTES);
      const v = new Float32Array(dimension);
      for (let d = 0; d < dimension; d++) v[d] = buf.readFloatLE(at + KEY_BYTES + 4 * d);
      out.set(key, v);
    }
    return out;
  }

  /** Writes `vectors` (in priority order: the first are kept when the bounds cut) atomically. */
  async write(vectors: Iterable<[string, Float32Array]>, dimension: number): Promise<number> {
    const record = KEY_BYTES + 4 * dimension;
    const max = Math.min(MAX_CACHED_VECTORS, Math.floor(MAX_CACHE_BYTES / record));
    const kept: [string, Float32Array][] = [];
    for (const entry of vectors) {
      if (kept.length >= max) break;
      if (entry[1].length === dimension) kept.push(entry);
    }
    const header = Buffer.from(`${JSON.stringify({ format: FORMAT, modelId: this.modelId, dimension, count: kept.length })}\n`, 'utf8');
    const buf = Buffer.alloc(header.length + kept.length * record);
    header.copy(buf, 0);
    let at = header.length;
    for (const [key, v] of kept) {
      buf.write(key, at, KEY_BYTES, 'hex');
      for (let d = 0; d < dimension; d++) buf.writeFloatLE(v[d]!, at + KEY_BYTES + 4 * d);
      at += record;
    }
    await writeFileAtomic(this.file, buf, { durable: false, mode: PRIVATE_FILE });
    return kept.length;
  }
}
