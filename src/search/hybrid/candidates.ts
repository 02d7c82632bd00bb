/**
 * What hybrid search fuses: the candidate lists in fusion order and which half a fused hit
 * came from.
 */
import type { ScoredKey } from './fusion';

/** Candidates taken from each ranking before fusion (the lexical index's page limit). */
export const FUSION_POOL = 100;

/**
 * The ranked lists hybrid search fuses, in the order HYBRID_FUSION's weights follow: the lexical
 * hits holding every query word, the whole lexical ranking (partial matches after them, so a
 * note with every word is in both lists), and the notes nearest in meaning.
 * @param allTerms the lexical hits with `all_terms` (every hit of a one-word query), best first
 * @param lexical the lexical ranking of the query, best first
 * @param semantic the semantic index's nearest notes, best first
 */
export function hybridLists(
  allTerms: readonly ScoredKey[],
  lexical: readonly ScoredKey[],
  semantic: readonly ScoredKey[],
): Array<readonly ScoredKey[]> {
  return [allTerms, lexical, semantic];
}

/** Index of the semantic list in {@link hybridLists}. */
export const SEMANTIC_LIST = 2;

/**
 * A fused hit's `source` from the indexes of the {@link hybridLists} that held it: `semantic`
 * or `lexical` when only that half found it, `both` when each did.
 */
export function fusedSource(lists: readonly number[]): 'lexical' | 'semantic' | 'both' {
  const semantic = lists.includes(SEMANTIC_LIST);
  return semantic && lists.some((l) => l !== SEMANTIC_LIST) ? 'both' : semantic ? 'semantic' : 'lexical';
}
