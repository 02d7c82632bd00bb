import { BM25F, bm25Idf, bm25Saturate } from './bm25';
import type { CorpusView, ExpandMode, Expansion, TermIndex } from './term-index';
import { queryTerms } from './tokenizer';

/** How one word or phrase of a filter query (any query with an operator) is looked up and scored in the term index. */

/**
 * Hits of one word or phrase node: its score by doc id in a dense array (0 for a note that
 * does not hold every term: a held term always scores above 0, every weight and boost being
 * positive), the doc ids that score, and the index terms it expanded to. Dense by doc id
 * because the filter looks a note's score up once per node and note, tens of thousands of
 * times at 100k notes, where a Map lookup costs a cache miss or two.
 */
export interface NodeHits {
  values: Float64Array;
  /** The doc ids with a score above 0, in first-scored order. */
  docs: number[];
  expansions: Expansion[];
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
 * @returns the visible notes holding every term, with their scores (or marks), and the expansions used
 */
export function scoreFilterWord(
  index: TermIndex,
  text: string,
  mode: (term: string) => ExpandMode,
  boosts: ArrayLike<number>,
  view: CorpusView,
  scored = true,
): NodeHits {
  const terms = queryTerms(text);
  const expanded = terms.map((term) => index.expand(term, mode(term), view));
  const expansions = expanded.flat();
  const order = expanded.map((found) => ({ found, cost: index.postingCount(found) })).sort((a, b) => a.cost - b.cost);
  let values: Float64Array | null = null;
  let docs: number[] = [];
  let within: Uint8Array | null = null;
  // A scored word of several terms: its first term's pseudo-frequencies stay in `values` and its holders in `first`, each saturated
  // (with `firstIdf`) in the second term's pass, only for the notes holding both: one pass over them fewer than TermIndex.score's.
  let first: Int32Array | null = null;
  let firstCount = 0;
  let firstIdf = 0;
  // A later term's pseudo-frequencies by doc id and the notes listed with one (TermIndex.frequencies; zero again after each term).
  let pending: Float64Array | null = null;
  let listed: Int32Array | null = null;
  let step = 0;
  for (const { found } of order) {
    const last = step === order.length - 1;
    if (values === null) {
      const sheet = index.sheet();
      values = sheet.values;
      if (scored && !last) {
        first = new Int32Array(values.length);
        const held = index.frequencies(found, boosts, view, values, first);
        firstCount = held.listed;
        firstIdf = bm25Idf(view.count, held.df);
      } else {
        if (scored) index.score(found, boosts, view, sheet, within);
        else index.mark(found, view, sheet, within);
        docs = sheet.docs;
      }
    } else if (scored) {
      pending ??= new Float64Array(values.length);
      listed ??= new Int32Array(values.length);
      const idf = bm25Idf(view.count, index.frequencies(found, boosts, view, pending, listed, within).df);
      // TermIndex.score's saturation as each note still in the running is kept, in their order (the list is the query's candidate
      // order); the last term's pass also takes the factor.
      const factor = last ? terms.length : 1;
      if (first !== null) {
        const kept: number[] = [];
        for (let i = 0; i < firstCount; i++) {
          const doc = first[i];
          const x = pending[doc];
          pending[doc] = 0;
          const other = x > 0 ? bm25Saturate(x, idf, BM25F) : 0;
          if (other > 0) {
            values[doc] = (bm25Saturate(values[doc], firstIdf, BM25F) + other) * factor;
            kept.push(doc);
          } else values[doc] = 0;
        }
        docs = kept;
        first = null;
      } else {
        let kept = 0;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i];
          const x = pending[doc];
          pending[doc] = 0;
          const other = x > 0 ? bm25Saturate(x, idf, BM25F) : 0;
          if (other > 0) {
            values[doc] = (values[doc] + other) * factor;
            docs[kept++] = doc;
          } else values[doc] = 0;
        }
        docs.length = kept;
      }
    } else {
      const sheet = index.sheet();
      index.mark(found, view, sheet, within);
      let kept = 0;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i];
        const other = sheet.values[doc];
        if (other > 0) {
          values[doc] += other;
          docs[kept++] = doc;
        } else values[doc] = 0;
      }
      docs.length = kept;
    }
    const held = first !== null ? firstCount : docs.length;
    if (held === 0 || ++step === order.length) break;
    if (within === null) within = new Uint8Array(values.length);
    else within.fill(0);
    if (first !== null) for (let i = 0; i < firstCount; i++) within[first[i]] = 1;
    else for (let i = 0; i < docs.length; i++) within[docs[i]] = 1;
  }
  return { values: values ?? new Float64Array(0), docs, expansions };
}
