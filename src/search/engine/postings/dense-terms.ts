import type { CorpusView, ScoreSheet } from '../corpus-view';

/**
 * Holder bitsets and per-window score bounds of the index's very common terms, for ranked
 * queries of several such words (ranked-dense.ts): at 100k notes the heavy queries' words are
 * each held by 40–90 % of the notes, and a query's total (the union of their holders), its
 * all-terms count (their intersection) and each word's document frequency come from popcounts of
 * a few thousand words, where reading them from the posting lists meant decoding every posting.
 *
 * A term is dense when, as its block bounds are made (TermIndex.boundSteps, when a build ends or
 * a saved index has loaded), it is held by more than {@link DENSE_SHARE} of the live notes. It then keeps:
 * - `bits`: bit `doc` set when document `doc` holds it (a removed document's bit is cleared; a
 *   tombstoned one's stays, and every reader masks with its view's visible documents);
 * - `peaks`: for each window of {@link WINDOW_DOCS} doc ids, an upper bound on the BM25F
 *   pseudo-frequency (bm25.ts's fieldFrequency summed over fields, expansion weight 1, field
 *   boosts, the block bounds' reference normalizers) of any document of the window, one byte
 *   on a log scale ({@link PEAK_LEVELS}), rounded up. An append raises its window's byte by the
 *   posting's share (as block bounds do) and a removal leaves it.
 * Cost at 100k notes: about 400 dense terms, 25 KB each (12.5 KB of bits, 12.5 KB of peaks).
 */

/** A term is dense when held by more than this share of live notes when its bounds are made. */
export const DENSE_SHARE = 1 / 16;
/**
 * Doc ids a peak byte covers, one byte of a bitset word (a window's notes are scored together;
 * at generated 40k, bounds over 8 notes left 1.6k of the four heavy words' 10.9k all-terms notes
 * to score for a page of 10, over 16 notes 5.8k, over 32 notes 10.1k).
 */
export const WINDOW_DOCS = 8;
/** Peak levels per octave: consecutive levels are 2^(1/16), about 4.4 %, apart. */
const LEVELS_PER_OCTAVE = 16;
/** The level of pseudo-frequency 1. */
const LEVEL_ONE = 160;

/**
 * The pseudo-frequency each peak byte stands for: 0 for 0 (no holder), then 2^((q − 160) / 16)
 * from about 0.001 (q = 1) to about 58 (q = 254); 255 stands for any larger value (Infinity).
 */
export const PEAK_LEVELS: Float64Array = (() => {
  const out = new Float64Array(256);
  for (let q = 1; q < 255; q++) out[q] = Math.pow(2, (q - LEVEL_ONE) / LEVELS_PER_OCTAVE);
  out[255] = Infinity;
  return out;
})();

/** The smallest peak byte whose level is at or above `x` (≥ 0). */
export function peakLevel(x: number): number {
  if (x <= 0) return 0;
  let q = Math.max(1, Math.min(255, Math.ceil(Math.log2(x) * LEVELS_PER_OCTAVE + LEVEL_ONE)));
  while (PEAK_LEVELS[q] < x) q++;
  return q;
}

/** One dense term's holders and window peaks (see the comment at the top of this file). */
export interface DenseTerm {
  /** Bit `doc % 32` of word `doc >> 5` set when document `doc` holds the term; may be shorter than the doc ids (missing words are 0). */
  bits: Uint32Array;
  /** Peak byte of each window of {@link WINDOW_DOCS} doc ids; may be shorter than the windows (missing ones are 0: no holder). */
  peaks: Uint8Array;
}

/** The dense terms of one index, by term id (see the comment at the top of this file). */
export class DenseTerms {
  private readonly terms = new Map<number, DenseTerm>();

  /** Term `id`'s bits and peaks, or undefined when it is not dense; read only. */
  of(id: number): Readonly<DenseTerm> | undefined {
    return this.terms.get(id);
  }

  /** Makes term `id` dense with these bits and peaks (block-bounds.ts's boundList made them; the term then owns them). */
  set(id: number, term: DenseTerm): void {
    this.terms.set(id, term);
  }

  /** Document `doc` got a posting of term `id` worth `x` of its pseudo-frequency (an append): its bit is set, its window's peak raised by `x`; nothing when the term is not dense. */
  raise(id: number, doc: number, x: number): void {
    const t = this.terms.get(id);
    if (t === undefined) return;
    const word = doc >>> 5;
    if (word >= t.bits.length) t.bits = grownWords(t.bits, word + 1);
    t.bits[word] |= 1 << (doc & 31);
    const w = (doc / WINDOW_DOCS) | 0;
    if (w >= t.peaks.length) {
      const grown = new Uint8Array(Math.max(w + 1, t.peaks.length * 2));
      grown.set(t.peaks);
      t.peaks = grown;
    }
    t.peaks[w] = peakLevel(PEAK_LEVELS[t.peaks[w]] + x);
  }

  /** Document `doc` no longer holds term `id` (a removal): its bit is cleared; nothing when the term is not dense. */
  clear(id: number, doc: number): void {
    const t = this.terms.get(id);
    if (t !== undefined && doc >>> 5 < t.bits.length) t.bits[doc >>> 5] &= ~(1 << (doc & 31));
  }

  /** Bytes the bits and peaks take. */
  bytes(): number {
    let n = 0;
    for (const t of this.terms.values()) n += t.bits.byteLength + t.peaks.byteLength;
    return n;
  }
}

/** A copy of `words` with room for `n` words (at least twice as many), zero past the old ones. */
function grownWords(words: Uint32Array, n: number): Uint32Array {
  const out = new Uint32Array(Math.max(n, words.length * 2));
  out.set(words);
  return out;
}

/** The visible documents of each view as a bitset (made on first use; a view is kept while the index is unchanged). */
const visibleBitsets = new WeakMap<Uint8Array, Uint32Array>();

/** `view.visible` as a bitset of `(visible.length + 31) >> 5` words (bit `doc` set when visible). */
export function visibleBits(view: CorpusView): Uint32Array {
  const { visible } = view;
  let bits = visibleBitsets.get(visible);
  if (bits === undefined) {
    bits = new Uint32Array((visible.length + 31) >>> 5);
    for (let doc = 0; doc < visible.length; doc++) if (visible[doc] === 1) bits[doc >>> 5] |= 1 << (doc & 31);
    visibleBitsets.set(visible, bits);
  }
  return bits;
}

/** Number of bits set in a 32-bit word. */
export function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Marks the holders in `bits` that `view` shows (and `within` admits, when given) as
 * TermIndex.mark marks a term's holders: `sheet.values[doc]` becomes 1 and `doc` is listed in
 * `sheet.docs` (after its first `sheet.count`), in doc id order, for each one not marked yet.
 */
export function markHolders(bits: Uint32Array, view: CorpusView, sheet: ScoreSheet, within: Uint8Array | null): void {
  const visible = visibleBits(view);
  const { values, docs } = sheet;
  let count = sheet.count;
  const words = Math.min(bits.length, visible.length);
  for (let i = 0; i < words; i++) {
    for (let v = bits[i] & visible[i]; v !== 0;) {
      const low = v & -v;
      v ^= low;
      const doc = (i << 5) | (31 - Math.clz32(low));
      if (values[doc] !== 0 || (within !== null && within[doc] !== 1)) continue;
      values[doc] = 1;
      docs[count++] = doc;
    }
  }
  sheet.count = count;
}
