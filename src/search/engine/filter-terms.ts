import { combine } from '../query/query-plan';
import type { CorpusView, ExpandMode, Expansion, TermIndex } from './term-index';
import { queryTerms } from './tokenizer';

/** How one word or phrase of a filter query (any query with an operator) is looked up and scored in the term index. */

/** Hits of one word or phrase node: doc id → score, and the index terms it expanded to. */
export interface NodeHits {
  scores: Map<number, number>;
  expansions: Expansion[];
}

/**
 * Scores one word or phrase of a filter query: every term of it must match (AND), by its
 * expansions (no stemming: a filter keeps Obsidian's meaning); a note's score is the sum
 * over terms times the number of terms (MiniSearch's "quality" factor). Terms are scored
 * rarest first, each later one only over the notes still in the running.
 * @param mode how each term may expand (prefix, typo), by term
 * @param boosts field weights, by field number
 * @returns the visible notes holding every term, with their scores, and the expansions used
 */
export function scoreFilterWord(
  index: TermIndex,
  text: string,
  mode: (term: string) => ExpandMode,
  boosts: ArrayLike<number>,
  view: CorpusView,
): NodeHits {
  const terms = queryTerms(text);
  const expanded = terms.map((term) => index.expand(term, mode(term), view));
  const expansions = expanded.flat();
  const order = expanded.map((found) => ({ found, cost: index.postingCount(found) })).sort((a, b) => a.cost - b.cost);
  let scores: Map<number, number> | null = null;
  let within: Uint8Array | null = null;
  for (const { found } of order) {
    const sheet = index.sheet();
    index.score(found, boosts, view, sheet, within);
    scores = combine(scores, sheet);
    if (scores.size === 0) break;
    within = new Uint8Array(sheet.values.length);
    for (const doc of scores.keys()) within[doc] = 1;
  }
  const out = scores ?? new Map<number, number>();
  if (terms.length > 1) for (const [doc, score] of out) out.set(doc, score * terms.length);
  return { scores: out, expansions };
}
