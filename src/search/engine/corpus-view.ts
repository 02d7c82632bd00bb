/** Plain shapes the term index and its scoring passes share, and the loop that clears a sheet (apart from term-index.ts, so the passes' modules need not import it for them). */

/**
 * Scores summed per document for one query term: `values` by doc id, and the ids with a score in
 * first-scored order, `docs[0]` to `docs[count - 1]` (typed, with room for every doc id: a common
 * word lists most of 100k notes, and pushing them onto a growing array cost more than scoring them).
 */
export interface ScoreSheet {
  values: Float64Array;
  docs: Int32Array;
  count: number;
}

/**
 * Sets `values[holders[i]]` to 0 for the first `listed` holders (a score sheet's or scratch's
 * values made zero again after a term was read into them). A function of its own: its callers
 * run once a query, too seldom for V8 to compile them soon, and this loop (tens of thousands of
 * holders at 100k notes) would run interpreted inside them.
 */
export function zeroAt(values: Float64Array, holders: Int32Array, listed: number): void {
  for (let i = 0; i < listed; i++) values[holders[i]] = 0;
}

/**
 * What one caller may see of the index, and the BM25 statistics counted over it: built by
 * TermIndex.view (term-index.ts), valid while the index's version is unchanged.
 */
export interface CorpusView {
  /** 1 for each live document the caller may see, by doc id. */
  visible: Uint8Array;
  /** Number of visible documents (BM25's N). */
  count: number;
  /** Each field's length summed over the visible documents (terms). */
  fieldTotal: Float64Array;
}
