import { BM25F } from '../ranked/bm25';
import { peakLevel, WINDOW_DOCS, type DenseTerm } from './dense-terms';
import { FIELD_BOOSTS, FIELD_COUNT } from '../text/note-fields';
import { postingField, postingFrequency } from './posting-codec';

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

/** What {@link boundList} makes of one posting list. */
export interface ListBounds {
  /** The bound of each block, rounded up ({@link roundUp}). */
  values: Float32Array;
  /** Documents the list holds. */
  docs: number;
  /** The list's holder bits and window peaks (dense-terms.ts), when asked for; else null. */
  dense: DenseTerm | null;
}

/**
 * Sets the last window's peak level (a dense list's: `peaks` not null, `window` ≥ 0). Called after every list's loop, dense or
 * not: the call that code after the loop made only for a dense list had no type feedback when V8 compiled the loop for the
 * lists before it, and the compiled loop then left at that call over and over, hundreds of times in some warm starts.
 */
function closeWindow(peaks: Uint8Array | null, window: number, windowPeak: number): void {
  if (peaks !== null && window >= 0) peaks[window] = peakLevel(windowPeak);
}

/**
 * Reads one posting list (posting-lists.ts's bytes: per posting the varint distance of its doc
 * id, then the varint code `packPosting(field, tf)`) once and makes each block's bound: the
 * largest pseudo-frequency `Σ_fields boost_f · tf_f / (1 − b + norm_f · len_f)` (bm25.ts's
 * fieldFrequency, {@link FIELD_BOOSTS}, {@link BM25F}) of a document in the block, rounded up;
 * with `denseDocs` > 0 also the holder bits and window peaks of DenseTerms (the same values, a
 * window's largest quantized once by peakLevel). One loop without a cursor object or a call per
 * posting: made for every long list as a saved index loads, it was the load's costliest step
 * (docs/performance.md, "warm" round, session 10).
 * @param bytes the list's bytes (its used length); well formed (checked when laid out)
 * @param skips the list's skip entries (PostingLists.blocks): block k + 1 starts at byte `skips[2k + 1]`
 * @param blocks the list's block count (≥ 1)
 * @param fieldLen field lengths, `FIELD_COUNT` a document by doc id
 * @param norm the reference length normalizer of each field (bm25.ts's lengthNormalizers)
 * @param denseDocs doc ids the holder bits cover (every document's), or 0: no bits or peaks
 */
export function boundList(
  bytes: Uint8Array,
  skips: Uint32Array,
  blocks: number,
  fieldLen: Uint32Array,
  norm: Float64Array,
  denseDocs: number,
): ListBounds {
  const values = new Float32Array(blocks);
  const bits = denseDocs > 0 ? new Uint32Array((denseDocs + 31) >>> 5) : null;
  const peaks = denseDocs > 0 ? new Uint8Array(Math.ceil(denseDocs / WINDOW_DOCS)) : null;
  // fieldFrequency's denominator is (1 − b) + norm · len, summed in that order here too: the same values.
  const base = 1 - BM25F.b;
  const end = bytes.length;
  let block = 0;
  // Where the next block starts: a byte offset, the list's end after the last block (no posting starts there; a number of one kind, not Infinity, keeps the loop on small integers).
  let next = blocks > 1 ? skips[1] : end;
  let last = 0;
  let doc = -1;
  let x = 0;
  let max = 0;
  let docs = 0;
  let window = -1;
  let windowPeak = 0;
  for (let at = 0; ;) {
    const start = at;
    const done = at >= end;
    let code = 0;
    if (!done) {
      // Each varint's loop body runs for its first byte too, so V8's code for it has seen every operation (TermIndex.frequencies).
      let b = 0;
      let scale = 1;
      do {
        b = bytes[at++];
        last += (b & 127) * scale;
        scale *= 128;
      } while (b > 127);
      scale = 1;
      do {
        b = bytes[at++];
        code += (b & 127) * scale;
        scale *= 128;
      } while (b > 127);
    }
    if (done || last !== doc) {
      // The document before is complete: its pseudo-frequency x counts in its block's and its window's largest.
      if (doc >= 0) {
        if (x > max) max = x;
        if (bits !== null) {
          bits[doc >>> 5] |= 1 << (doc & 31);
          const w = (doc / WINDOW_DOCS) | 0;
          if (w !== window) {
            if (window >= 0) (peaks as Uint8Array)[window] = peakLevel(windowPeak);
            window = w;
            windowPeak = 0;
          }
          if (x > windowPeak) windowPeak = x;
        }
      }
      if (done) break;
      x = 0;
      doc = last;
      docs++;
      // A block starts at a new document: close the ones this posting is past.
      while (start >= next) {
        values[block++] = roundUp(max);
        max = 0;
        next = block + 1 < blocks ? skips[2 * block + 1] : end;
      }
    }
    const f = postingField(code);
    x += (FIELD_BOOSTS[f] * postingFrequency(code)) / (base + norm[f] * fieldLen[doc * FIELD_COUNT + f]);
  }
  closeWindow(peaks, window, windowPeak);
  values[block] = roundUp(max);
  return { values, docs, dense: bits === null ? null : { bits, peaks: peaks as Uint8Array } };
}
