import { BM25F, bm25Idf, bm25Saturate } from '../ranked/bm25';
import type { ExpandMode, Expansion, TermIndex } from '../term-index';
import { zeroAt, type CorpusView, type ScoreSheet } from '../corpus-view';
import { queryTerms } from '../text/tokenizer';

/** How one word or phrase of a filter query (any query with an operator) is looked up and scored in the term index. */

/**
 * Hits of one word or phrase node: its score by doc id in a dense array (0 for a note that
 * does not hold every term: a held term always scores above 0, every weight and boost being
 * positive), the doc ids that score, and the index terms it expanded to. Dense by doc id
 * because the filter looks a note's score up once per node and note, tens of thousands of
 * times at 100k notes, where a Map lookup costs a cache miss or two. The arrays are lent by a
 * {@link FilterScratch}: the caller gives them back ({@link FilterScratch.give}) once it no longer reads them.
 */
export interface NodeHits {
  values: Float64Array;
  /** The doc ids with a score above 0, in first-scored order (read only). */
  docs: Int32Array;
  expansions: Expansion[];
}

/** Arrays of each kind {@link FilterScratch} keeps for lending (a query holds one pair per word or phrase, two queries may overlap). */
const POOLED = 8;

/**
 * Per-document arrays {@link scoreFilterWord} works in, kept between calls (one per engine): a
 * phrase of two common words at 100k notes took about 1.7 MB of fresh typed arrays for them per
 * query, and V8 counts such allocations toward starting a collection of the whole heap. Not for
 * two calls at once (scoring is synchronous). Between calls `pending` is all zero.
 *
 * It also lends the arrays a word's hits are kept in ({@link lend}, {@link give}): they outlive
 * the call (a filter query reads them until its text pass ends, across awaits, so two queries may
 * hold some at once), and a fresh `Float64Array` of 100k doc ids per word and query cost more than
 * scoring an excluded common word (measured at generated 100k notes: docs/performance.md).
 */
export class FilterScratch {
  /** A later term's pseudo-frequencies by doc id (TermIndex.frequencies); zero again after each term. */
  pending = new Float64Array(0);
  /** The documents TermIndex.frequencies lists for a later term. */
  listed = new Int32Array(0);
  /** 1 for the documents still in the running of an excluded word of several terms, by doc id (cleared before each use). */
  within = new Uint8Array(0);
  /** Buffers of score arrays given back, all zero. */
  private readonly freeValues: ArrayBuffer[] = [];
  /** Buffers of doc id lists given back (any content). */
  private readonly freeDocs: ArrayBuffer[] = [];

  /** Makes room for doc ids below `n` (new arrays start at zero). */
  cover(n: number): void {
    if (this.pending.length >= n) return;
    const size = Math.max(n, Math.ceil(this.pending.length * 1.25));
    this.pending = new Float64Array(size);
    this.listed = new Int32Array(size);
    this.within = new Uint8Array(size);
  }

  /**
   * An empty score sheet for doc ids below `n` (values all 0, room for `n` listed), made of
   * buffers given back when there are some large enough, else new ones with room for a few more
   * notes; it stays the caller's until given back.
   */
  lend(n: number): ScoreSheet {
    const room = n + (n >>> 4) + 64;
    const values = takeBuffer(this.freeValues, n * 8) ?? new ArrayBuffer(room * 8);
    const docs = takeBuffer(this.freeDocs, n * 4) ?? new ArrayBuffer(room * 4);
    return { values: new Float64Array(values, 0, n), docs: new Int32Array(docs, 0, n), count: 0 };
  }

  /**
   * Takes back the arrays of a sheet or of hits made from {@link lend}'s (their values zeroed
   * here): the caller must not read them after, nor give them twice. Arrays not lent here (empty
   * ones) are let go.
   */
  give(values: Float64Array, docs: Int32Array): void {
    if (values.byteLength > 0 && this.freeValues.length < POOLED) {
      values.fill(0);
      this.freeValues.push(values.buffer as ArrayBuffer);
    }
    if (docs.byteLength > 0 && this.freeDocs.length < POOLED) this.freeDocs.push(docs.buffer as ArrayBuffer);
  }
}

/** A buffer of `free` with at least `bytes` bytes (smaller ones are dropped: the index outgrew them), or null. */
function takeBuffer(free: ArrayBuffer[], bytes: number): ArrayBuffer | null {
  for (let b = free.pop(); b !== undefined; b = free.pop()) if (b.byteLength >= bytes) return b;
  return null;
}

/**
 * Scores one word or phrase of a filter query: every term of it must match (AND), by its
 * expansions (no stemming: a filter keeps Obsidian's meaning); a note's score is the sum
 * over terms times the number of terms (MiniSearch's "quality" factor). Terms are scored
 * rarest first, each later one only over the notes still in the running.
 * @param mode how each term may expand (prefix, typo), by term
 * @param boosts field weights, by field number
 * @param scored false for a word whose score is never read (an excluded one: a negation scores
 *   0 whatever it holds): its holders are only marked (TermIndex.mark), each with a value above 0
 *   but not its score, which costs a fraction of scoring at 100k notes
 * @param scratch the arrays the terms after the first are scored in (its `pending` all zero, as every call leaves it),
 *   and that lends the hits' arrays
 * @returns the visible notes holding every term, with their scores (or marks), and the expansions
 *   used; its arrays are lent by `scratch`, to give back there
 */
export function scoreFilterWord(
  index: TermIndex,
  text: string,
  mode: (term: string) => ExpandMode,
  boosts: ArrayLike<number>,
  view: CorpusView,
  scratch: FilterScratch,
  scored = true,
): NodeHits {
  const terms = queryTerms(text);
  const expanded = terms.map((term) => index.expand(term, mode(term), view));
  const expansions = expanded.flat();
  const order = expanded.map((found) => ({ found, cost: index.postingCount(found) })).sort((a, b) => a.cost - b.cost);
  const span = index.docSpan;
  let values: Float64Array | null = null;
  // The notes still in the running, in first-scored order: `docs` from 0 to `held` (ruled-out ones are dropped in place).
  let docs: Int32Array = new Int32Array(0);
  let held = 0;
  // A scored word of several terms: its first term's pseudo-frequencies stay in `values` and its holders in `docs`, each
  // saturated (with `firstIdf`) in the second term's pass, only for the notes holding both: one pass over them fewer
  // than TermIndex.score's.
  let unsaturated = false;
  let firstIdf = 0;
  let step = 0;
  for (const { found } of order) {
    const last = step === order.length - 1;
    if (values === null) {
      const sheet = scratch.lend(span);
      values = sheet.values;
      docs = sheet.docs;
      if (scored && !last) {
        held = index.frequencies(found, boosts, view, values, docs);
        firstIdf = bm25Idf(view.count, held);
        unsaturated = true;
      } else {
        if (scored) index.score(found, boosts, view, sheet);
        else index.mark(found, view, sheet);
        held = sheet.count;
      }
    } else if (scored) {
      // Every visible holder of the term is read (its count is the idf's document frequency), those out of the running too:
      // the same loop ranked queries run, so V8's code for it serves both (docs/performance.md, session 40).
      const { pending, listed } = scratch;
      const holders = index.frequencies(found, boosts, view, pending, listed);
      const idf = bm25Idf(view.count, holders);
      // TermIndex.score's saturation as each note still in the running is kept, in their order (the list is the query's candidate
      // order); the last term's pass also takes the factor.
      held = keepHolders(docs, held, values, pending, idf, unsaturated ? firstIdf : -1, last ? terms.length : 1);
      zeroAt(pending, listed, holders);
      unsaturated = false;
    } else {
      const sheet = scratch.lend(span);
      index.mark(found, view, sheet, scratch.within);
      let kept = 0;
      for (let i = 0; i < held; i++) {
        const doc = docs[i];
        const other = sheet.values[doc];
        if (other > 0) {
          values[doc] += other;
          docs[kept++] = doc;
        } else values[doc] = 0;
      }
      held = kept;
      scratch.give(sheet.values, sheet.docs);
    }
    if (held === 0 || ++step === order.length) break;
    scratch.cover(span);
    // An excluded word's later terms only mark the notes still in the running (TermIndex.mark's `within`).
    if (!scored) markWithin(scratch.within, docs, held);
  }
  return { values: values ?? new Float64Array(0), docs: docs.subarray(0, held), expansions };
}

/** Sets `within` to 1 at the first `held` doc ids of `docs` and 0 elsewhere. */
function markWithin(within: Uint8Array, docs: Int32Array, held: number): void {
  within.fill(0);
  for (let i = 0; i < held; i++) within[docs[i]] = 1;
}

/**
 * One later term's pass over the notes still in the running (`docs` 0 to `held`): a note whose
 * `pending` pseudo-frequency is above 0 keeps its value plus the term's saturated score (the sum
 * times `factor`), moved down in place in `docs`; any other is ruled out (value 0). `pending` is
 * left as it is (the caller zeroes every holder it listed). Its own function, over typed arrays, so V8
 * compiles the loop alone (70k notes a common phrase at 100k notes; the pushes onto a growing
 * array it made before cost ten times the arithmetic).
 * @param firstIdf the first term's idf when `values` still holds its unsaturated pseudo-frequencies (saturated here), else -1
 * @returns how many notes are kept
 */
function keepHolders(
  docs: Int32Array,
  held: number,
  values: Float64Array,
  pending: Float64Array,
  idf: number,
  firstIdf: number,
  factor: number,
): number {
  let kept = 0;
  for (let i = 0; i < held; i++) {
    const doc = docs[i];
    const x = pending[doc];
    const other = x > 0 ? bm25Saturate(x, idf, BM25F) : 0;
    if (other > 0) {
      values[doc] = ((firstIdf >= 0 ? bm25Saturate(values[doc], firstIdf, BM25F) : values[doc]) + other) * factor;
      docs[kept++] = doc;
    } else values[doc] = 0;
  }
  return kept;
}
