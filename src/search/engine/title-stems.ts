import { isStopWord, stemOf } from './stemming';
import { queryTerms } from './tokenizer';

/** First sizes of the table's arrays (grown by doubling). */
const FIRST_DOCS = 1024;
const FIRST_STEMS = 4096;

/**
 * The {@link titleStems} of every document's title, as small integer ids in two flat typed
 * arrays by doc id (offsets, and the ids one title after another): a ranked query checks
 * whether a query names a note's whole title for every note holding one of its words, tens of
 * thousands at 100k notes, and comparing a few integers per note costs a fraction of looking
 * strings up in a map; the arrays hold a few bytes per note where one array of strings per
 * note held about a hundred. Doc ids only grow and are never reused, so titles are computed in
 * id order, once, as far as a query's view reaches ({@link cover}).
 */
export class TitleStemTable {
  private readonly ids = new Map<string, number>();
  /** `offsets[doc]` … `offsets[doc + 1]` is document `doc`'s range of {@link stems}. */
  offsets = new Uint32Array(FIRST_DOCS + 1);
  /** Stem ids, title after title. */
  stems = new Int32Array(FIRST_STEMS);
  /** Documents below this id are computed. */
  private upTo = 0;

  /** @param titleOf a document's title, undefined for a removed doc id (it names no stem). */
  constructor(private readonly titleOf: (doc: number) => string | undefined) {}

  /** The id of `stem`, or -1 when no computed title has it. */
  idOf(stem: string): number {
    return this.ids.get(stem) ?? -1;
  }

  /** Computes the titles of the documents below `n` not computed yet. */
  cover(n: number): void {
    if (n <= this.upTo) return;
    if (this.offsets.length < n + 1) {
      const grown = new Uint32Array(Math.max(n + 1, this.offsets.length * 2));
      grown.set(this.offsets);
      this.offsets = grown;
    }
    let at = this.offsets[this.upTo];
    // Titles repeat their words (a vault's titles share a vocabulary): Porter2 runs once per distinct word.
    const known = new Map<string, string>();
    const stem = (term: string): string => {
      let s = known.get(term);
      if (s === undefined) {
        s = stemOf(term);
        known.set(term, s);
      }
      return s;
    };
    for (let doc = this.upTo; doc < n; doc++) {
      const title = this.titleOf(doc);
      const stems = title === undefined ? [] : titleStems(title, stem);
      if (at + stems.length > this.stems.length) {
        const grown = new Int32Array(Math.max(at + stems.length, this.stems.length * 2));
        grown.set(this.stems);
        this.stems = grown;
      }
      for (const stem of stems) {
        let id = this.ids.get(stem);
        if (id === undefined) {
          id = this.ids.size;
          this.ids.set(stem, id);
        }
        this.stems[at++] = id;
      }
      this.offsets[doc + 1] = at;
    }
    this.upTo = n;
  }

  /** Bytes held by the typed arrays (the stem strings aside), for the bench. */
  bytes(): number {
    return this.offsets.byteLength + this.stems.byteLength;
  }
}

/**
 * The distinct stems of a title's informative words (stop words left out), the terms a query
 * must hold to earn the title factor (ranked-search.ts's TITLE_MATCH); empty for a title of stop words only.
 * @param stem stemOf, or a memo of it
 */
export function titleStems(title: string, stem: (term: string) => string = stemOf): string[] {
  const stems = queryTerms(title)
    .filter((t) => !isStopWord(t))
    .map(stem);
  return [...new Set(stems)];
}
