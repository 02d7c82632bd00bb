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
 * What a parsed query is to the lexical engine, the one judgement of "plain words or filter"
 * that {@link plainWords} (ranked retrieval or filter) and hybrid search (fuse with semantic
 * ranking or answer lexically, src/search/hybrid/mode-search.ts) both follow:
 * - `words`: plain words, ranked (`remote session`, `alpha & beta`);
 * - `syntax`: search syntax makes it a filter: quotes, parentheses (even around plain words,
 *   `alpha (beta)`), `-`, `OR`, any operator (`tag:`, `path:`, `line:`, `match-case:`…), a
 *   property filter (`[status:done]`, `has:`), a `/regex/` or a `regex: true` query;
 * - `unsegmented`: plain words, one of them in a script written without spaces (CJK and the
 *   like, tokenizer.ts hasUnsegmented), which is checked on the text like a phrase: a filter;
 * - `symbols`: plain words none of which has index terms (`&`, `->`): found as written, a filter.
 */
export type QueryShape = 'words' | 'syntax' | 'unsegmented' | 'symbols';

/**
 * The {@link QueryShape} of a parsed query (the word nodes of a `words` query: {@link plainWords}).
 * A `words` query is one index-decided word, or words side by side outside any parentheses, at
 * least one of them index-decided; a word without index terms (`&`, `+`, `->`) beside them stays
 * in it for the ranked plan to report as ignored (planRanked).
 * @param node a query from parseQuery or regexQuery (query-parser.ts)
 * @returns `syntax` when any node is not a bare word, or a word is grouped; else `unsegmented`
 *   when a word with index terms is not index-decided (decidedByIndex); else `symbols` when no
 *   word is index-decided; else `words`
 */
export function queryShape(node: QueryNode): QueryShape {
  const words = node.kind === 'and' && node.grouped !== true ? node.children : [node];
  if (words.some((w) => w.kind !== 'word' || w.grouped === true)) return 'syntax';
  let decided = false;
  for (const w of words as Array<Extract<QueryNode, { kind: 'word' }>>) {
    if (decidedByIndex(w.text)) decided = true;
    else if (queryTerms(w.text).length > 0) return 'unsegmented';
  }
  return decided ? 'words' : 'symbols';
}

/**
 * The word nodes of a query of plain words (most queries: `remote session`), the queries
 * {@link queryShape} calls `words`.
 * @returns the word nodes in query order, or null for a filter query (any operator, quotes,
 *   `-`, OR, parentheses, or words in unsegmented scripts, which are checked like phrases)
 */
export function plainWords(node: QueryNode): QueryNode[] | null {
  if (queryShape(node) !== 'words') return null;
  return node.kind === 'and' ? node.children : [node];
}

/** The word and phrase nodes (with index terms) every match of `node` must contain (inside `line:(…)`, `match-case:`… too). */
export function requiredNodes(node: QueryNode): QueryNode[] {
  if ((node.kind === 'word' || node.kind === 'phrase') && queryTerms(node.text).length > 0) return [node];
  if (node.kind === 'scope' || node.kind === 'case') return requiredNodes(node.child);
  return node.kind === 'and' ? node.children.flatMap(requiredNodes) : [];
}
