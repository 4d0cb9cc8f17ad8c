/**
 * Reads a word-vector file in fastText `.vec` or GloVe text format: one word and its numbers
 * per line, fastText's with a `<count> <dimension>` header line first. The file is the
 * operator's, but it may be huge or damaged, so reading is bounded: the file's size, the
 * dimension and the number of words kept (the first ones: both formats list the most frequent
 * words first, which is also what SIF's weights are estimated from). Lines that do not parse
 * (a GloVe word with a space in it, a stray blank) are skipped and counted, not fatal; a file
 * in which nothing parses is.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { EmbedderError } from '../../kernel/index.js';

export interface VectorLimits {
  maxFileBytes: number;
  maxDimension: number;
  maxWords: number;
}

export interface WordVectors {
  dimension: number;
  /** Row of each word (lower case; the first spelling of a word in the file wins). */
  rows: Map<string, number>;
  /** rows.size x dimension numbers, row-major. */
  data: Float32Array;
  /** Lines skipped because they did not parse. */
  skipped: number;
}

/** Refuses a file that is absent or too large before anything is read (startup and `switchboard check`). */
export async function checkVectorsFile(path: string, field: string, limits: VectorLimits): Promise<number> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new Error('not a file');
    size = s.size;
  } catch {
    throw new EmbedderError('model-invalid', `${field}: cannot read the vectors file '${path}'`);
  }
  if (size > limits.maxFileBytes) {
    throw new EmbedderError('model-invalid', `${field}: '${path}' is ${size} bytes, more than embedder.staticVectors.maxFileBytes (${limits.maxFileBytes})`);
  }
  return size;
}

class Builder {
  dimension = 0;
  readonly rows = new Map<string, number>();
  data = new Float32Array(0);
  skipped = 0;
  lineNo = 0;

  constructor(
    private readonly file: string,
    private readonly limits: VectorLimits,
  ) {}

  get full(): boolean {
    return this.rows.size >= this.limits.maxWords;
  }

  private setDimension(dim: number, expected?: number): void {
    if (dim > this.limits.maxDimension) {
      throw new EmbedderError(
        'model-invalid',
        `${this.file}: vectors of dimension ${dim}, more than embedder.staticVectors.maxDimension (${this.limits.maxDimension})`,
      );
    }
    this.dimension = dim;
    this.data = new Float32Array(Math.max(1, Math.min(expected ?? 1024, this.limits.maxWords)) * dim);
  }

  line(text: string): void {
    this.lineNo++;
    const fields = text.trimEnd().split(' ');
    if (this.lineNo === 1 && fields.length === 2 && /^\d+$/.test(fields[0]!) && /^\d+$/.test(fields[1]!)) {
      this.setDimension(Number(fields[1]), Number(fields[0]));
      return;
    }
    if (this.dimension === 0) {
      if (fields.length < 2) throw new EmbedderError('model-invalid', `${this.file}:${this.lineNo}: not a word followed by numbers`);
      this.setDimension(fields.length - 1);
    }
    if (fields.length !== this.dimension + 1) {
      this.skipped++;
      return;
    }
    const word = fields[0]!.toLowerCase();
    if (this.rows.has(word)) return;
    const row = this.rows.size;
    if ((row + 1) * this.dimension > this.data.length) {
      const grown = new Float32Array(Math.min(this.data.length * 2, this.limits.maxWords * this.dimension));
      grown.set(this.data);
      this.data = grown;
    }
    const base = row * this.dimension;
    for (let i = 0; i < this.dimension; i++) {
      const v = Number(fields[i + 1]);
      if (!Number.isFinite(v)) {
        this.skipped++;
        this.data.fill(0, base, base + this.dimension);
        return;
      }
      this.data[base + i] = v;
    }
    this.rows.set(word, row);
  }

  result(): WordVectors {
    if (this.rows.size === 0) throw new EmbedderError('model-invalid', `${this.file}: no word vectors in the file`);
    return { dimension: this.dimension, rows: this.rows, data: this.data.subarray(0, this.rows.size * this.dimension), skipped: this.skipped };
  }
}

/** Reads up to maxWords vectors; stops reading the file once it has them. */
export async function readVectorsFile(path: string, field: string, limits: VectorLimits): Promise<WordVectors> {
  await checkVectorsFile(path, field, limits);
  const builder = new Builder(path, limits);
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let rest = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest + chunk;
      let start = 0;
      for (let nl = text.indexOf('\n', start); nl >= 0 && !builder.full; nl = text.indexOf('\n', start)) {
        builder.line(text.slice(start, nl));
        start = nl + 1;
      }
      if (builder.full) break;
      rest = text.slice(start);
      // A "line" of megabytes is no vector line: refuse rather than buffer the whole file.
      if (rest.length > 64 * 1024 * (builder.dimension || 64)) throw new EmbedderError('model-invalid', `${path}:${builder.lineNo + 1}: line too long`);
    }
    if (!builder.full && rest.trim() !== '') builder.line(rest);
  } finally {
    stream.destroy();
  }
  return builder.result();
}
