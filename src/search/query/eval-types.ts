import type { QueryNode } from './parser/query-ast';

/** The shapes the query evaluator (`query-eval.ts`, `scope-eval.ts`) and the engine exchange. */

/** Three-valued truth: `maybe` means "needs the note text (or a regex run) to decide". */
export type Truth = 'yes' | 'no' | 'maybe';

/** A node's answer for one note; `score` sums the index scores of the positive terms that matched. */
export interface Verdict {
  truth: Truth;
  score: number;
}

/**
 * Answers of the user regexes inside text operators (`line:(/re/)`, `match-case:/Re/`...),
 * shared by the notes of one batch: per regex node, the tested text → matched. `wanted`
 * collects the texts asked for and not answered yet, so they run through the RegexGuard in
 * one timed run per node.
 */
export interface ScopedRegexRuns {
  answers: Map<QueryNode, Map<string, boolean>>;
  wanted: Map<QueryNode, Set<string>>;
  /** Per regex node, the note texts whose whole file text it does not match: no stretch of them can match either (see `evaluateBatch`). */
  absent: Map<QueryNode, Set<NoteText>>;
}

/** The note text once loaded: `full` is the whole file, `body` the part after the frontmatter. */
export interface NoteText {
  full: string;
  body: string;
  /** Regex answers for text operators; without it such regexes stay `maybe`. */
  runs?: ScopedRegexRuns;
}

/**
 * Index answers the evaluator needs: for a `word` or `phrase` node with index terms, the
 * note's score when all of its terms are in the note (`null` when not). Words are looked
 * up with prefix/fuzzy expansion, phrases by their exact terms.
 */
export interface TermLookup {
  score(node: QueryNode, path: string): number | null;
  /**
   * The index terms a `word` node expanded to (exact, prefix and typo matches), to find
   * where in a note it occurs (`line:`, `block:`... look at one stretch at a time).
   */
  terms(node: QueryNode): ReadonlySet<string>;
  /**
   * Whether a user regex matched the note: for a `regex` node the note body (asked only in
   * the text pass), for `path:/re/`, `file:/re/` and `[prop:/re/]` the path, file name or
   * property value. Answered from results computed in batches through a `RegexGuard`, so no
   * user regex runs unguarded.
   */
  regex(node: QueryNode, path: string): boolean;
  /**
   * False when the note certainly does not hold a `phrase` node's literal text (a necessary
   * condition from the index, engine/phrase-filter.ts); true when it may. Lets the text pass
   * skip reading notes that cannot match. Absent: every note may.
   */
  mayHold?(node: QueryNode, path: string): boolean;
}
