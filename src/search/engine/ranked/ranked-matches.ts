import type { QueryNode } from '../../query/parser/query-ast';
import type { NoteRecord } from '../../query/note-filters';
import { LazyMatch, type EngineMatch, type MatchedTerms } from '../engine-match';
import type { EngineResult } from '../engine-match';
import { denseScores } from './ranked-dense';
import { prunedScores } from './ranked-pruning';
import { planRanked, rankedScores, type RankedHits, type RankingScratch } from './ranked-search';
import type { Expansion, TermIndex } from '../term-index';
import type { CorpusView } from '../corpus-view';
import type { TitleStemTable } from './title-stems';

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
  /** The title stems of the documents (for the title factor). */
  titles: TitleStemTable;
  /** The per-document arrays the scores are summed in (the engine's own, reused between queries). */
  scratch: RankingScratch;
}

/**
 * Ranks the notes of `source.view` for the plain word nodes `words` (see ranked-search.ts):
 * ordered by tier (every term held first), then score descending, then path ascending. Only
 * the best `ranked` are ordered: the `ranked`-th best score of each tier is found as the scores
 * are (TopCandidates), and only the notes scoring at least that are sorted.
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
  // The same hits, page and scores either way; pruning works out fewer scores (ranked-dense.ts, ranked-pruning.ts).
  const hits =
    denseScores(plan, index, source.boosts, view, source.titles, source.scratch, ranked) ??
    prunedScores(plan, index, source.boosts, view, source.titles, source.scratch, ranked) ??
    rankedScores(plan, index, source.boosts, view, source.titles, source.scratch, ranked);
  const expansions = plan.terms.flatMap((t) => t.expansions);
  const terms: MatchedTerms = (path) => matchedTerms(path, expansions);
  const wanted = Math.min(ranked, hits.length);
  const fromAll = Math.min(wanted, hits.allTermsCount);
  const best = [...bestOfTier(hits, true, fromAll, source), ...bestOfTier(hits, false, wanted - fromAll, source)];
  const matches: EngineMatch[] = [];
  for (const { doc, score, note } of best) {
    const all = hits.allTerms(doc);
    matches.push(new LazyMatch(note, score, terms, undefined, { all, missing: all ? () => [] : () => hits.missing(doc) }));
  }
  return {
    matches,
    total: hits.length,
    ranked: { terms: plan.terms.map((t) => t.word), ignored: plan.ignored, allTerms: hits.allTermsCount },
  };
}

/** A scored hit being ordered. */
interface Ranked {
  doc: number;
  score: number;
  note: NoteRecord;
}

/**
 * The best `k` hits of one tier (holding every term, or not), score descending then path
 * ascending: the tier's candidates scoring at least its k-th best score, sorted, the first k.
 * A doc id without a record (removed) is skipped.
 */
function bestOfTier(hits: RankedHits, allTerms: boolean, k: number, source: RankedSource): Ranked[] {
  if (k <= 0) return [];
  const tier = allTerms ? hits.candidates.all : hits.candidates.some;
  const floor = tier.floor(k);
  const { score } = hits;
  const out: Ranked[] = [];
  for (const doc of tier.items) {
    if (score[doc] < floor) continue;
    const note = source.note(doc);
    if (note !== undefined) out.push({ doc, score: score[doc], note });
  }
  out.sort(byRankAndPath);
  out.length = Math.min(out.length, k);
  return out;
}

/** Score descending, then path ascending. */
const byRankAndPath = (a: Ranked, b: Ranked): number =>
  b.score - a.score || (a.note.path < b.note.path ? -1 : a.note.path > b.note.path ? 1 : 0);
