import type { QueryNode } from '../../query/parser/query-ast';
import type { NoteRecord } from '../../query/note-filters';
import type { TermLookup } from '../../query/eval-types';
import { noteFilter } from '../../query/stretches/scope-eval';
import { transparent } from '../../query/query-eval';
import type { NodeHits } from './filter-terms';
import { FirstInOrder } from '../ranked/top-k';

/**
 * A filter query the index decides alone (no phrase, regex on the body, text operator or word
 * the index cannot decide: `needsText` is false), compiled once per query into a test by doc
 * id, so a candidate costs a few array reads instead of a walk of the query tree with a lookup
 * by path per node (`evaluate`), and the best matches are chosen from two flat arrays instead
 * of one match object per candidate (at 100k notes `tag:#x` alone tests every note, and
 * `tokatra -tokape` about 21k of them).
 */

/** What {@link DocScorer} answers for a note that does not match (every real score is ≥ 0). */
export const NO_MATCH = -1;

/** A compiled filter: the note's score for doc id `doc` (what `evaluate` gives it), or {@link NO_MATCH}. */
export type DocScorer = (doc: number) => number;

/**
 * Compiles `node` into a {@link DocScorer} that answers, for every live doc id, what
 * `evaluate(node, note, lookup)` answers without the text: the same verdict, and the same score
 * bit for bit (the scores of the positive words it holds, summed in the query's order from 0,
 * as `evaluate` sums them; a negation or note filter adds 0).
 * @param hits each word node's scores by doc id (LexicalEngine's lookup: above 0 when the note holds it)
 * @param note the record of a live doc id
 * @param lookup answers the regex note filters (`path:/re/`, `file:/re/`, `[prop:/re/]`) by path
 * @param holds a note filter of `node` that every doc id the scorer will be asked about satisfies
 *   (the `tag:` whose notes are the candidates, TagDocTable): it scores 0 without a test of the
 *   note's record (a record read per candidate was most of a `tag:` filter's time)
 * @throws Error for a node only the text decides (a phrase, a body regex, a text operator, a
 *   case-sensitive part): the caller compiles only queries `needsText` clears
 */
export function docScorer(
  node: QueryNode,
  hits: ReadonlyMap<QueryNode, NodeHits>,
  note: (doc: number) => NoteRecord,
  lookup: TermLookup,
  holds: QueryNode | null = null,
): DocScorer {
  if (node === holds) return () => 0;
  switch (node.kind) {
    case 'and': {
      const parts = node.children.map((c) => docScorer(c, hits, note, lookup, holds));
      return (doc) => {
        let score = 0;
        for (let i = 0; i < parts.length; i++) {
          const v = parts[i](doc);
          if (v === NO_MATCH) return NO_MATCH;
          score += v;
        }
        return score;
      };
    }
    case 'or': {
      const parts = node.children.map((c) => docScorer(c, hits, note, lookup, holds));
      return (doc) => {
        let score = 0;
        let yes = false;
        for (let i = 0; i < parts.length; i++) {
          const v = parts[i](doc);
          if (v === NO_MATCH) continue;
          yes = true;
          score += v;
        }
        return yes ? score : NO_MATCH;
      };
    }
    case 'not': {
      const child = docScorer(node.child, hits, note, lookup, holds);
      return (doc) => (child(doc) === NO_MATCH ? 0 : NO_MATCH);
    }
    case 'word': {
      // A word the index decides has index terms (decidedByIndex); its score is above 0 where the note holds it.
      const values = hits.get(node)?.values;
      if (values === undefined) return () => NO_MATCH;
      return (doc) => {
        const v = values[doc];
        return v > 0 ? v : NO_MATCH;
      };
    }
    case 'case':
      // `ignore-case:` with no `match-case:` inside means its child (as evaluate reads it).
      if (transparent(node)) return docScorer(node.child, hits, note, lookup, holds);
    // falls through: a match-case: part needs the note text
    case 'phrase':
    case 'regex':
    case 'scope':
      throw new Error(`docScorer: a ${node.kind} node needs the note text`);
    default:
      return (doc) => (noteFilter(node, note(doc), lookup) ? 0 : NO_MATCH);
  }
}

/**
 * The best `k` of `count` scored doc ids, score descending then path ascending (the engine's
 * rank order; paths are unique, so the order is total): a k-slot heap over their positions,
 * in which a note scoring below the k-th kept costs one number comparison, as does one tying
 * it (by path rank), then the kept ones sorted (all of them when k ≥ count, Infinity included).
 * @param docs doc ids, `count` of them; `scores` their scores at the same positions
 * @param pathRank each doc id's rank in path order (PathRanks.byDoc, covering every doc id of `docs`)
 * @returns positions into `docs`, best first
 */
export function bestPositions(docs: Int32Array, scores: Float64Array, count: number, k: number, pathRank: Int32Array): number[] {
  const order = (a: number, b: number): number => scores[b] - scores[a] || pathRank[docs[a]] - pathRank[docs[b]];
  const heap = new FirstInOrder<number>(k, order);
  for (let i = 0; i < count; i++) heap.offer(i);
  return heap.items().sort(order);
}
