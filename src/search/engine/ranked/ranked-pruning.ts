import { BM25F, bm25Idf, bm25Saturate, fieldFrequency, lengthNormalizers } from './bm25';
import { roundUp } from '../postings/block-bounds';
import { FIELD_COUNT } from '../text/note-fields';
import { postingField, postingFrequency } from '../postings/posting-codec';
import { titleFactor, titleNamed, type RankedHits, type RankedPlan, type RankingScratch } from './ranked-search';
import type { TermIndex } from '../term-index';
import type { CorpusView } from '../corpus-view';
import type { TitleStemTable } from './title-stems';
import { LargestValues, TopCandidates } from './top-k';

/**
 * Ranked retrieval of one word with dynamic pruning by block bounds (block-bounds.ts): the same
 * hits, total and page as ranked-search.ts's {@link rankedScores}, with bit-identical scores,
 * while reading only the blocks of the word's list that may hold a note of the page. At 100k
 * notes a common word is held by most notes, and only a page of 10–20 of them is read.
 *
 * - The total (the word's document frequency, which also gives its idf) is the count of
 *   documents the list holds, kept with its bounds, less the tombstoned ones among them, when the
 *   caller sees every live note.
 * - A block's bound on a note's final score is its bound on the pseudo-frequency, converted to
 *   the view and saturated with the idf, times the title factor of a note in the block whose
 *   title the word names whole (a title of that one stem; found by one pass over the title
 *   table), else 1.
 * - Blocks are read in order of falling bound; each note read is scored as rankedScores scores
 *   it, and reading stops at the first block whose bound is below the page's k-th best score
 *   so far: no note after it can reach the page, nor tie its last note.
 *
 * Every other ranked query is scored by rankedScores, whole: several words (the total is the
 * union of their holders and the all-terms count their intersection: every list has to be
 * read, and a pass reading doc ids alone cost about as much as scoring them, measured at 40k
 * notes in docs/performance.md), a word of several expansions (stem variants, prefixes: their
 * lists' blocks do not line up), a caller who cannot see every note, an index holding more than
 * a few tombstoned notes (TermIndex.knownHolders), or a list too short to have bounds.
 */

/** Bounds are raised by this factor where floating-point sums could land a hair above them (the margin needed is about 1e-15). */
const SLACK = 1 + 1e-6;
/** Blocks of a list whose order key holds the block index (the key is a Float32's bits times this plus the index). */
const MAX_BLOCKS = 2 ** 21;

/** Reads a Float32's bits as an unsigned integer (for positive values the bits order as the values do). */
const F32 = new Float32Array(1);
const F32_BITS = new Uint32Array(F32.buffer);

/**
 * {@link rankedScores} with pruning (see the comment at the top of this file), or null when
 * the query is not one it prunes: then call rankedScores.
 * @param page how many of the best hits the caller will read
 */
export function prunedScores(
  plan: RankedPlan,
  index: TermIndex,
  boosts: ArrayLike<number>,
  view: CorpusView,
  titles: TitleStemTable,
  scratch: RankingScratch,
  page: number,
): RankedHits | null {
  if (!(page < Infinity) || plan.terms.length !== 1 || plan.terms[0].expansions.length !== 1) return null;
  const term = plan.terms[0];
  const e = term.expansions[0];
  const df = index.knownHolders(e.id, view);
  // Every hit on the page: nothing to prune.
  if (df <= Math.max(1, page)) return null;
  const scale = index.boundScale(view, boosts);
  const walk = index.blockWalk(e.id);
  const bounds = walk.bounds;
  if (scale === 0 || bounds === null || walk.blocks >= MAX_BLOCKS) return null;
  const idf = bm25Idf(view.count, df);
  const idfs = [idf];
  const mass = idfs.reduce((a, x) => a + x, 0);
  titles.cover(view.visible.length);
  const planStems = Int32Array.from(plan.terms, (t) => titles.idOf(t.stem));
  const factors = titledBlocks(walk.skips, walk.blocks, planStems, idfs, mass, titles, view);
  // Each block's bound on a final score, rounded up to a Float32, keyed by its bits (ordered as the values) and the block index.
  const keys = new Float64Array(walk.blocks);
  for (let b = 0; b < walk.blocks; b++) {
    F32[0] = roundUp(bm25Saturate(bounds[b] * scale * e.weight * SLACK, idf, BM25F) * SLACK * factors[b]);
    keys[b] = F32_BITS[0] * MAX_BLOCKS + b;
  }
  keys.sort();
  scratch.begin(view.visible.length);
  const { sum, count, docs } = scratch;
  const normalizer = lengthNormalizers(view.fieldTotal, view.count, BM25F);
  const fieldLen = index.fieldLengths();
  const weights = new Float64Array(FIELD_COUNT);
  for (let f = 0; f < FIELD_COUNT; f++) weights[f] = e.weight * boosts[f];
  const k = Math.max(1, page);
  const candidates = { all: new TopCandidates(k), some: new TopCandidates(k) };
  const best = new LargestValues(k);
  const { offsets, stems } = titles;
  const { cursor: c, skips } = walk;
  const { visible } = view;
  let scored = 0;
  // rankedScores' final steps for a note of the one term: saturated, times its title factor.
  const finish = (doc: number, x: number): void => {
    sum[doc] += bm25Saturate(x, idf, BM25F);
    const named = offsets[doc + 1] - offsets[doc] > 1 ? -1 : titleNamed(doc, offsets, stems, planStems, idfs);
    const bonus = named > 0 ? titleFactor(named / mass) : 1;
    const score = (sum[doc] *= bonus);
    count[doc] = 1;
    docs[scored++] = doc;
    best.offer(score);
    candidates.all.offer(doc, score);
  };
  for (let i = walk.blocks - 1; i >= 0; i--) {
    const key = keys[i];
    const b = key % MAX_BLOCKS;
    F32_BITS[0] = (key - b) / MAX_BLOCKS;
    if (!best.admits(F32[0])) break;
    c.at = b === 0 ? 0 : skips[2 * b - 1];
    c.doc = b === 0 ? 0 : skips[2 * b - 2];
    const end = b + 1 < walk.blocks ? skips[2 * b + 1] : walk.end;
    let doc = -1;
    let x = 0;
    while (c.at < end && c.next()) {
      const d = c.doc;
      // A tombstoned note is in no view.
      if (visible[d] !== 1) continue;
      if (d !== doc) {
        if (doc >= 0) finish(doc, x);
        doc = d;
        x = 0;
      }
      const code = c.code;
      const f = postingField(code);
      x += fieldFrequency(weights[f], postingFrequency(code), normalizer[f], fieldLen[d * FIELD_COUNT + f], BM25F);
    }
    if (doc >= 0) finish(doc, x);
  }
  scratch.used = scored;
  return {
    docs,
    length: df,
    score: sum,
    allTermsCount: df,
    candidates,
    allTerms: (doc) => count[doc] === 1,
    missing: () => [],
  };
}

/**
 * The largest title factor of a note in each block of a one-term query's list: the factor of a
 * visible note whose title is that term's stem alone, in the block its doc id falls in (whether
 * or not it holds the term: a bound may be high), else 1.
 */
function titledBlocks(
  skips: Uint32Array,
  blocks: number,
  planStems: Int32Array,
  idfs: readonly number[],
  mass: number,
  titles: TitleStemTable,
  view: CorpusView,
): Float64Array {
  const factors = new Float64Array(blocks).fill(1);
  const stem = planStems[0];
  if (stem < 0) return factors;
  const { offsets, stems } = titles;
  const { visible } = view;
  for (let doc = 0; doc < visible.length; doc++) {
    const from = offsets[doc];
    if (offsets[doc + 1] - from !== 1 || stems[from] !== stem || visible[doc] !== 1) continue;
    const named = titleNamed(doc, offsets, stems, planStems, idfs);
    if (named <= 0) continue;
    // The block of doc: the last skip entry whose base is below it starts it (PostingLists.seek).
    let lo = 0;
    let hi = blocks - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (skips[mid * 2] < doc) lo = mid + 1;
      else hi = mid;
    }
    factors[lo] = Math.max(factors[lo], titleFactor(named / mass));
  }
  return factors;
}
