/**
 * The ranking index's postings, packed: every term's list of (document, weight) lies in three
 * arrays shared by the whole index instead of two typed arrays per term. A catalogue of
 * 10,000 tools holds hundreds of thousands of postings and thousands of terms: two typed
 * arrays and their buffers per term cost about 200 bytes of bookkeeping each, and a posting
 * stored as a Uint32 document and a Float64 frequency 12 bytes. Packed:
 *
 * - documents as gaps from the previous document of the same term, in a variable-length
 *   byte code (7 bits a byte): a word most tools use costs one byte a posting;
 * - weights as BM25's saturated term frequency, tf x (K1 + 1) / (tf + K1), which lies in
 *   [0, K1 + 1), in 16 bits: a step of 3.4e-5, far below the thousandths scores are shown
 *   and tied in, and the saturation is paid once at build, not at every query.
 *
 * Postings are added document by document, documents in ascending order (the build's order).
 */

/**
 * BM25's term frequency saturation. Higher than the textbook 1.2: a field-weighted frequency
 * here sums a tool's name (weight 3), server, summary and description, and a word in several
 * of them is evidence worth more than one (stop 66, with INTENT_WEIGHT 0.8, on the set: 1.2 ->
 * 2.5 moved hit@5 0.831 -> 0.846 dev and 0.791 -> 0.799 held-back, hit@1 held-back 0.453 ->
 * 0.500). At 3 and more a word repeated in a short tool's name and description outweighs
 * the request's other words ("register a new MCP server" found core_mcpserver_list first).
 */
export const K1 = 2.5;
/** A stored weight / this = the saturated term frequency. */
export const WEIGHT_SCALE = 65535 / (K1 + 1);

export interface PostingLists {
  /** Term -> its number. */
  ids: ReadonlyMap<string, number>;
  /** Per term t: its postings are postings [count[t], count[t + 1]) ... */
  count: Uint32Array;
  /** ...and its document gaps are bytes [byteStart[t], byteStart[t + 1]) of `gaps`. */
  byteStart: Uint32Array;
  gaps: Uint8Array;
  /** Per posting: its saturated term frequency x WEIGHT_SCALE. */
  weights: Uint16Array;
}

/** How many documents hold `term` (its document frequency). */
export function documentFrequency(lists: PostingLists, term: number): number {
  return lists.count[term + 1]! - lists.count[term]!;
}

export class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  // Plain arrays on V8's heap, not growing typed arrays: an ArrayBuffer of megabytes is
  // malloc'd, and glibc keeps such a block for the process's life once freed (measured: 24 MiB
  // more RSS at 10,000 tools), where the heap is compacted and given back.
  private readonly terms: number[] = [];
  private readonly docs: number[] = [];
  private readonly tfs: number[] = [];

  /** Adds `doc`'s pseudo-frequency of `term`; docs must come in ascending order. */
  add(doc: number, term: string, tf: number): void {
    let id = this.ids.get(term);
    if (id === undefined) this.ids.set(term, (id = this.ids.size));
    this.terms.push(id);
    this.docs.push(doc);
    this.tfs.push(tf);
  }

  finish(): PostingLists {
    const terms = this.ids.size;
    const total = this.terms.length;
    // Sizes first (postings and gap bytes per term), then each term's place from the sums.
    const count = new Uint32Array(terms + 1);
    const bytes = new Uint32Array(terms + 1);
    const last = new Int32Array(terms).fill(-1);
    for (let i = 0; i < total; i++) {
      const t = this.terms[i]!;
      count[t + 1]!++;
      bytes[t + 1]! += gapBytes(this.docs[i]! - last[t]!);
      last[t] = this.docs[i]!;
    }
    for (let t = 0; t < terms; t++) {
      count[t + 1]! += count[t]!;
      bytes[t + 1]! += bytes[t]!;
    }
    const gaps = new Uint8Array(bytes[terms]!);
    const weights = new Uint16Array(total);
    const next = count.slice(0, terms);
    const write = bytes.slice(0, terms);
    last.fill(-1);
    for (let i = 0; i < total; i++) {
      const t = this.terms[i]!;
      const tf = this.tfs[i]!;
      weights[next[t]!++] = Math.round(((tf * (K1 + 1)) / (tf + K1)) * WEIGHT_SCALE);
      let gap = this.docs[i]! - last[t]!;
      last[t] = this.docs[i]!;
      let at = write[t]!;
      while (gap >= 0x80) {
        gaps[at++] = (gap % 0x80) | 0x80;
        gap = Math.floor(gap / 0x80);
      }
      gaps[at++] = gap;
      write[t] = at;
    }
    return { ids: this.ids, count, byteStart: bytes, gaps, weights };
  }
}

function gapBytes(gap: number): number {
  let n = 1;
  while (gap >= 0x80) {
    gap = Math.floor(gap / 0x80);
    n++;
  }
  return n;
}
