import type { QueryNode } from '../../query/parser/query-ast';
import type { NoteRecord } from '../../query/note-filters';
import { evaluate, needsText, type TermLookup } from '../../query/query-eval';
import { literalParts, literalTest, matchesTitleAndText } from '../../query/text-match';
import type { EngineMatch } from '../engine-match';
import type { NodeHits } from './filter-terms';
import type { VerifyBatch } from './text-pass';

/**
 * The common shape of a filter query that reads note text: one phrase, or an AND of phrases,
 * excluded phrases (`-"a b"`) and parts the index decides (words, tags, paths, properties),
 * none nested in another. For it the text pass's bound, judge and read are computed without
 * the query tree walk `evaluate` and `scoreBound` make per node and note: at 100k notes a
 * common phrase has 70k candidates, each given a bound, and about 750 of them judged and read
 * for its page and the sample its total is estimated from (engine/text-pass.ts). Every
 * verdict and score is the one the walk gives (the tree walk stays the definition).
 */

/** A term of {@link flatBound}: a word or phrase node's scores by doc id, or 1 for one without index terms. */
export type BoundTerm = Float64Array | 1;

/**
 * `scoreBound` of a query that is one node or an AND of nodes none of which nests others (a
 * phrase with words and note filters: the common shape), as the terms it sums, in its order:
 * summed by {@link sumBound}, bit for bit `scoreBound`'s value without its tree walk and
 * lookups, which cost most of a phrase's index pass over 80k candidates. Null for any other
 * query (OR, text operators, nested groups), which takes `scoreBound` itself.
 * @param hits each word and phrase node's scores by doc id (LexicalEngine's lookup)
 */
export function flatBound(query: QueryNode, hits: ReadonlyMap<QueryNode, NodeHits>): BoundTerm[] | null {
  const term = (node: QueryNode): BoundTerm | null | undefined => {
    if (node.kind === 'word' || node.kind === 'phrase') return hits.get(node)?.values ?? 1;
    // Nodes scoreBound gives 0 (a negation, a regex, a note filter) add nothing; others nest.
    return node.kind === 'and' || node.kind === 'or' || node.kind === 'scope' || node.kind === 'case' ? null : undefined;
  };
  const out: BoundTerm[] = [];
  for (const node of query.kind === 'and' ? query.children : [query]) {
    const t = term(node);
    if (t === null) return null;
    if (t !== undefined) out.push(t);
  }
  return out;
}

/** The bound of document `doc` from {@link flatBound}'s terms: their scores summed in order, a node the document does not hold adding 0. */
export function sumBound(terms: readonly BoundTerm[], doc: number): number {
  let score = 0;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    if (t === 1) score += 1;
    else {
      const v = t[doc];
      score += v > 0 ? v : 0;
    }
  }
  return score;
}

/** What {@link flatPhrasePass} reads of the engine for one query. */
export interface FlatPhraseSource {
  /** The record of a doc id (undefined once the note is gone). */
  note(doc: number): NoteRecord | undefined;
  /** The query's lookup (LexicalEngine's), focused on a doc id by `focus` before it is asked about it. */
  lookup: TermLookup;
  focus(doc: number): void;
  /** The match of `note` at `score`, with the text read for it. */
  match(note: NoteRecord, score: number, text?: string): EngineMatch;
  /** Reads a note's text by path; a rejection drops the note. */
  loadText(path: string): Promise<string>;
}

/** A phrase of the query's top level: its scores by doc id (null without index terms), its literal test, and whether a match must hold it (false: excluded). */
interface PhraseTest {
  node: QueryNode;
  values: Float64Array | null;
  literal: RegExp;
  parts: number;
  wanted: boolean;
}

/**
 * The text pass's judge and read for a query of the shape described at the top of this file,
 * or null for any other query (which takes the tree walk).
 * @param terms the query's {@link flatBound} (null: not flat)
 * @param judgeByWalk the tree walk's judge, for the rare candidate whose every phrase the index decides (an excluded phrase it cannot hold)
 * @returns `judge` (TextCandidates.judge: null when the note cannot match, undefined when its
 *   text decides) and `verify` (reads and tests a batch; a match scores its bound, as
 *   `evaluate` scores a yes of this shape: the same terms summed in the same order)
 */
export function flatPhrasePass(
  query: QueryNode,
  hits: ReadonlyMap<QueryNode, NodeHits>,
  terms: readonly BoundTerm[] | null,
  source: FlatPhraseSource,
  judgeByWalk: (doc: number) => EngineMatch | null | undefined,
): { judge: (doc: number) => EngineMatch | null | undefined; verify: VerifyBatch } | null {
  if (terms === null) return null;
  const tests: PhraseTest[] = [];
  const rest: QueryNode[] = [];
  for (const child of query.kind === 'and' ? query.children : [query]) {
    const phrase = child.kind === 'phrase' ? child : child.kind === 'not' && child.child.kind === 'phrase' ? child.child : null;
    if (phrase !== null) {
      const literal = literalTest(phrase.text);
      tests.push({
        node: phrase,
        values: hits.get(phrase)?.values ?? null,
        literal,
        parts: literalParts(phrase.text),
        wanted: phrase === child,
      });
    } else if (needsText(child)) return null;
    else rest.push(child);
  }
  if (tests.length === 0) return null;
  const { lookup } = source;
  // What evaluateText answers without the text: false when the index rules the phrase out (its terms, or its phrase filter).
  const mayHold = (t: PhraseTest, doc: number, path: string): boolean =>
    (t.values === null || t.values[doc] > 0) && lookup.mayHold?.(t.node, path) !== false;
  const judge = (doc: number): EngineMatch | null | undefined => {
    const note = source.note(doc) as NoteRecord;
    source.focus(doc);
    let open = false;
    for (const t of tests) {
      if (mayHold(t, doc, note.path)) open = true;
      else if (t.wanted) return null;
    }
    for (const child of rest) if (evaluate(child, note, lookup).truth === 'no') return null;
    return open ? undefined : judgeByWalk(doc);
  };
  const verify: VerifyBatch = async (batch) => {
    const texts = await Promise.all(
      batch.map((doc) => {
        const note = source.note(doc);
        return note === undefined ? Promise.resolve(null) : source.loadText(note.path).catch(() => null);
      }),
    );
    return batch.map((doc, k) => {
      const full = texts[k];
      const note = source.note(doc);
      if (full === null || note === undefined) return null;
      source.focus(doc);
      for (const t of tests) {
        const holds = mayHold(t, doc, note.path) && matchesTitleAndText(t.literal, t.parts, note.title, full);
        if (holds !== t.wanted) return null;
      }
      return source.match(note, sumBound(terms, doc), full);
    });
  };
  return { judge, verify };
}
