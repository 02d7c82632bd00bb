/**
 * BM25F scoring (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and
 * Beyond", 2009, §3.3, the simple BM25F), as named functions over plain numbers: a query
 * term's pseudo-frequency in a document is `Σ_fields boost_f · tf_f / (1 − b + b · len_f /
 * avglen_f)` ({@link fieldFrequency}), saturated once as `idf · x · (k1 + 1) / (k1 + x)`
 * ({@link bm25Saturate}) with `idf = ln(1 + (N − df + 0.5) / (df + 0.5))` ({@link bm25Idf}).
 */

/** BM25's parameters: `k1` the frequency saturation, `b` how much field length normalizes (0 none, 1 full). */
export interface BM25Params {
  k1: number;
  b: number;
}

/**
 * The parameters the index scores with: b = 0.75 as usual (the paper above, §3.1), and k1 = 2, the
 * top of the usual 1.2–2 range: field weights add up before the one saturation, so a low k1 lets a
 * long note that repeats every query word reach the ceiling as a note about them does (chosen on
 * the bench's tuning half: help MRR@10 0.71 → 0.74 for natural-language questions, PowerShell
 * unchanged there; 3 gave the same; docs/performance.md#search-quality).
 */
export const BM25F: Readonly<BM25Params> = { k1: 2, b: 0.75 };

/**
 * Inverse document frequency of a term held by `df` of `count` documents (the "+1" inside the
 * log keeps it positive for terms in more than half the documents).
 * @returns idf ≥ 0; 0 when `df` is 0 (the term scores nothing)
 */
export function bm25Idf(count: number, df: number): number {
  return df === 0 ? 0 : Math.log(1 + (count - df + 0.5) / (df + 0.5));
}

/**
 * Per-field length normalizers: `b / avglen_f` for each field, so that a field of length `len`
 * divides its frequency by `1 − b + normalizer_f · len` ({@link fieldFrequency}).
 * @param fieldTotal each field's length summed over the `count` documents (terms)
 */
export function lengthNormalizers(fieldTotal: ArrayLike<number>, count: number, params: BM25Params = BM25F): Float64Array {
  const out = new Float64Array(fieldTotal.length);
  for (let f = 0; f < out.length; f++) out[f] = params.b / (fieldTotal[f] / Math.max(1, count) || 1);
  return out;
}

/**
 * One field's contribution to a term's pseudo-frequency: `weight · tf / (1 − b + normalizer · len)`.
 * @param weight the field's boost times the expansion's weight
 * @param tf the term's frequency in the field; `len` the field's length in terms
 */
export function fieldFrequency(weight: number, tf: number, normalizer: number, len: number, params: BM25Params = BM25F): number {
  return (weight * tf) / (1 - params.b + normalizer * len);
}

/** A term's BM25 score from its pseudo-frequency `x` (summed {@link fieldFrequency}) and its idf; bounded by `idf · (k1 + 1)`. */
export function bm25Saturate(x: number, idf: number, params: BM25Params = BM25F): number {
  return (idf * x * (params.k1 + 1)) / (params.k1 + x);
}
