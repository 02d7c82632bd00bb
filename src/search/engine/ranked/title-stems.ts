import { isStopWord, stemOf } from '../text/stemming';
import { queryTerms } from '../text/tokenizer';

/** First sizes of the table's arrays (grown by doubling). */
const FIRST_DOCS = 1024;
const FIRST_STEMS = 4096;
const NO_TERMS: readonly string[] = [];

/**
 * The title stems of every document (the distinct stems of its title's informative words, stop
 * words left out, in the order they first appear: the terms a query must hold to earn the title
 * factor, ranked-search.ts's TITLE_MATCH; none for a title of stop words only), as small
 * integer ids in two flat typed arrays by doc id (offsets, and the ids one title after another): a ranked query checks
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

  /**
   * Computes the titles of the documents below `n` not computed yet.
   * @param memo each title word's stem (Porter2) as far as known, filled as it goes: a caller
   *   covering the titles in many steps (LexicalEngine.rankingSteps) passes one for all of them,
   *   so a word common to thousands of titles is stemmed once, not once per step; by default one
   *   for this call alone (titles repeat their words: a vault's titles share a vocabulary)
   */
  cover(n: number, memo = new Map<string, string>()): void {
    if (n <= this.upTo) return;
    if (this.offsets.length < n + 1) {
      const grown = new Uint32Array(Math.max(n + 1, this.offsets.length * 2));
      grown.set(this.offsets);
      this.offsets = grown;
    }
    let at = this.offsets[this.upTo];
    for (let doc = this.upTo; doc < n; doc++) {
      const title = this.titleOf(doc);
      const start = at;
      // titleStems' stems as ids, without its arrays: each distinct stem once, in the order of first appearance.
      for (const term of title === undefined ? NO_TERMS : queryTerms(title)) {
        if (isStopWord(term)) continue;
        let stem = memo.get(term);
        if (stem === undefined) {
          stem = stemOf(term);
          memo.set(term, stem);
        }
        let id = this.ids.get(stem);
        if (id === undefined) {
          id = this.ids.size;
          this.ids.set(stem, id);
        }
        let seen = false;
        for (let k = start; k < at && !seen; k++) seen = this.stems[k] === id;
        if (seen) continue;
        if (at === this.stems.length) {
          const grown = new Int32Array(this.stems.length * 2);
          grown.set(this.stems);
          this.stems = grown;
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
