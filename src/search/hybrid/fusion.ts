/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): a note's fused score is
 * Σ 1 / (k + rank) over the ranked lists it appears in (rank from 1). It needs no score
 * calibration between BM25-like lexical scores and cosine similarities, which is why hybrid
 * search uses it.
 */

/** The constant of the original paper; larger values flatten the head of each list. */
export const RRF_K = 60;

/** One fused entry: the key, its fused score, and which lists (by index) held it. */
export interface FusedEntry {
  key: string;
  score: number;
  /** Indexes of the input lists the key appeared in, ascending. */
  lists: number[];
}

/**
 * Fuses ranked lists of keys (best first; a key repeated in one list counts at its first rank).
 * @param lists the ranked lists
 * @param k the RRF constant
 * @returns every key once, best fused score first; ties keep the order of first appearance
 */
export function fuseByRank(lists: ReadonlyArray<readonly string[]>, k = RRF_K): FusedEntry[] {
  const fused = new Map<string, FusedEntry>();
  lists.forEach((list, which) => {
    const seen = new Set<string>();
    list.forEach((key, i) => {
      if (seen.has(key)) return;
      seen.add(key);
      const entry = fused.get(key) ?? { key, score: 0, lists: [] };
      entry.score += 1 / (k + i + 1);
      entry.lists.push(which);
      fused.set(key, entry);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
