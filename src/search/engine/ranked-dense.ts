import { BM25F, bm25Idf, bm25Saturate, fieldFrequency, lengthNormalizers } from './bm25';
import { PEAK_LEVELS, WINDOW_DOCS, popcount, visibleBits, type DenseTerm } from './dense-terms';
import { FIELD_COUNT } from './note-fields';
import { postingField, postingFrequency } from './posting-codec';
import type { PostingCursor } from './posting-lists';
import { titleFactor, titleNamed, type RankedHits, type RankedPlan, type RankingScratch } from './ranked-search';
import type { CorpusView, TermIndex } from './term-index';
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
  const listed = sparse < 0 ? 0 : index.frequencies(plan.terms[sparse].expansions, boosts, view, values, holders).listed;
  const hits = denseHits(plan, index, view, titles, scratch, page, readers, sparse, listed, scale);
  for (let i = 0; i < listed; i++) values[holders[i]] = 0;
  return hits;
}

/** {@link denseScores} once the words are read (`readers`; the sparse word's `listed` holders in the scratch's values and holders). */
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
  const all = plan.terms.length;
  const n = view.visible.length;
  const visible = visibleBits(view);
  const words = visible.length;
  const { values, holders } = scratch;
  // Each word's visible holders, their union and their intersection, a bitset each.
  const union = new Uint32Array(words);
  const both = new Uint32Array(words).fill(0xffffffff);
  const idfs: number[] = [];
  const held = new Uint32Array(words);
  for (const [t, term] of readers.entries()) {
    held.fill(0);
    if (t === sparse)
      for (let i = 0; i < listed; i++) {
        const doc = holders[i];
        held[doc >>> 5] |= 1 << (doc & 31);
      }
    else
      for (const { dense } of term) {
        const bits = dense.bits;
        const m = Math.min(words, bits.length);
        for (let i = 0; i < m; i++) held[i] |= bits[i];
      }
    let df = 0;
    for (let i = 0; i < words; i++) {
      const v = held[i] & visible[i];
      df += popcount(v);
      union[i] |= v;
      both[i] &= v;
    }
    // Every expansion has a visible holder (planRanked); a word without any is scored whole elsewhere.
    if (df === 0) return null;
    idfs.push(bm25Idf(view.count, df));
  }
  let length = 0;
  let allTermsCount = 0;
  for (let i = 0; i < words; i++) {
    length += popcount(union[i]);
    allTermsCount += popcount(both[i]);
  }
  // Fewer notes hold every word than the page: rankedScores ranks the others too.
  if (allTermsCount <= page) return null;
  const mass = idfs.reduce((a, idf) => a + idf, 0);
  const { sum, count, docs } = scratch;
  const normalizer = lengthNormalizers(view.fieldTotal, view.count, BM25F);
  const fieldLen = index.fieldLengths();
  const k = page;
  const candidates = { all: new TopCandidates(k), some: new TopCandidates(k) };
  const best = new LargestValues(k);
  let scored = 0;
  const offer = (doc: number): void => {
    count[doc] = all;
    docs[scored++] = doc;
    best.offer(sum[doc]);
    candidates.all.offer(doc, sum[doc]);
  };
  // The notes whose whole title the query names: scored first, exactly, and left out of the windows.
  titles.cover(n);
  const planStems = Int32Array.from(plan.terms, (t) => titles.idOf(t.stem));
  const { offsets, stems } = titles;
  const rest = both.slice();
  // The all-terms notes one set bit at a time; a title whose first stem the query lacks is not named whole.
  for (let i = 0; i < words; i++) {
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
        sum[doc] += bm25Saturate(t === sparse ? values[doc] : frequencyOf(readers[t], doc, normalizer, fieldLen), idfs[t], BM25F);
      sum[doc] *= titleFactor(named / mass);
      offer(doc);
    }
  }
  // Each word's saturated bound by peak byte: a window's bound is their sum over words.
  const windows = Math.ceil(n / WINDOW_DOCS);
  const bound = new Float64Array(windows);
  let top = 0;
  for (let t = 0; t < all; t++) {
    const term = readers[t];
    const idf = idfs[t];
    const byLevel = new Float64Array(256);
    if (t === sparse) {
      // Exact pseudo-frequencies: each window's largest bounds it.
      const peak = new Float64Array(windows);
      for (let i = 0; i < listed; i++) {
        const doc = holders[i];
        const w8 = (doc / WINDOW_DOCS) | 0;
        if (values[doc] > peak[w8]) peak[w8] = values[doc];
      }
      for (let w8 = 0; w8 < windows; w8++) if (peak[w8] > 0) bound[w8] += saturatedBound(peak[w8], idf);
    } else if (term.length === 1) {
      const w = term[0].weight * scale;
      for (let q = 0; q < 256; q++) byLevel[q] = saturatedBound(PEAK_LEVELS[q] * w, idf);
      const peaks = term[0].dense.peaks;
      for (let w8 = 0; w8 < windows; w8++) bound[w8] += byLevel[w8 < peaks.length ? peaks[w8] : 0];
    } else
      for (let w8 = 0; w8 < windows; w8++) {
        let x = 0;
        for (const r of term) x += PEAK_LEVELS[w8 < r.dense.peaks.length ? r.dense.peaks[w8] : 0] * r.weight;
        bound[w8] += saturatedBound(x * scale, idf);
      }
  }
  // The windows holding a note still to score, bucketed by bound (counting sort: ascending window order within a bucket).
  const masks = new Uint8Array(windows);
  for (let w8 = 0; w8 < windows; w8++) masks[w8] = (rest[w8 >>> 2] >>> ((w8 & 3) * 8)) & 255;
  for (let w8 = 0; w8 < windows; w8++) if (masks[w8] !== 0 && bound[w8] > top) top = bound[w8];
  const bucketOf = (b: number): number =>
    top > 0 && b < Infinity ? Math.min(BUCKETS - 1, Math.floor((b / top) * (BUCKETS - 1))) : BUCKETS - 1;
  const starts = new Int32Array(BUCKETS + 1);
  for (let w8 = 0; w8 < windows; w8++) if (masks[w8] !== 0) starts[bucketOf(bound[w8]) + 1]++;
  for (let b = 0; b < BUCKETS; b++) starts[b + 1] += starts[b];
  const order = new Int32Array(starts[BUCKETS]);
  const fill = starts.slice(0, BUCKETS);
  for (let w8 = 0; w8 < windows; w8++) if (masks[w8] !== 0) order[fill[bucketOf(bound[w8])]++] = w8;
  const x = new Float64Array(WINDOW_DOCS);
  const done = new Uint8Array(windows);
  const scoreWindow = (w8: number): void => {
    const mask = masks[w8];
    const from = w8 * WINDOW_DOCS;
    for (let t = 0; t < all; t++) {
      x.fill(0);
      if (t === sparse) for (let j = 0; j < WINDOW_DOCS; j++) x[j] = (mask & (1 << j)) !== 0 ? values[from + j] : 0;
      else for (const r of readers[t]) windowFrequencies(r, from, mask, normalizer, fieldLen, x);
      const idf = idfs[t];
      for (let j = 0; j < WINDOW_DOCS; j++) if ((mask & (1 << j)) !== 0) sum[from + j] += bm25Saturate(x[j], idf, BM25F);
    }
    for (let j = 0; j < WINDOW_DOCS; j++) if ((mask & (1 << j)) !== 0) offer(from + j);
    done[w8] = 1;
  };
  // First the windows of highest bound, until a few pages of notes set the page's k-th best score.
  let settled = false;
  first: for (let b = BUCKETS - 1; b >= 0; b--) {
    if (starts[b + 1] === starts[b]) continue;
    // Every lower bucket's bounds lie below each of this one's: none can reach the page once this one's highest cannot.
    if (!best.admits(highestIn(bound, order, starts[b], starts[b + 1]))) {
      settled = true;
      break;
    }
    for (let i = starts[b]; i < starts[b + 1]; i++) {
      const w8 = order[i];
      if (!best.admits(bound[w8])) continue;
      scoreWindow(w8);
      if (scored >= FIRST_PAGES * k) break first;
    }
  }
  // Then, in doc order (each list read forward, a block decoded once), every other window whose bound reaches the k-th best so far.
  if (!settled) for (let w8 = 0; w8 < windows; w8++) if (masks[w8] !== 0 && done[w8] === 0 && best.admits(bound[w8])) scoreWindow(w8);
  scratch.used = scored;
  return {
    docs,
    length,
    score: sum,
    allTermsCount,
    candidates,
    allTerms: (doc) => (both[doc >>> 5] & (1 << (doc & 31))) !== 0,
    missing: (doc) => plan.terms.filter((t) => !t.expansions.some((e) => index.contains(e.id, doc))).map((t) => t.word),
  };
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
