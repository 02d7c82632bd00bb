/**
 * Fusion of ranked lists for hybrid search, two named families:
 * - {@link fuseByRank}: weighted reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR
 *   2009, with a weight per list): Σ wᵢ / (k + rankᵢ) over the lists a key appears in.
 * - {@link fuseByScore}: a convex combination of normalized scores (CombSUM, Fox & Shaw 1994,
 *   over scores normalized per list): Σ wᵢ · norm(scoreᵢ), a key absent from a list adding 0.
 *   Unlike ranks, normalized scores keep how far ahead a list's best hit is, so a list that is
 *   sure of one note outweighs one that is not.
 * {@link HYBRID_FUSION} is what `search` uses in hybrid mode; its values were chosen on one
 * half of the bench's labelled questions and checked on the other (docs/performance.md#search-quality).
 */

/** The constant of the original RRF paper; larger values flatten the head of each list. */
export const RRF_K = 60;

/** One fused entry: the key, its fused score, and which lists (by index) held it. */
export interface FusedEntry {
  key: string;
  score: number;
  /** Indexes of the input lists the key appeared in, ascending. */
  lists: number[];
}

/** One entry of a scored list: higher score = better. */
export interface ScoredKey {
  key: string;
  score: number;
}

/**
 * How a list's scores become comparable across lists:
 * - `min-max`: (s − min) / (max − min) over the list (all equal → 1);
 * - `max`: s / max (scores ≥ 0 expected; the best hit is 1, the others keep their ratio);
 * - `z`: (s − mean) / standard deviation over the list (all equal → 0).
 */
export type ScoreNormalization = 'min-max' | 'max' | 'z';

/** A fusion and its parameters, as {@link fuse} applies it. */
export type FusionParams =
  | { method: 'rank'; /** RRF constant, > 0 */ k: number; /** weight per list, ≥ 0 */ weights: readonly number[] }
  | { method: 'score'; normalization: ScoreNormalization; /** weight per list, ≥ 0 */ weights: readonly number[] };

/**
 * The fusion hybrid search uses, weights in the order of candidates.ts `hybridLists` (the
 * lexical hits holding every word, the whole lexical ranking, the notes nearest in meaning):
 * a convex combination of max-normalized scores, 0.3 · every-word + 0.6 · lexical + 0.1 ·
 * semantic. The lexical half leads: the lexical top holding every word scores at least 0.9,
 * a note only the semantic half found at most 0.1, so an exact match is never buried; the
 * semantic half reorders notes whose lexical scores are close and adds notes the words miss.
 * Chosen by `npm run bench -- --only semantic --tune-fusion` (scripts/bench/quality/fusion-tuning.ts:
 * never below its better half in any class of either vault on the tuning half, then fewest
 * questions below, then the mean figure) with the npm word-vector model, which is weak next
 * to a sentence transformer: hence the small semantic weight. Reported on the held-out half
 * (docs/performance.md#search-quality).
 */
export const HYBRID_FUSION: FusionParams = { method: 'score', normalization: 'max', weights: [0.3, 0.6, 0.1] };

/**
 * Fuses ranked lists of keys by weighted reciprocal rank (a key repeated in one list counts at its first rank).
 * @param lists the ranked lists, best first
 * @param k the RRF constant (> 0)
 * @param weights one weight per list (≥ 0; a list of weight 0 is left out), all 1 when omitted
 * @returns every key once, best fused score first; ties keep the order of first appearance
 * @throws Error when k ≤ 0, or weights do not match the lists or are negative
 */
export function fuseByRank(
  lists: ReadonlyArray<readonly string[]>,
  k = RRF_K,
  weights: readonly number[] = lists.map(() => 1),
): FusedEntry[] {
  if (!(k > 0)) throw new Error(`fuseByRank: k must be > 0, got ${k}`);
  checkWeights(weights, lists.length, 'fuseByRank');
  const fused = new Map<string, FusedEntry>();
  lists.forEach((list, which) => {
    if (weights[which] === 0) return;
    const seen = new Set<string>();
    list.forEach((key, i) => {
      if (seen.has(key)) return;
      seen.add(key);
      const entry = fused.get(key) ?? { key, score: 0, lists: [] };
      entry.score += weights[which] / (k + i + 1);
      entry.lists.push(which);
      fused.set(key, entry);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * Fuses scored lists by a weighted sum of normalized scores (a key repeated in one list counts once, at its first entry).
 * @param lists the scored lists (any order; each list is normalized over its own entries)
 * @param normalization see {@link ScoreNormalization}
 * @param weights one weight per list (≥ 0; a list of weight 0 is left out)
 * @returns every key once, best fused score first; ties keep the order of first appearance
 * @throws Error when weights do not match the lists or are negative
 */
export function fuseByScore(
  lists: ReadonlyArray<readonly ScoredKey[]>,
  normalization: ScoreNormalization,
  weights: readonly number[],
): FusedEntry[] {
  checkWeights(weights, lists.length, 'fuseByScore');
  const fused = new Map<string, FusedEntry>();
  lists.forEach((list, which) => {
    if (weights[which] === 0) return;
    const seen = new Set<string>();
    const unique = list.filter((e) => !seen.has(e.key) && seen.add(e.key));
    const norm = normalizer(
      unique.map((e) => e.score),
      normalization,
    );
    for (const e of unique) {
      const entry = fused.get(e.key) ?? { key: e.key, score: 0, lists: [] };
      entry.score += weights[which] * norm(e.score);
      entry.lists.push(which);
      fused.set(e.key, entry);
    }
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * Fuses scored lists (best first) with `params`: by rank for `rank`, by normalized score for `score`.
 * @throws Error as {@link fuseByRank} / {@link fuseByScore} for bad parameters
 */
export function fuse(lists: ReadonlyArray<readonly ScoredKey[]>, params: FusionParams): FusedEntry[] {
  if (params.method === 'rank')
    return fuseByRank(
      lists.map((l) => l.map((e) => e.key)),
      params.k,
      params.weights,
    );
  return fuseByScore(lists, params.normalization, params.weights);
}

function normalizer(scores: readonly number[], normalization: ScoreNormalization): (s: number) => number {
  if (scores.length === 0) return () => 0;
  const max = Math.max(...scores);
  const min = Math.min(...scores);
  switch (normalization) {
    case 'min-max':
      return max === min ? () => 1 : (s) => (s - min) / (max - min);
    case 'max':
      return max <= 0 ? () => 1 : (s) => s / max;
    case 'z': {
      const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
      const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / scores.length);
      return sd === 0 ? () => 0 : (s) => (s - mean) / sd;
    }
  }
}

function checkWeights(weights: readonly number[], lists: number, fn: string): void {
  if (weights.length !== lists || weights.some((w) => !(w >= 0))) {
    throw new Error(`${fn}: want one weight ≥ 0 per list (${lists}), got [${weights.join(', ')}]`);
  }
}
