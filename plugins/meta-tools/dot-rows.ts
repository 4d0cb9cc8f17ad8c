/**
 * Tool vectors laid out for the hybrid query's hot loop: a matrix of rows in WebAssembly
 * memory, and one call that takes the dot product of a query with every row in SIMD (f32x4).
 *
 * Why: a hybrid query is tools x dimension multiply-adds. In JavaScript (four running sums over
 * Float32Arrays) 10,000 rows of 300 took 6.1 ms on the two-core machine, over the 5 ms target;
 * in WebAssembly SIMD 0.78 ms. The module is the 263 bytes below, written as text in
 * dot-rows.wat beside this file; test/unit/dot-rows.test.ts assembles that text with wabt and
 * fails unless it gives these bytes, and checks the products against plain arithmetic.
 *
 * Rows are padded with zeros to a multiple of 8 floats (the module takes 8 a step), which adds
 * nothing to a product. Sums are in float32, as the vectors are: they differ from a float64 sum
 * in the seventh digit, far below any difference ranking acts on.
 */

const MODULE_BASE64 =
  'AGFzbQEAAAABCQFgBX9/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcIAQRzY2FuAAAK0gEBzwECA38CeyADQQJ0IQcCQANAIAUgAk8NAf0MAAAAAAAAAAAAAAAAAAAAACEI/QwAAAAAAAAAAAAAAAAAAAAAIQlBACEGAkADQCAGIAdPDQEgCCAAIAZq/QAEACABIAZq/QAEAP3mAf3kASEIIAkgACAGav0ABBAgASAGav0ABBD95gH95AEhCSAGQSBqIQYMAAsLIAggCf3kASEIIAQgBUECdGogCP0fACAI/R8BkiAI/R8CIAj9HwOSkjgCACABIAdqIQEgBUEBaiEFDAALCws=';

/** The module's bytes (exported for the test that checks them against dot-rows.wat). */
export const DOT_ROWS_WASM: Uint8Array = Uint8Array.from(Buffer.from(MODULE_BASE64, 'base64'));

type Scan = (query: number, rows: number, count: number, stride: number, out: number) => void;

/**
 * The part of Node's global WebAssembly used here: @types/node does not declare it (it comes
 * with TypeScript's DOM library, which a server does not load).
 */
interface WasmModule {
  readonly kind?: 'module';
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { readonly exports: Record<string, unknown> };
};

let compiled: WasmModule | undefined;

/** Compiled once per process, at the first matrix (a process without an embedder never does). */
function dotModule(): WasmModule {
  return (compiled ??= new WebAssembly.Module(DOT_ROWS_WASM));
}

const PAGE = 65_536;
const FLOAT = 4;

export class DotRows {
  /** Floats from one row's start to the next's: the dimension rounded up to a multiple of 8. */
  readonly stride: number;
  private readonly query: Float32Array;
  private readonly scores: Float32Array;
  private readonly data: Float32Array;
  private readonly scanAll: Scan;

  constructor(
    readonly count: number,
    readonly dimension: number,
  ) {
    this.stride = Math.ceil(dimension / 8) * 8;
    // The query, then the scores (padded to 16 bytes), then the rows: offsets the module reads in place.
    const queryBytes = this.stride * FLOAT;
    const scoresBytes = Math.ceil((count * FLOAT) / 16) * 16;
    const bytes = queryBytes + scoresBytes + count * this.stride * FLOAT;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
    const instance = new WebAssembly.Instance(dotModule(), { env: { memory } });
    this.scanAll = instance.exports.scan as Scan;
    this.query = new Float32Array(memory.buffer, 0, this.stride);
    this.scores = new Float32Array(memory.buffer, queryBytes, count);
    this.data = new Float32Array(memory.buffer, queryBytes + scoresBytes, count * this.stride);
  }

  /** Row `i` (its `dimension` floats, a view: writing to it writes the matrix). */
  row(i: number): Float32Array {
    const at = i * this.stride;
    return this.data.subarray(at, at + this.dimension);
  }

  set(i: number, vector: Float32Array): void {
    this.data.set(vector.subarray(0, this.dimension), i * this.stride);
  }

  /**
   * The dot product of `query` (of `dimension` floats) with every row, by row; a view that the
   * next scan of this matrix overwrites.
   */
  scan(query: Float32Array): Float32Array {
    this.query.set(query.subarray(0, this.dimension));
    const q = this.query.byteOffset;
    this.scanAll(q, this.data.byteOffset, this.count, this.stride, this.scores.byteOffset);
    return this.scores;
  }

  /** Bytes the matrix holds (rows, query and scores). */
  get byteLength(): number {
    return this.query.byteLength + this.scores.byteLength + this.data.byteLength;
  }
}
