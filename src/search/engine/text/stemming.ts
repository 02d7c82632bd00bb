import { stem } from 'porter2';

/**
 * English morphology for ranked retrieval: a term's stem (Porter2, the Snowball English
 * stemmer, from the `porter2` package) so `syncing` finds `sync` and `snapshots` finds
 * `snapshot`, and English stop words ({@link STOP_WORDS}: "how", "do", "my"...) that a
 * natural-language question carries but that say nothing about which note is meant.
 *
 * The index keeps the words as written (phrases, highlighting and Obsidian's filter meaning
 * need them); a ranked query expands a term to every index term of the same stem, found
 * through {@link StemGroups}.
 */

/**
 * Terms stemmed: lower-case Latin letters only, at least 3 of them (what `normalizeTerm` makes
 * of English words, accents folded). Terms with digits (`win32`), other scripts (Greek,
 * Cyrillic, CJK bigrams) and very short words keep their exact form.
 */
const STEMMABLE = /^[a-z]{3,}$/;

/**
 * The stem of a normalized term (see `normalizeTerm`), or the term itself when it is not a
 * Latin-letter word of 3+ letters (see {@link STEMMABLE}).
 * @param term a normalized (lower-case, accent-folded) index or query term
 */
export function stemOf(term: string): string {
  return STEMMABLE.test(term) ? stem(term) : term;
}

/**
 * The Snowball project's English stop-word list (snowballstem.org, algorithms/english/stop.txt,
 * the list made for the Porter2 stemmer), with its contractions as our tokenizer splits them
 * (`don't` → `don`, `t`) and `can`, `will`. Kept here as data rather than through a package:
 * the `stopword` package would put all its 62 languages (215 KB) into main.js, because esbuild
 * bundles its CommonJS build.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing would should could ought a an the and but if or because as until ' +
    'while of at by for with about against between into through during before after above below to from up down in out ' +
    'on off over under again further then once here there when where why how all any both each few more most other some ' +
    'such no nor not only own same so than too very can will cannot ' +
    's t m d ll re ve don isn aren wasn weren hasn haven hadn doesn didn wouldn shan shouldn couldn mustn'
  ).split(' '),
);

/** True when the normalized term is an English stop word ("how", "do", "i", "my"...). */
export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}

/**
 * Index terms grouped by stem, for the terms whose stem differs from themselves (a term equal
 * to its stem is found by its own spelling). Fed lazily from a term list that only grows
 * (the term dictionary): {@link variants} first stems the terms added since the last call, so
 * building or loading the index pays nothing and the first ranked query pays once.
 */
export class StemGroups {
  private readonly groups = new Map<string, number[]>();
  private seen = 0;

  /**
   * @param size number of terms in the dictionary now
   * @param termAt the term with id `id` (0 ≤ id < size)
   */
  constructor(
    private readonly size: () => number,
    private readonly termAt: (id: number) => string,
  ) {}

  /**
   * Ids of the dictionary terms whose stem is `stem` and that are not spelled as it, in id
   * order (the term spelled as the stem, if any, is the caller's `idOf(stem)`).
   */
  variants(stem: string): readonly number[] {
    this.advance(Infinity);
    return this.groups.get(stem) ?? EMPTY;
  }

  /**
   * Groups at most `most` more dictionary terms (Porter2 on each), so the first ranked query
   * after a build need not stem the whole dictionary at once.
   * @returns true when every term of the dictionary is grouped
   */
  advance(most: number): boolean {
    const end = Math.min(this.size(), this.seen + most);
    for (; this.seen < end; this.seen++) {
      const term = this.termAt(this.seen);
      if (!STEMMABLE.test(term)) continue;
      const s = stemOf(term);
      if (s === term) continue;
      const group = this.groups.get(s);
      if (group === undefined) this.groups.set(s, [this.seen]);
      else group.push(this.seen);
    }
    return this.seen >= this.size();
  }
}

const EMPTY: readonly number[] = [];
