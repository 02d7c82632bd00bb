import type { QueryNode } from './parser/query-ast';
import { decidedByIndex } from './query-eval';
import type { ExpandMode } from '../engine/term-index';
import { hasUnsegmented, queryTerms } from '../engine/text/tokenizer';

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
 * Words, included or excluded: prefix, and one edit ("light typo tolerance") from 5 characters,
 * tried only when the term is neither in the index nor a prefix of an index term (see
 * TermIndex.expand). An excluded word expands as an included one does, so `X -Y` never holds a
 * note that `X Y` finds (`-replika` drops the notes `replika` finds through "replica"), and
 * `-draft` does not drop "craft" notes while "draft" is in the index.
 */
export const wordMode = (term: string): ExpandMode => ({
  prefix: prefixable(term),
  fuzzy: term.length >= 5 && term.length <= MAX_EXPANDED_TERM && !hasUnsegmented(term),
});
/** Phrase candidates: every phrase term exactly (a lone CJK-like character by prefix); the order is then checked on the text. */
export const phraseMode = (term: string): ExpandMode => ({ prefix: hasUnsegmented(term) && [...term].length === 1, fuzzy: false });
/**
 * The word nodes of a query of plain words (most queries: `remote session`): one index-decided
 * word, or words side by side outside any parentheses, at least one of them index-decided. A
 * word without index terms (`&`, `+`, `->`) beside them is kept in the list for the ranked plan
 * to report as ignored (planRanked); alone, it stays a filter that finds it as written.
 * @returns the word nodes in query order, or null for a filter query (any operator, quotes,
 *   `-`, OR, parentheses, or words in unsegmented scripts, which are checked like phrases)
 */
export function plainWords(node: QueryNode): QueryNode[] | null {
  if (node.kind === 'word') return decidedByIndex(node.text) && node.grouped !== true ? [node] : null;
  if (node.kind !== 'and' || node.grouped === true) return null;
  let decided = false;
  for (const child of node.children) {
    if (child.kind !== 'word' || child.grouped === true) return null;
    if (decidedByIndex(child.text)) decided = true;
    else if (queryTerms(child.text).length > 0) return null;
  }
  return decided ? node.children : null;
}

/** The word and phrase nodes (with index terms) every match of `node` must contain (inside `line:(…)`, `match-case:`… too). */
export function requiredNodes(node: QueryNode): QueryNode[] {
  if ((node.kind === 'word' || node.kind === 'phrase') && queryTerms(node.text).length > 0) return [node];
  if (node.kind === 'scope' || node.kind === 'case') return requiredNodes(node.child);
  return node.kind === 'and' ? node.children.flatMap(requiredNodes) : [];
}
