import type { QueryNode } from '../query/query-ast';
import type { NoteRecord } from '../query/note-filters';
import { LazyMatch, type EngineMatch, type MatchedTerms } from './engine-match';
import type { EngineResult } from './engine-match';
import { planRanked, rankedScores } from './ranked-search';
import type { CorpusView, Expansion, TermIndex } from './term-index';
import { kthLargest } from './top-k';

/**
 * The matches of a ranked query (plain words, see ranked-search.ts) as the lexical engine
 * returns them: every visible note holding an informative term counts in `total`, and only
 * the best `ranked` become {@link EngineMatch}es, notes holding every term first.
 */

/** What a ranked query reads of the engine: its term index and field weights, the caller's view, and each doc id's record and title stems. */
export interface RankedSource {
  index: TermIndex;
  boosts: ArrayLike<number>;
  view: CorpusView;
  /** The record of a live doc id (undefined for a removed one). */
  note(doc: number): NoteRecord | undefined;
  /** The titleStems of a doc id's title. */
  title(doc: number): readonly string[];
}

/**
 * Ranks the notes of `source.view` for the plain word nodes `words` (see ranked-search.ts):
 * ordered by tier (every term held first), then score descending, then path ascending.
 * @param matchedTerms the index terms among the plan's expansions that a note holds, by path (for snippets)
 * @param ranked how many of the best matches to return (Infinity: all)
 * @returns the matches, `total` (every note holding a term) and what the query ranked by
 */
export function rankedMatches(
  words: readonly QueryNode[],
  source: RankedSource,
  matchedTerms: (path: string, expansions: readonly Expansion[]) => Set<string>,
  ranked: number,
): EngineResult {
  const { index, view } = source;
  const plan = planRanked(
    words.map((w) => (w.kind === 'word' ? w.text : '')),
    index,
    view,
  );
  const hits = rankedScores(plan, index, source.boosts, view, (doc) => source.title(doc));
  const expansions = plan.terms.flatMap((t) => t.expansions);
  const terms: MatchedTerms = (path) => matchedTerms(path, expansions);
  let ceiling = 0;
  for (const doc of hits.docs) ceiling = Math.max(ceiling, hits.score[doc]);
  // Tier first: a note holding every term keys above any note that does not.
  const keys = new Float64Array(hits.docs.length);
  let allTerms = 0;
  hits.docs.forEach((doc, i) => {
    const all = hits.allTerms(doc);
    if (all) allTerms++;
    keys[i] = hits.score[doc] + (all ? ceiling + 1 : 0);
  });
  const threshold = kthLargest(keys, Math.min(ranked, keys.length));
  const matches: EngineMatch[] = [];
  hits.docs.forEach((doc, i) => {
    const note = source.note(doc);
    if (keys[i] < threshold || note === undefined) return;
    const all = hits.allTerms(doc);
    matches.push(new LazyMatch(note, hits.score[doc], terms, undefined, { all, missing: all ? () => [] : () => hits.missing(doc) }));
  });
  matches.sort(byTierAndRank);
  return {
    matches: matches.slice(0, ranked),
    total: hits.docs.length,
    ranked: { terms: plan.terms.map((t) => t.word), ignored: plan.ignored, allTerms },
  };
}

/** Notes holding every term first, then score descending, then path ascending. */
const byTierAndRank = (a: EngineMatch, b: EngineMatch): number =>
  Number(b.allTerms === true) - Number(a.allTerms === true) ||
  b.score - a.score ||
  (a.note.path < b.note.path ? -1 : a.note.path > b.note.path ? 1 : 0);
