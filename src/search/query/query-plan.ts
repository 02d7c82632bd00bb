import type { QueryNode } from './query-ast';
import { decidedByIndex } from './query-eval';
import type { ExpandMode } from '../engine/term-index';
import { hasUnsegmented, queryTerms } from '../engine/tokenizer';

/**
 * How LexicalEngine plans a query over the term index: how each kind of query term may
 * expand (prefix, typo), and which query shapes take the fast path.
 */

/**
 * Longest term, in UTF-16 code units, still expanded by prefix and fuzzy matching: a long
 * term is almost always meant exactly.
 */
export const MAX_EXPANDED_TERM = 32;
/** Prefix matching from 3 characters (or a lone CJK-like character, see tokenizer) up to MAX_EXPANDED_TERM. */
const prefixable = (term: string): boolean =>
  term.length <= MAX_EXPANDED_TERM && (term.length >= 3 || (hasUnsegmented(term) && [...term].length === 1));
/**
 * Positive words: prefix, and one edit ("light typo tolerance") from 5 characters, tried only
 * when the term is neither in the index nor a prefix of an index term (see TermIndex.expand).
 */
export const wordMode = (term: string): ExpandMode => ({
  prefix: prefixable(term),
  fuzzy: term.length >= 5 && term.length <= MAX_EXPANDED_TERM && !hasUnsegmented(term),
});
/** Excluded words: prefix only, so `-draft` does not drop notes that merely contain "craft". */
export const negatedMode = (term: string): ExpandMode => ({ prefix: prefixable(term), fuzzy: false });
/** Phrase candidates: every phrase term exactly (a lone CJK-like character by prefix); the order is then checked on the text. */
export const phraseMode = (term: string): ExpandMode => ({ prefix: hasUnsegmented(term) && [...term].length === 1, fuzzy: false });
/**
 * The word nodes of a query that is one index-decided word or an AND of such words (most
 * queries: `remote session`), else null.
 */
export function plainWords(node: QueryNode): QueryNode[] | null {
  if (node.kind === 'word') return decidedByIndex(node.text) ? [node] : null;
  if (node.kind !== 'and') return null;
  const out: QueryNode[] = [];
  for (const child of node.children) {
    const words = plainWords(child);
    if (words === null) return null;
    out.push(...words);
  }
  return out.length > 0 ? out : null;
}

/** The word and phrase nodes (with index terms) every match of `node` must contain (inside `line:(…)`, `match-case:`… too). */
export function requiredNodes(node: QueryNode): QueryNode[] {
  if ((node.kind === 'word' || node.kind === 'phrase') && queryTerms(node.text).length > 0) return [node];
  if (node.kind === 'scope' || node.kind === 'case') return requiredNodes(node.child);
  return node.kind === 'and' ? node.children.flatMap(requiredNodes) : [];
}
