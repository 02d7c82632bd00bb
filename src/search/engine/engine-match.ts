import type { NoteRecord } from '../query/note-filters';

/** A match of the lexical engine as the search index pages it, and its lazily computed form. */

/** One matching note, before paging. `text` is set when the query needed the note text. */
export interface EngineMatch {
  note: NoteRecord;
  score: number;
  /** Index terms the note matched for the query's positive index-decided words (for snippet placement). */
  terms: Set<string>;
  text?: string;
  /** Ranked queries only: true when the note holds every informative query term. */
  allTerms?: boolean;
  /** Ranked queries only: the informative query terms the note lacks (empty when `allTerms`). */
  missing?: string[];
}

/** The index terms a note matched for the query's positive words, by path. */
export type MatchedTerms = (path: string) => Set<string>;

/** An EngineMatch whose `terms` are computed on first read: only the hits of one page ever need them. */
export class LazyMatch implements EngineMatch {
  private matched: Set<string> | null = null;
  private lacking: string[] | null = null;

  /** @param coverage for a ranked query: whether the note holds every term, and how to list those it lacks */
  constructor(
    readonly note: NoteRecord,
    readonly score: number,
    private readonly termsOf: MatchedTerms,
    readonly text?: string,
    private readonly coverage?: { all: boolean; missing: () => string[] },
  ) {}

  get terms(): Set<string> {
    this.matched ??= this.termsOf(this.note.path);
    return this.matched;
  }

  get allTerms(): boolean | undefined {
    return this.coverage?.all;
  }

  get missing(): string[] | undefined {
    if (this.coverage === undefined) return undefined;
    this.lacking ??= this.coverage.missing();
    return this.lacking;
  }
}

/** The matches of a query, and for a ranked query (plain words) what it ranked by. */
export interface EngineResult {
  /**
   * The best matches first, in rank order, as many as asked for (`ranked` of `match`); a
   * filter query that read note text lists other matches after them in no particular order
   * (every other match, unless `estimated`), a ranked query and a filter the index decides
   * alone leave them out (they can be many thousands, and only a page is ever shown).
   */
  matches: EngineMatch[];
  /** Number of matches in all (an estimate when `estimated`). */
  total: number;
  /**
   * True when `total` is an estimate: a filter query that had to read many notes' text read
   * only those that decide its best matches (engine/text-pass.ts). Absent when exact.
   */
  estimated?: boolean;
  /**
   * Null for a filter query. `terms`: the informative words ranked by; `ignored`: stop words
   * left out; `allTerms`: how many of the `total` matches hold every term.
   */
  ranked: { terms: string[]; ignored: string[]; allTerms: number } | null;
}
