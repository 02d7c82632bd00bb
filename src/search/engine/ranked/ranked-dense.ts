import { BM25F, bm25Idf, bm25Saturate, fieldFrequency, lengthNormalizers } from './bm25';
import { PEAK_LEVELS, WINDOW_DOCS, popcount, visibleBits, type DenseTerm } from '../postings/dense-terms';
import { FIELD_COUNT } from '../text/note-fields';
import { postingField, postingFrequency } from '../postings/posting-codec';
import type { PostingCursor } from '../postings/posting-lists';
import { titleFactor, titleNamed, type RankedHits, type RankedPlan, type RankingScratch } from './ranked-search';
import type { TermIndex } from '../term-index';
import { zeroAt, type CorpusView } from '../corpus-view';
import type { TitleStemTable } from './title-stems';
import { LargestValues, TopCandidates } from './top-k';

/**
 * Ranked retrieval of several very common words (dense-terms.ts) when the notes holding every
 * one of them fill the page: the same hits, total, all-terms count and page as ranked-search.ts's
 * {@link rankedScores}, with bit-identical scores, while scoring only the notes that may reach
 * the page. At 100k notes `tokato tokari` matches 92.6k notes and the page is ten.
 *
 * - Each word's document frequency (its idf), the total (the union of the words' holders) and
 *   the all-terms count (their intersection) are popcounts of the words' holder bitsets masked
 *   with the caller's visible notes: no posting is decoded for them.
 * - Only notes holding every word are ranked (they fill the page: rankedScores offers no other),
 *   and their score is the BM25F sum times the title factor, which is above 1 only for a note
 *   whose title the query names whole: those notes are found by one pass over the title table and
 *   scored first, exactly.
 * - Every other note's score is the BM25F sum alone, bounded per window of
 *   {@link WINDOW_DOCS} doc ids by the sum over words of the saturated window peaks. Windows
 *   holding some all-terms note are read in order of falling bound (bucketed), their notes scored
 *   exactly (each word's postings decoded from the block holding the window), and reading stops
 *   at the first window whose bound is below the page's k-th best score so far.
 * - One word may have expansions that are not dense (`tokalu tokazemka`: the second word is in
 *   0.3 % of notes): its postings are all scored first, as rankedScores scores them, and its
 *   holders, exact pseudo-frequencies and window maxima stand in for its bitset and peaks.
 *
 * Every other ranked query is left to ranked-pruning.ts or rankedScores (this returns null): one
 * word, two words with expansions that are not dense, too few all-terms notes to fill the page,
 * other field weights, or no block bounds yet.
 */

/** Bounds are raised by this factor where floating-point sums could land a hair above them (the margin needed is about 1e-15). */
const SLACK = 1 + 1e-6;
/** Buckets the windows are sorted into by bound. */
const BUCKETS = 1024;
/** Pages of notes scored from the windows of highest bound before the rest are read in doc order. */
const FIRST_PAGES = 4;

/** One expansion of a query word being read: its dense term, weight times each field boost, a cursor over its list and the list's skip entries. */
interface Reader {
  dense: Readonly<DenseTerm>;
  weight: number;
  weights: Float64Array;
  cursor: PostingCursor;
  skips: Uint32Array;
  blocks: number;
}

/**
 * {@link rankedScores} for several dense words (see the comment at the top of this file), or
 * null when the query is not one this answers: then call ranked-pruning.ts's prunedScores or rankedScores.
 * @param page how many of the best hits the caller will read
 */
export function denseScores(
  plan: RankedPlan,
  index: TermIndex,
  boosts: ArrayLike<number>,
  view: CorpusView,
  titles: TitleStemTable,
  scratch: RankingScratch,
  page: number,
): RankedHits | null {
  const all = plan.terms.length;
  if (!(page >= 1 && page < Infinity) || all < 2) return null;
  const scale = index.boundScale(view, boosts);
  if (scale === 0) return null;
  const readers: Reader[][] = [];
  // The one word that may have an expansion that is not dense (then every one of its postings is scored, as rankedScores would), or -1.
  let sparse = -1;
  for (const [t, term] of plan.terms.entries()) {
    if (term.expansions.length === 0) return null;
    const out: Reader[] = [];
    if (term.expansions.some((e) => index.dense.of(e.id) === undefined)) {
      if (sparse >= 0) return null;
      sparse = t;
    }
    for (const e of t === sparse ? [] : term.expansions) {
      const dense = index.dense.of(e.id) as DenseTerm;
      const walk = index.blockWalk(e.id);
      const weights = new Float64Array(FIELD_COUNT);
      for (let f = 0; f < FIELD_COUNT; f++) weights[f] = e.weight * boosts[f];
      out.push({ dense, weight: e.weight, weights, cursor: walk.cursor, skips: walk.skips, blocks: walk.blocks });
    }
    readers.push(out);
  }
  scratch.begin(view.visible.length);
  const { values, holders } = scratch;
  // The sparse word's pseudo-frequencies by doc id (TermIndex.frequencies, as rankedScores reads them), zeroed again before returning.
  const listed = sparse < 0 ? 0 : index.frequencies(plan.terms[sparse].expansions, boosts, view, values, holders);
  const hits = denseHits(plan, index, view, titles, scratch, page, readers, sparse, listed, scale);
  zeroAt(values, holders, listed);
  return hits;
}

/**
 * {@link denseScores} once the words are read (`readers`; the sparse word's `listed` holders in the scratch's values and holders).
 * Each step is a function or method of its own, and the run's state a class (DenseRun) rather than closures: V8 then
 * compiles each loop as a small unit, and a step whose code it throws away (new type feedback) does not take the others'
 * with it (docs/performance.md, "first" round of session 18).
 */
function denseHits(
  plan: RankedPlan,
  index: TermIndex,
  view: CorpusView,
  titles: TitleStemTable,
  scratch: RankingScratch,
  page: number,
  readers: Reader[][],
  sparse: number,
  listed: number,
  scale: number,
): RankedHits | null {
  const visible = visibleBits(view);
  const words = visible.length;
  // Each word's visible holders, their union and their intersection, a bitset each.
  const union = new Uint32Array(words);
  const both = new Uint32Array(words).fill(0xffffffff);
  const idfs = wordHolders(readers, sparse, scratch.holders, listed, visible, union, both, view.count);
  if (idfs === null) return null;
  const length = bitCount(union);
  const allTermsCount = bitCount(both);
  // Fewer notes hold every word than the page: rankedScores ranks the others too.
  if (allTermsCount <= page) return null;
  const n = view.visible.length;
  const run = new DenseRun(
    plan.terms.length,
    readers,
    sparse,
    idfs,
    scratch,
    index.fieldLengths(),
    lengthNormalizers(view.fieldTotal, view.count, BM25F),
    page,
  );
  // The notes whose whole title the query names: scored first, exactly, and left out of the windows.
  titles.cover(n);
  const rest = run.titledFirst(
    titles,
    Int32Array.from(plan.terms, (t) => titles.idOf(t.stem)),
    both,
  );
  const windows = Math.ceil(n / WINDOW_DOCS);
  const bound = windowBounds(readers, idfs, sparse, scratch, listed, windows, scale);
  // The windows holding a note still to score, bucketed by bound (counting sort: ascending window order within a bucket).
  const masks = windowMasks(rest, windows);
  const { starts, order } = bucketed(bound, masks, highestMasked(bound, masks));
  run.scoreWindows(bound, masks, starts, order);
  scratch.used = run.scored;
  return {
    docs: scratch.docs,
    length,
    score: scratch.sum,
    allTermsCount,
    candidates: run.candidates,
    allTerms: (doc) => (both[doc >>> 5] & (1 << (doc & 31))) !== 0,
    missing: (doc) => plan.terms.filter((t) => !t.expansions.some((e) => index.contains(e.id, doc))).map((t) => t.word),
  };
}

/**
 * Each word's visible holders as a bitset (the sparse word's from its `listed` `holders`), or-ed into `union` and and-ed into `both`.
 * @returns each word's idf (by its visible holders, out of `count` notes), or null when a word has none
 */
function wordHolders(
  readers: Reader[][],
  sparse: number,
  holders: Int32Array,
  listed: number,
  visible: Uint32Array,
  union: Uint32Array,
  both: Uint32Array,
  count: number,
): number[] | null {
  const words = visible.length;
  const idfs: number[] = [];
  const held = new Uint32Array(words);
  for (const [t, term] of readers.entries()) {
    held.fill(0);
    if (t === sparse)
      for (let i = 0; i < listed; i++) {
        const doc = holders[i];
        held[doc >>> 5] |= 1 << (doc & 31);
      }
    else for (const { dense } of term) orInto(held, dense.bits);
    let df = 0;
    for (let i = 0; i < words; i++) {
      const v = held[i] & visible[i];
      df += popcount(v);
      union[i] |= v;
      both[i] &= v;
    }
    // Every expansion has a visible holder (planRanked); a word without any is scored whole elsewhere.
    if (df === 0) return null;
    idfs.push(bm25Idf(count, df));
  }
  return idfs;
}

/** Ors `bits` into `into`, word by word, as far as the shorter reaches. */
function orInto(into: Uint32Array, bits: Uint32Array): void {
  const m = Math.min(into.length, bits.length);
  for (let i = 0; i < m; i++) into[i] |= bits[i];
}

/** The number of bits set in `bits`. */
function bitCount(bits: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < bits.length; i++) count += popcount(bits[i]);
  return count;
}

/**
 * Each window's bound: the sum over words of the word's saturated bound at the window's peak (the sparse word's
 * exact largest pseudo-frequency in the window, from the scratch's values of its `listed` holders).
 * @returns the bounds by window, `windows` of them
 */
function windowBounds(
  readers: Reader[][],
  idfs: readonly number[],
  sparse: number,
  scratch: RankingScratch,
  listed: number,
  windows: number,
  scale: number,
): Float64Array {
  const bound = new Float64Array(windows);
  for (let t = 0; t < readers.length; t++) {
    const term = readers[t];
    const idf = idfs[t];
    if (t === sparse) sparseBounds(scratch.values, scratch.holders, listed, idf, bound);
    else if (term.length === 1) peakBounds(term[0], scale, idf, bound);
    else
      for (let w8 = 0; w8 < windows; w8++) {
        let x = 0;
        for (const r of term) x += PEAK_LEVELS[w8 < r.dense.peaks.length ? r.dense.peaks[w8] : 0] * r.weight;
        bound[w8] += saturatedBound(x * scale, idf);
      }
  }
  return bound;
}

/** Adds to each window's `bound` the sparse word's: its largest pseudo-frequency there (`values` of its `listed` `holders`), saturated. */
function sparseBounds(values: Float64Array, holders: Int32Array, listed: number, idf: number, bound: Float64Array): void {
  const windows = bound.length;
  const peak = new Float64Array(windows);
  for (let i = 0; i < listed; i++) {
    const doc = holders[i];
    const w8 = (doc / WINDOW_DOCS) | 0;
    if (values[doc] > peak[w8]) peak[w8] = values[doc];
  }
  for (let w8 = 0; w8 < windows; w8++) if (peak[w8] > 0) bound[w8] += saturatedBound(peak[w8], idf);
}

/** Adds to each window's `bound` one dense expansion's: its saturated bound at the window's peak byte. */
function peakBounds(r: Reader, scale: number, idf: number, bound: Float64Array): void {
  const byLevel = new Float64Array(256);
  const w = r.weight * scale;
  for (let q = 0; q < 256; q++) byLevel[q] = saturatedBound(PEAK_LEVELS[q] * w, idf);
  const peaks = r.dense.peaks;
  for (let w8 = 0; w8 < bound.length; w8++) bound[w8] += byLevel[w8 < peaks.length ? peaks[w8] : 0];
}

/** Each window's notes still to score, from the bitset `rest`: bit j of window w8 is note `w8 * WINDOW_DOCS + j`. */
function windowMasks(rest: Uint32Array, windows: number): Uint8Array {
  const masks = new Uint8Array(windows);
  for (let w8 = 0; w8 < windows; w8++) masks[w8] = (rest[w8 >>> 2] >>> ((w8 & 3) * 8)) & 255;
  return masks;
}

/** The highest bound of a window with a note to score, or 0. */
function highestMasked(bound: Float64Array, masks: Uint8Array): number {
  let top = 0;
  for (let w8 = 0; w8 < masks.length; w8++) if (masks[w8] !== 0 && bound[w8] > top) top = bound[w8];
  return top;
}

/** The bucket of bound `b` when the highest is `top`: 0 … BUCKETS - 1, the last for the highest (or when there is no finite top). */
function bucketOf(b: number, top: number): number {
  return top > 0 && b < Infinity ? Math.min(BUCKETS - 1, Math.floor((b / top) * (BUCKETS - 1))) : BUCKETS - 1;
}

/**
 * The windows with a note to score sorted by bucket of bound (counting sort: ascending window order within a bucket).
 * @returns `order`, the windows, and `starts`: bucket b's windows are `order[starts[b]]` … `order[starts[b + 1] - 1]`
 */
function bucketed(bound: Float64Array, masks: Uint8Array, top: number): { starts: Int32Array; order: Int32Array } {
  const windows = masks.length;
  const starts = new Int32Array(BUCKETS + 1);
  for (let w8 = 0; w8 < windows; w8++) if (masks[w8] !== 0) starts[bucketOf(bound[w8], top) + 1]++;
  for (let b = 0; b < BUCKETS; b++) starts[b + 1] += starts[b];
  const order = new Int32Array(starts[BUCKETS]);
  const fill = starts.slice(0, BUCKETS);
  for (let w8 = 0; w8 < windows; w8++) if (masks[w8] !== 0) order[fill[bucketOf(bound[w8], top)]++] = w8;
  return { starts, order };
}

/** One denseHits run's scoring: the words' readers and idfs, the scratch's sums, the page's candidates and how many notes were scored. */
class DenseRun {
  /** How many notes were scored (offered), listed in the scratch's docs. */
  scored = 0;
  readonly candidates: { all: TopCandidates; some: TopCandidates };
  private readonly best: LargestValues;
  private readonly values: Float64Array;
  private readonly sum: Float64Array;
  private readonly count: Uint16Array;
  private readonly docs: Int32Array;
  /** One window's pseudo-frequencies of the word being scored. */
  private readonly x = new Float64Array(WINDOW_DOCS);

  /**
   * @param all the query's word count
   * @param readers each word's expansions being read (none for the `sparse` word, whose pseudo-frequencies are the scratch's values)
   * @param idfs each word's idf
   * @param fieldLen, normalizer the notes' field lengths and BM25F's length normalizers
   * @param k the page
   */
  constructor(
    private readonly all: number,
    private readonly readers: Reader[][],
    private readonly sparse: number,
    private readonly idfs: readonly number[],
    scratch: RankingScratch,
    private readonly fieldLen: Uint32Array,
    private readonly normalizer: Float64Array,
    k: number,
  ) {
    this.candidates = { all: new TopCandidates(k), some: new TopCandidates(k) };
    this.best = new LargestValues(k);
    this.values = scratch.values;
    this.sum = scratch.sum;
    this.count = scratch.count;
    this.docs = scratch.docs;
  }

  /**
   * Scores exactly, and offers, each all-terms note (bit set in `both`) whose title the query names whole (titleNamed with
   * `planStems`, the words' title stem ids); a title whose first stem the query lacks is not named whole.
   * @returns `both` without those notes: the notes the windows score
   */
  titledFirst(titles: TitleStemTable, planStems: Int32Array, both: Uint32Array): Uint32Array {
    const { all, sparse, readers, idfs, values, sum } = this;
    const { offsets, stems } = titles;
    const mass = idfs.reduce((a, idf) => a + idf, 0);
    const rest = both.slice();
    // The all-terms notes one set bit at a time.
    for (let i = 0; i < both.length; i++) {
      for (let v = both[i]; v !== 0;) {
        const low = v & -v;
        v ^= low;
        const doc = (i << 5) | (31 - Math.clz32(low));
        const first = offsets[doc];
        if (offsets[doc + 1] === first) continue;
        const stem = stems[first];
        let t = 0;
        while (t < all && planStems[t] !== stem) t++;
        if (t === all) continue;
        const named = titleNamed(doc, offsets, stems, planStems, idfs);
        if (named <= 0) continue;
        rest[i] &= ~low;
        for (let t = 0; t < all; t++)
          sum[doc] += bm25Saturate(
            t === sparse ? values[doc] : frequencyOf(readers[t], doc, this.normalizer, this.fieldLen),
            idfs[t],
            BM25F,
          );
        sum[doc] *= titleFactor(named / mass);
        this.offer(doc);
      }
    }
    return rest;
  }

  /**
   * Scores the windows (`masks`: their notes to score) whose `bound` may reach the page: first those of highest bound
   * (the buckets of `starts` and `order`, from the top) until a few pages of notes set the page's k-th best score, then,
   * in doc order (each list read forward, a block decoded once), every other window whose bound reaches the k-th best so far.
   */
  scoreWindows(bound: Float64Array, masks: Uint8Array, starts: Int32Array, order: Int32Array): void {
    const done = new Uint8Array(masks.length);
    if (this.highestFirst(bound, masks, starts, order, done)) return;
    for (let w8 = 0; w8 < masks.length; w8++)
      if (masks[w8] !== 0 && done[w8] === 0 && this.best.admits(bound[w8])) this.scoreWindow(w8, masks[w8], done);
  }

  /**
   * The windows of highest bound, bucket by bucket from the top, until FIRST_PAGES pages of notes are scored.
   * @returns true when the rest cannot reach the page (a bucket's highest bound is below the k-th best score)
   */
  private highestFirst(bound: Float64Array, masks: Uint8Array, starts: Int32Array, order: Int32Array, done: Uint8Array): boolean {
    const { best } = this;
    const enough = FIRST_PAGES * best.k;
    for (let b = BUCKETS - 1; b >= 0; b--) {
      if (starts[b + 1] === starts[b]) continue;
      // Every lower bucket's bounds lie below each of this one's: none can reach the page once this one's highest cannot.
      if (!best.admits(highestIn(bound, order, starts[b], starts[b + 1]))) return true;
      for (let i = starts[b]; i < starts[b + 1]; i++) {
        const w8 = order[i];
        if (!best.admits(bound[w8])) continue;
        this.scoreWindow(w8, masks[w8], done);
        if (this.scored >= enough) return false;
      }
    }
    return false;
  }

  /** Scores exactly, and offers, the notes `mask` names in window `w8` (bit j: note `w8 * WINDOW_DOCS + j`); marks it done. */
  private scoreWindow(w8: number, mask: number, done: Uint8Array): void {
    const { all, sparse, readers, idfs, values, sum, x } = this;
    const from = w8 * WINDOW_DOCS;
    for (let t = 0; t < all; t++) {
      x.fill(0);
      if (t === sparse) for (let j = 0; j < WINDOW_DOCS; j++) x[j] = (mask & (1 << j)) !== 0 ? values[from + j] : 0;
      else for (const r of readers[t]) windowFrequencies(r, from, mask, this.normalizer, this.fieldLen, x);
      const idf = idfs[t];
      for (let j = 0; j < WINDOW_DOCS; j++) if ((mask & (1 << j)) !== 0) sum[from + j] += bm25Saturate(x[j], idf, BM25F);
    }
    for (let j = 0; j < WINDOW_DOCS; j++) if ((mask & (1 << j)) !== 0) this.offer(from + j);
    done[w8] = 1;
  }

  /** Lists `doc` as scored (its count: every word) and offers its sum to the page. */
  private offer(doc: number): void {
    this.count[doc] = this.all;
    this.docs[this.scored++] = doc;
    this.best.offer(this.sum[doc]);
    this.candidates.all.offer(doc, this.sum[doc]);
  }
}

/** The largest of `bound[order[i]]` for `from ≤ i < to`. */
function highestIn(bound: Float64Array, order: Int32Array, from: number, to: number): number {
  let high = -Infinity;
  for (let i = from; i < to; i++) high = Math.max(high, bound[order[i]]);
  return high;
}

/** An upper bound on bm25Saturate(x, idf) for a pseudo-frequency up to `x` (Infinity included: the saturation's ceiling idf · (k1 + 1)), raised by {@link SLACK}. */
function saturatedBound(x: number, idf: number): number {
  return (x === Infinity ? idf * (BM25F.k1 + 1) : bm25Saturate(x * SLACK, idf, BM25F)) * SLACK;
}

/**
 * One word's pseudo-frequency in document `doc` (which holds it), summed as TermIndex.frequencies
 * sums it: expansion by expansion, each one's postings of the note in list order.
 */
function frequencyOf(term: readonly Reader[], doc: number, normalizer: Float64Array, fieldLen: Uint32Array): number {
  let x = 0;
  for (const r of term) {
    const c = seek(r, doc);
    while (c.next()) {
      if (c.doc < doc) continue;
      if (c.doc > doc) break;
      const code = c.code;
      const f = postingField(code);
      x += fieldFrequency(r.weights[f], postingFrequency(code), normalizer[f], fieldLen[doc * FIELD_COUNT + f], BM25F);
    }
  }
  return x;
}

/**
 * Adds each posting of `r`'s list for the notes of the window from doc id `from` that `mask`
 * names (bit j: note `from + j`) into `x[j]`, in list order; leaves the cursor before the first
 * posting past the window.
 */
function windowFrequencies(r: Reader, from: number, mask: number, normalizer: Float64Array, fieldLen: Uint32Array, x: Float64Array): void {
  const c = seek(r, from);
  const end = from + WINDOW_DOCS;
  const weights = r.weights;
  for (;;) {
    const at = c.at;
    const before = c.doc;
    if (!c.next()) return;
    const doc = c.doc;
    if (doc >= end) {
      c.at = at;
      c.doc = before;
      return;
    }
    const j = doc - from;
    if (j < 0 || (mask & (1 << j)) === 0) continue;
    const code = c.code;
    const f = postingField(code);
    x[j] += fieldFrequency(weights[f], postingFrequency(code), normalizer[f], fieldLen[doc * FIELD_COUNT + f], BM25F);
  }
}

/**
 * `r`'s cursor placed at or before the first posting of doc id `doc` or above: where it is when
 * it is in the block holding `doc` and has not read past it, else at the start of that block
 * (the last skip entry whose base is below `doc`, as PostingLists' seek finds it).
 */
function seek(r: Reader, doc: number): PostingCursor {
  const { cursor: c, skips } = r;
  let lo = 0;
  let hi = r.blocks - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (skips[mid * 2] < doc) lo = mid + 1;
    else hi = mid;
  }
  const start = lo === 0 ? 0 : skips[lo * 2 - 1];
  if (c.at >= start && c.doc < doc) return c;
  c.at = start;
  c.doc = lo === 0 ? 0 : skips[lo * 2 - 2];
  return c;
}
