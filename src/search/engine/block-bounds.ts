/**
 * Per-block score bounds of the posting lists, for ranked retrieval's dynamic pruning
 * (ranked-pruning.ts): for each block of a term's list (PostingLists' blocks of about 64
 * postings, one skip entry each), an upper bound on the BM25F pseudo-frequency any document
 * of the block has for the term — `Σ_fields boost_f · tf_f / (1 − b + normalizer_f · len_f)`
 * (bm25.ts's fieldFrequency, expansion weight 1) — under reference length normalizers (those
 * of every live note when the bounds were made; TermIndex.boundScale converts a bound to
 * another view's normalizers). A ranked query skips scoring every document of a block whose
 * bound cannot reach its page.
 *
 * Bounds only ever have to stay at or above the truth: an append raises its block's bound by
 * the posting's contribution (the document's later postings in other fields add theirs), a
 * removal leaves a bound as it is, and blocks merged by a removal keep the larger bound.
 * Stored as `Float32Array` per term, rounded up ({@link roundUp}), with the count of documents
 * the list holds (a one-word query's total, without reading the list).
 */
export class BlockBounds {
  /** By term id, for the terms that have bounds (lists long enough, TermIndex's MIN_BOUNDED_POSTINGS). */
  private readonly terms = new Map<number, TermBounds>();

  /** Term `id`'s bounds, or undefined when it has none; read only. */
  of(id: number): Readonly<TermBounds> | undefined {
    return this.terms.get(id);
  }

  /** Gives term `id` these bounds (one a block of its list, already rounded up; it then owns them) and its count of documents. */
  set(id: number, values: Float32Array, docs: number): void {
    this.terms.set(id, { values, docs });
  }

  /** True when no term has bounds (then nothing needs keeping up). */
  get empty(): boolean {
    return this.terms.size === 0;
  }

  /** Block `block` of term `id`'s list just started (an append): its bound starts at 0; nothing when the term has no bounds. */
  open(id: number, block: number): void {
    const t = this.terms.get(id);
    if (t === undefined) return;
    if (block >= t.values.length) {
      const grown = new Float32Array(Math.max(block + 1, t.values.length * 2));
      grown.set(t.values);
      t.values = grown;
    }
    t.values[block] = 0;
  }

  /** Adds one posting's contribution `x` to the bound of block `block` of term `id` (an append); nothing when the term has no bounds. */
  raise(id: number, block: number, x: number): void {
    const t = this.terms.get(id);
    if (t !== undefined) t.values[block] = roundUp(t.values[block] + x);
  }

  /** Term `id`'s list gained (`+1`) or lost (`-1`) a document; nothing when the term has no bounds. */
  count(id: number, change: 1 | -1): void {
    const t = this.terms.get(id);
    if (t !== undefined) t.docs += change;
  }

  /**
   * Moves the bound of block `from` to block `to` (≤ `from`) of term `id`'s list, as a removal
   * renumbers blocks: with `merge`, block `to` takes the larger of the two (the blocks became one).
   */
  move(id: number, from: number, to: number, merge: boolean): void {
    const t = this.terms.get(id);
    if (t === undefined) return;
    t.values[to] = merge ? Math.max(t.values[to], t.values[from]) : t.values[from];
  }

  /** Bytes the bounds take. */
  bytes(): number {
    let n = 0;
    for (const t of this.terms.values()) n += t.values.byteLength;
    return n;
  }
}

/** One term's block bounds and the number of documents its list holds (live or tombstoned). */
export interface TermBounds {
  /** The bound of each block, by block index (0 the first); may run past the last block. */
  values: Float32Array;
  docs: number;
}

/**
 * A `Float32` at or above `x` (≥ 0), close to it: `x` raised by 2^-20 of itself, then
 * rounded to the nearest `Float32` (at most 2^-24 of it away), so a stored bound is never below
 * the `Float64` value it bounds.
 */
export function roundUp(x: number): number {
  return Math.fround(x * (1 + 2 ** -20));
}
