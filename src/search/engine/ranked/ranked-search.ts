import { wordMode } from '../../query/query-plan';
import { isStopWord, stemOf } from '../text/stemming';
import { BM25F, bm25Idf, bm25Saturate } from './bm25';
import { expansion, type Expansion, type TermIndex } from '../term-index';
import type { CorpusView } from '../corpus-view';
import type { TitleStemTable } from './title-stems';
import { TopCandidates } from './top-k';
import { queryTerms } from '../text/tokenizer';

/**
 * Ranked retrieval for a query of plain words (see `plainWords`): a note matches when it
 * holds at least one of the query's informative terms, and notes are ordered by
 * - first, whether they hold every informative term (`allTerms`),
 * - then their BM25F score (TermIndex.score, summed over the terms they hold) times a
 *   coordination factor `coverage ^` {@link COORDINATION}, where `coverage` is the share of
 *   the query's idf mass the note holds: missing a rare word costs more than missing a
 *   common one; and, when the query names the note's whole title (every informative word
 *   of the title, by stem, is a query term), times up to {@link TITLE_MATCH}, growing with
 *   the square ({@link TITLE_SHARE_EXPONENT}) of the share of the query's idf mass the title
 *   names: `New-NetFirewallRule` finds the
 *   note of that name before `Show-NetFirewallRule`, whose text mentions "new", while a
 *   module overview titled `Hyper-V` gains little for "create a new virtual machine in
 *   Hyper-V".
 *
 * A query term expands to itself and every index term of the same Porter2 stem
 * ({@link STEM_WEIGHT}); only a term that no visible note holds in any of those forms falls
 * back to prefix, then typo matching (TermIndex.prefixed / typos), so a typed-ahead word
 * still finds something while whole words do not drag in every longer word they begin.
 * English stop words ("how", "do", "my"...) standing alone as a query word are left out of
 * the ranking when the query has another word (a hyphenated word such as `Get-Process`
 * keeps all its parts), and are reported as ignored.
 */

/** Weight of an index term sharing the query term's stem but spelled otherwise (`syncing` for `sync`); the exact spelling weighs 1. */
export const STEM_WEIGHT = 0.9;
/** A term's holders are visited in doc order when more than 1/this of the notes hold it (see rankedScores). */
const DOC_ORDER_SHARE = 8;
/** Exponent of the coordination factor (see the comment at the top of this file). */
export const COORDINATION = 2;
/** Score factor of a note whose whole title is the whole query (see the comment at the top of this file). */
export const TITLE_MATCH = 2;
/**
 * Exponent on the share of the query's idf mass a wholly named title holds, in the title
 * factor (as {@link COORDINATION} is on coverage): a title naming most of the query gains
 * nearly {@link TITLE_MATCH}, one naming a small part of it little (a module overview titled
 * `Defender` for "start a Windows Defender scan": share 0.45, factor 1.2 where a linear share
 * gave 1.45). Chosen on the PowerShell bench questions: 2 over 1 raised MRR@10 there
 * (keyword 0.41 → 0.47, short 0.92 → 1.00; help vault unchanged, hit@5 unchanged on both).
 */
export const TITLE_SHARE_EXPONENT = 2;

/** One informative query term: how the caller wrote it (normalized) and the index terms it stands for. */
export interface RankedTerm {
  word: string;
  /** Its Porter2 stem (see stemOf): two words of one stem are one term. */
  stem: string;
  expansions: Expansion[];
}

/** The terms a ranked query scores, and the stop words it left out. */
export interface RankedPlan {
  terms: RankedTerm[];
  ignored: string[];
}

/** A ranked query's matches: doc ids with their final score, and which terms each holds; valid until the next {@link rankedScores} call on the same {@link RankingScratch}. */
export interface RankedHits {
  /** Doc ids holding some term of the plan, in first-scored order; `length` of them (pruned, ranked-pruning.ts: only those whose score was worked out, fewer). */
  docs: Int32Array;
  /** How many visible notes hold some term of the plan (the total). */
  length: number;
  /** Final score by doc id (BM25F sum × coordination × title factor) of each doc offered to `candidates`: every hit, or only those holding every term when they fill the page (the others' are left unfinished). */
  score: Float64Array;
  /** How many of `docs` hold every term of the plan. */
  allTermsCount: number;
  /** The docs that may be among the `page` best of each tier (see TopCandidates): `all` of those holding every term, `some` of the others (none when `all` fill the page). */
  candidates: { all: TopCandidates; some: TopCandidates };
  /** True when the note holds every term of the plan. */
  allTerms(doc: number): boolean;
  /** The plan's words the note does not hold, in query order. */
  missing(doc: number): string[];
}

/**
 * Per-document arrays a ranked query sums its term scores in, kept between queries: at 100k
 * notes a fresh set is about 3 MB of typed arrays per query, and the garbage collections those
 * allocations bring on cost more than the scoring itself (docs/performance.md#search-latency).
 * Not for two queries at once (ranking is synchronous).
 */
export class RankingScratch {
  /** One term's pseudo-frequencies by doc id (TermIndex.frequencies); all zero between terms. */
  values = new Float64Array(0);
  /** The documents holding the term being scored, as TermIndex.frequencies lists them. */
  holders = new Int32Array(0);
  sum = new Float64Array(0);
  held = new Float64Array(0);
  count = new Uint16Array(0);
  docs = new Int32Array(0);
  /** How many of `docs` the last query used (their entries of sum, held, count are not zero). */
  used = 0;

  /** Clears what the last query left and makes room for doc ids below `n`. */
  begin(n: number): void {
    if (this.sum.length < n) {
      const size = Math.max(n, Math.ceil(this.sum.length * 1.25));
      this.values = new Float64Array(size);
      this.holders = new Int32Array(size);
      this.sum = new Float64Array(size);
      this.held = new Float64Array(size);
      this.count = new Uint16Array(size);
      this.docs = new Int32Array(size);
    } else {
      const { docs, sum, held, count } = this;
      // Many used (a common word): clearing whole arrays in order beats visiting each doc id.
      if (this.used * 4 > n) {
        sum.fill(0);
        held.fill(0);
        count.fill(0);
      } else
        for (let i = 0; i < this.used; i++) {
          const doc = docs[i];
          sum[doc] = 0;
          held[doc] = 0;
          count[doc] = 0;
        }
    }
    this.used = 0;
  }
}

/**
 * Plans a ranked query: the distinct terms of `words` (by stem), stop words and words without index terms (`&`) set aside as ignored, each
 * with its expansions in `view`.
 * @param words the texts of the query's plain word nodes, in query order
 */
export function planRanked(words: readonly string[], index: TermIndex, view: CorpusView): RankedPlan {
  const perWord = words.map((w) => withoutContractionStops(w, queryTerms(w)));
  const informative = (terms: string[]): boolean => terms.length > 1 || !isStopWord(terms[0]);
  const anyInformative = perWord.some((t) => t.length > 0 && informative(t));
  const terms: RankedTerm[] = [];
  const ignored: string[] = [];
  const seen = new Set<string>();
  for (const [i, wordTerms] of perWord.entries()) {
    if (wordTerms.length === 0) {
      // A word of no letters or digits (`&`, `+`) has nothing to rank by: left out, and said so.
      if (!ignored.includes(words[i])) ignored.push(words[i]);
      continue;
    }
    if (anyInformative && !informative(wordTerms)) {
      if (!ignored.includes(wordTerms[0])) ignored.push(wordTerms[0]);
      continue;
    }
    for (const term of wordTerms) {
      const key = stemOf(term);
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push({
        word: term,
        stem: key,
        expansions: isStopWord(term) ? exactOnly(term, index, view) : expansionsOf(term, key, index, view),
      });
    }
  }
  return { terms, ignored };
}

/** An apostrophe inside a word (`Ana's`, `Ana’s`, `don't`): what follows it is a possessive or a contraction. */
const APOSTROPHE = /['\u2019]/;

/**
 * A word's terms without the stop words its apostrophe split off (`Ana's` → `ana`, not `ana`
 * and `s`; `O'Brien's` → `o`, `brien`), when a term of the word is left: a possessive `s` is no
 * word the note must hold (session 43's newcomer got `missing_terms: ["s"]`). A word without an
 * apostrophe keeps every term (`to-do` stays `to`, `do`), and so does one of stop words alone
 * (`don't`), which the plan judges as a whole.
 * @param word the query word as written
 * @param terms its terms (queryTerms)
 */
function withoutContractionStops(word: string, terms: string[]): string[] {
  if (terms.length < 2 || !APOSTROPHE.test(word)) return terms;
  const kept = terms.filter((term) => !isStopWord(term));
  return kept.length > 0 ? kept : terms;
}

/**
 * Scores a plan over `view` (see the comment at the top of this file), in `scratch`, and
 * offers each hit to its tier's {@link TopCandidates} as its final score is known.
 * @param boosts field weights, by field number
 * @param titles the documents' title stems (TitleStemTable)
 * @param page how many of the best hits the caller will read (Infinity: all)
 * @throws Error when the plan has more than 65535 terms (a bug: queries are far shorter)
 */
export function rankedScores(
  plan: RankedPlan,
  index: TermIndex,
  boosts: ArrayLike<number>,
  view: CorpusView,
  titles: TitleStemTable,
  scratch: RankingScratch,
  page: number,
): RankedHits {
  if (plan.terms.length > 0xffff) throw new Error(`rankedScores: a plan holds at most 65535 terms, got ${plan.terms.length}`);
  const n = view.visible.length;
  scratch.begin(n);
  const { values, holders, sum, held, count, docs } = scratch;
  const all = plan.terms.length;
  const idfs: number[] = [];
  let length = 0;
  let allTermsCount = 0;
  // A plan of one term: each holder's final score is known as its sum is (it holds every term), and is offered then: no second pass.
  let ranking: Ranking | null = null;
  for (const term of plan.terms) {
    const listed = index.frequencies(term.expansions, boosts, view, values, holders);
    // TermIndex.score's saturation, taken here as each holder is summed (no visible holder: idf 0, nothing listed).
    const idf = bm25Idf(view.count, listed);
    idfs.push(idf > 0 ? idf : absentIdf(view));
    if (all === 1) ranking = rankingOf(plan, titles, n, idfs, listed, page);
    // Holders of many lists come listed out of doc order: when they are many, they are visited in doc order instead (each one's value is above 0), so the per-note arrays are read in order.
    const inDocOrder = listed * DOC_ORDER_SHARE > n;
    for (let i = 0, doc = 0; i < listed; i++) {
      if (inDocOrder) while (values[doc] === 0) doc++;
      else doc = holders[i];
      if (count[doc] === 0) docs[length++] = doc;
      sum[doc] += bm25Saturate(values[doc], idf, BM25F);
      values[doc] = 0;
      held[doc] += idf;
      if (++count[doc] === all) allTermsCount++;
      if (ranking !== null) {
        const { planStems, titled, offsets, stems, mass } = ranking;
        const named = titled ? titleNamed(doc, offsets, stems, planStems, idfs) : -1;
        ranking.candidates.all.offer(doc, (sum[doc] *= named > 0 ? titleFactor(named / mass) : 1));
      }
      doc++;
    }
    scratch.used = length;
  }
  if (ranking === null) {
    ranking = rankingOf(plan, titles, n, idfs, length, page);
    const { planStems, titled, offsets, stems, mass, candidates } = ranking;
    // The notes holding every term fill the page: no other note is read, so their final scores are not worked out.
    const onlyAll = allTermsCount >= page;
    for (let i = 0; i < length; i++) {
      const doc = docs[i];
      const holdsAll = count[doc] === all;
      if (onlyAll && !holdsAll) continue;
      // No title holds a plan stem (their ids are -1): no title is named whole, and none is read.
      const named = titled ? titleNamed(doc, offsets, stems, planStems, idfs) : -1;
      const bonus = named > 0 ? titleFactor(named / mass) : 1;
      // A note holding every term summed the same idfs in the same order as `mass`: coverage is exactly 1, and so is its power.
      const score = (sum[doc] *= holdsAll ? bonus : Math.pow(held[doc] / mass, COORDINATION) * bonus);
      (holdsAll ? candidates.all : candidates.some).offer(doc, score);
    }
  }
  const { candidates } = ranking;
  return {
    docs,
    length,
    score: sum,
    allTermsCount,
    candidates,
    allTerms: (doc) => count[doc] === all,
    missing: (doc) => plan.terms.filter((t) => !t.expansions.some((e) => index.contains(e.id, doc))).map((t) => t.word),
  };
}

/** What the final scores of a plan's hits are worked out with: the title factor's inputs and the tiers' candidates. */
interface Ranking {
  /** The plan's idfs summed in plan order (the idf mass). */
  mass: number;
  /** The plan's stems as ids of the title table, in plan order; `titled` false when none is a title's stem. */
  planStems: Int32Array;
  titled: boolean;
  offsets: Uint32Array;
  stems: Int32Array;
  candidates: { all: TopCandidates; some: TopCandidates };
}

/**
 * The {@link Ranking} of a plan whose terms' idfs are `idfs` (in plan order) and that has `length` hits, for a page of `page`.
 * The title factor: a title's stems are ids of `titles`; the plan's stems by the same ids (stems are distinct within a plan).
 */
function rankingOf(plan: RankedPlan, titles: TitleStemTable, n: number, idfs: readonly number[], length: number, page: number): Ranking {
  const mass = idfs.reduce((a, idf) => a + idf, 0);
  titles.cover(n);
  const planStems = Int32Array.from(plan.terms, (t) => titles.idOf(t.stem));
  const { offsets, stems } = titles;
  const k = page >= length ? Infinity : Math.max(1, page);
  return {
    mass,
    planStems,
    titled: planStems.some((id) => id >= 0),
    offsets,
    stems,
    candidates: { all: new TopCandidates(k), some: new TopCandidates(k) },
  };
}

/**
 * The idf mass of the plan's terms that document `doc`'s title names, when the plan names its
 * whole title (every stem of it is a plan stem): the idfs of those terms summed in title order;
 * -1 when the title has no stem or a stem the plan lacks.
 * @param offsets the TitleStemTable's offsets; `stems` its stem ids
 * @param planStems the plan's stems as ids of the same table, in plan order; `idfs` the terms' idfs, in plan order
 */
export function titleNamed(doc: number, offsets: Uint32Array, stems: Int32Array, planStems: Int32Array, idfs: readonly number[]): number {
  const all = planStems.length;
  const end = offsets[doc + 1];
  let named = end > offsets[doc] ? 0 : -1;
  for (let k = offsets[doc]; k < end; k++) {
    const stem = stems[k];
    let term = 0;
    while (term < all && planStems[term] !== stem) term++;
    if (term === all) return -1;
    named += idfs[term];
  }
  return named;
}

/**
 * The score factor of a note whose whole title the query names: 1 + (TITLE_MATCH − 1) · share
 * ^ TITLE_SHARE_EXPONENT (see the comment at the top of this file).
 * @param share the share of the query's idf mass the title's words hold, 0…1
 * @returns 1 (share 0) to TITLE_MATCH (share 1)
 * @throws Error when share is outside 0…1 (a bug: named idf is part of the mass)
 */
export function titleFactor(share: number): number {
  if (!(share >= 0 && share <= 1 + 1e-9)) throw new Error(`titleFactor: share must be within 0…1, got ${share}`);
  return 1 + (TITLE_MATCH - 1) * Math.pow(Math.min(1, share), TITLE_SHARE_EXPONENT);
}

/** The idf of a term no visible note holds (it still counts as asked for). */
function absentIdf(view: CorpusView): number {
  return Math.log(1 + (view.count + 0.5) / 0.5);
}

/** The term itself, when a visible note holds it. */
function exactOnly(term: string, index: TermIndex, view: CorpusView): Expansion[] {
  const id = index.dict.idOf(term);
  return id >= 0 && index.seenIn(id, view) ? [expansion(id, 1)] : [];
}

/** The term and its stem variants held by visible notes; else its prefix, else its typo expansions (as `wordMode` allows). */
function expansionsOf(term: string, stem: string, index: TermIndex, view: CorpusView): Expansion[] {
  const out = exactOnly(term, index, view);
  const exact = out.length > 0 ? out[0].id : -1;
  const asStem = index.dict.idOf(stem);
  const variants = asStem >= 0 && asStem !== exact ? [asStem, ...index.stems.variants(stem)] : index.stems.variants(stem);
  for (const id of variants) if (id !== exact && index.seenIn(id, view)) out.push(expansion(id, STEM_WEIGHT));
  if (out.length > 0) return out;
  const mode = wordMode(term);
  if (mode.prefix) out.push(...index.prefixed(term, -1, view));
  if (out.length === 0 && mode.fuzzy) out.push(...index.typos(term, view));
  return out;
}
