/**
 * What hybrid search fuses: the candidate lists in fusion order, the widened any-word query,
 * and which half a fused hit came from.
 */
import type { ScoredKey } from './fusion';

/** Candidates taken from each ranking before fusion (the lexical index's page limit). */
export const FUSION_POOL = 100;

/**
 * The ranked lists hybrid search fuses, in the order HYBRID_FUSION's weights follow: the notes
 * holding every word of the query, the notes holding any of them (so a note with every word is
 * in both, and a question in words the notes only partly use still has lexical candidates),
 * and the notes nearest in meaning.
 * @param allTerms hits of the query as given (its words ANDed), best first
 * @param anyTerms hits of the same words ORed, best first (for a one-word query, `allTerms` again)
 * @param semantic the semantic index's nearest notes, best first
 */
export function hybridLists(allTerms: readonly ScoredKey[], anyTerms: readonly ScoredKey[], semantic: readonly ScoredKey[]): Array<readonly ScoredKey[]> {
  return [allTerms, anyTerms, semantic];
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

/** Most words a widened query ORs (a longer question keeps its first words). */
export const ANY_WORDS_MAX = 32;

/**
 * The words of a plain query each quoted (so words such as "or" stay words) and joined by OR:
 * the query hybrid search widens its lexical candidates with.
 * @returns '' for a query without words
 */
export function anyWordsQuery(query: string): string {
  return query
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/"/g, ''))
    .filter((w) => w !== '')
    .slice(0, ANY_WORDS_MAX)
    .map((w) => `"${w}"`)
    .join(' OR ');
}
