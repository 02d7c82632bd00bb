import { BM25F, bm25Idf, bm25Saturate, fieldFrequency, lengthNormalizers } from './ranked/bm25';
import { boundList } from './postings/block-bounds';
import { DENSE_SHARE, DenseTerms, markHolders } from './postings/dense-terms';
import { DocTermLists } from './postings/doc-term-lists';
import { FIELD_BOOSTS, FIELD_COUNT } from './text/note-fields';
import { FIELD_BITS, PostingBytes, packPosting, packTermIds, unpackTermIds } from './postings/posting-codec';
import { PostingLists, type PostingCursor } from './postings/posting-lists';
import { StemGroups } from './text/stemming';
import { TermDictionary } from './postings/term-dictionary';
import { internIndexTerms } from './text/tokenizer';
import { grow, growBytes } from './postings/typed-growth';
import type { CorpusView, ScoreSheet } from './corpus-view';

/**
 * The inverted index behind {@link LexicalEngine}: for each term, the documents and fields it
 * occurs in with its frequency, scored with BM25F ({@link BM25F}): one saturation and one idf
 * per query term over its field-weighted, length-normalized frequencies. Every statistic
 * (document count, document frequency, average field length) is counted over a
 * {@link CorpusView}, the documents one caller may see, so a note hidden from the caller
 * changes no score it sees.
 *
 * Memory layout, measured at 100k generated notes (docs/performance.md): posting lists are
 * {@link PostingLists} (per term, its postings `[doc id, packPosting(field, frequency)]` as
 * delta-coded varint bytes, about 2.4 bytes a posting, with a skip entry every 64 postings;
 * grown by doubling while indexing, then trimmed into shared pages; a list of at least
 * {@link MIN_BOUNDED_POSTINGS} postings gets a score bound per block, block-bounds.ts, when a
 * build ends or a saved index has loaded, for ranked-pruning.ts); per-document
 * field lengths are one flat `Uint32Array`, and the documents' own term lists are
 * {@link DocTermLists} (fixed-size pages, no object per document) holding each document's
 * term ids delta-coded as varint bytes (packTermIds). Words are interned by their offsets in
 * the note text (TermDictionary.internAscii), so a build makes no string per word. Doc ids are dense and only
 * grow: a re-added document gets a new id, the old one is removed from every posting list it
 * was in (the document's own term list says which). A document loaded from a saved index has
 * no term list: when it is removed it is tombstoned instead, skipped by every lookup, and
 * dropped for good by the next save (which renumbers documents densely).
 */

if (FIELD_COUNT > 1 << FIELD_BITS)
  throw new Error(`the field table has ${FIELD_COUNT} fields; a posting's code holds at most ${1 << FIELD_BITS}`);

/** One term a query word expands to, with its weight (1 exact; less for prefix and typo matches). */
export interface Expansion {
  id: number;
  weight: number;
}

/**
 * The engine's {@link Expansion}s, all of one shape whose `weight` is a double from the first one
 * made. V8 keeps a field's representation per object shape: plain `{ id, weight }` objects began
 * with a whole-number weight (the exact term's 1), and the first fractional one (a prefix's) changed
 * the shape of them all, throwing away every compiled function that had read one ("wrong map"):
 * `TermIndex.frequencies` in the middle of the first prefix query over 475k postings at 100k notes.
 */
class WeightedTerm implements Expansion {
  // Stored first as a double (the constructor then stores the real weight): the representation never has to change.
  weight = 0.5;

  constructor(
    readonly id: number,
    weight: number,
  ) {
    this.weight = weight;
  }
}

/** An {@link Expansion} of term `id` at `weight` (see {@link WeightedTerm}: make every expansion here). */
export function expansion(id: number, weight: number): Expansion {
  return new WeightedTerm(id, weight);
}

/** How a query term may expand: by prefix and/or within one edit. */
export interface ExpandMode {
  prefix: boolean;
  fuzzy: boolean;
}

/** Saved state of one chunk of documents: `[key, field lengths...]` per document, in id order. */
export type DocRow = [key: string, ...lengths: number[]];

/** MiniSearch 7's default weights for prefix and fuzzy expansions. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** Bytes of posting lists per saved term line. */
const TERM_LINE_BYTES = 1 << 18;
/** Posting bytes {@link TermIndex.savedSteps} encodes between two pauses, about (the decoding and encoding of 256 KB took 15-35 ms at 100k notes). */
const SAVE_STEP_BYTES = 1 << 16;
/** Documents per saved doc line. */
const DOC_LINE_ROWS = 2000;
/**
 * Postings a list needs for block bounds (block-bounds.ts): two blocks. A shorter list costs
 * little to score whole, and a ranked query scores every holder of a term without bounds.
 */
const MIN_BOUNDED_POSTINGS = 128;
/** Tombstoned documents {@link TermIndex.knownHolders} looks up one by one, at most (an edit or two since the last save). */
const MAX_DEAD_LISTED = 64;
/**
 * Postings one step of {@link TermIndex.boundSteps} reads at most, besides one longer list: about
 * 2 ms once boundList is compiled; before it is, 150-300 ns a posting (a saved 40k-note index:
 * steps of 256k postings took 41 ms for the first, 4-5 ms after), so the shortest lists go first.
 */
const BOUND_STEP_POSTINGS = 1 << 16;

/**
 * One saved line: `D` rows of documents, or `T` terms with the byte length of each one's
 * posting list and all their lists' bytes, one list after another (posting-codec's PostingBytes).
 */
export type IndexLine = { kind: 'D'; rows: DocRow[] } | { kind: 'T'; terms: string[]; sizes: number[]; bytes: Uint8Array };

/** The inverted index itself (see the comment at the top of this file). Not thread-safe: callers serialize writes. */
export class TermIndex {
  readonly dict = new TermDictionary();
  private readonly post = new PostingLists();
  private docKey: (string | null)[] = [];
  private fieldLen = new Uint32Array(FIELD_COUNT * 1024);
  private readonly docTerms = new DocTermLists();
  /** 1 for a tombstoned document (see the class comment), by doc id; `deadCount` of them. */
  private dead = new Uint8Array(1024);
  private deadCount = 0;
  /** The tombstoned documents while there are at most {@link MAX_DEAD_LISTED} of them (then null: too many to look up). */
  private deadDocs: number[] | null = [];
  private live = 0;
  /** The documents {@link score} lists for one term (reused by every call). */
  private listed = new Int32Array(0);
  /** Index terms by stem, for ranked queries (see stemming.ts). */
  readonly stems = new StemGroups(
    () => this.dict.size,
    (id) => this.dict.term(id),
  );
  private counts = new Uint32Array(1024);
  private seen = new Uint32Array(1024);
  /** The distinct term ids of the document being added, and of its field being added, in first-seen order (reused by every add). */
  private docIds = new Uint32Array(1024);
  private touched = new Uint32Array(1024);
  /** Bumped by every change; lets a sliced save notice that the index moved under it. */
  version = 0;
  /** The length normalizers of every live document when block bounds were first made (their reference; null: no bounds yet). */
  private boundNorm: Float64Array | null = null;
  /** Holder bitsets and window bounds of the terms most notes hold (dense-terms.ts), made with the block bounds. */
  readonly dense = new DenseTerms();

  /** Number of live documents. */
  get documentCount(): number {
    return this.live;
  }

  /**
   * Indexes a document.
   * @param key the caller's key for it (the note path), returned by {@link keyOf}
   * @param fields the text of each field, `FIELD_COUNT` strings, tokenized as `indexTerms` does
   * @returns the new document's id
   */
  add(key: string, fields: readonly string[]): number {
    this.version++;
    const doc = this.docKey.length;
    this.docKey.push(key);
    if (this.fieldLen.length < (doc + 1) * FIELD_COUNT) this.fieldLen = grow(this.fieldLen, (doc + 1) * FIELD_COUNT);
    let all = this.docIds;
    let distinct = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const { ids, count } = internIndexTerms(fields[f], this.dict);
      this.fieldLen[doc * FIELD_COUNT + f] = count;
      if (this.touched.length < count) this.touched = grow(this.touched, count);
      const touched = this.touched;
      let distinctInField = 0;
      for (let k = 0; k < count; k++) {
        const id = ids[k];
        if (id >= this.counts.length) {
          this.counts = grow(this.counts, id + 1);
          this.seen = grow(this.seen, id + 1);
        }
        if (this.counts[id]++ === 0) touched[distinctInField++] = id;
      }
      for (let t = 0; t < distinctInField; t++) {
        const id = touched[t];
        this.post.append(id, doc, packPosting(f, this.counts[id]));
        // A list with block bounds keeps them at or above the truth: its last block's bound grows by this posting's share.
        if (this.boundNorm !== null && !this.post.bounds.empty) {
          const x = fieldFrequency(FIELD_BOOSTS[f], this.counts[id], this.boundNorm[f], count, BM25F);
          this.post.raiseLastBound(id, x);
          this.dense.raise(id, doc, x);
        }
        this.counts[id] = 0;
        if (this.seen[id] !== doc + 1) {
          this.seen[id] = doc + 1;
          if (distinct === all.length) all = this.docIds = grow(all, distinct + 1);
          all[distinct++] = id;
        }
      }
    }
    const { words, count } = packTermIds(all.subarray(0, distinct));
    this.docTerms.set(doc, words.subarray(0, count));
    this.live++;
    return doc;
  }

  /** Removes document `doc`; does nothing when it is not live. */
  remove(doc: number): void {
    if (this.docKey[doc] == null) return;
    this.version++;
    this.docKey[doc] = null;
    this.live--;
    const terms = this.docTerms.take(doc);
    if (terms === null) {
      if (doc >= this.dead.length) this.dead = growBytes(this.dead, doc + 1);
      this.dead[doc] = 1;
      this.deadCount++;
      if (this.deadDocs !== null) this.deadDocs = this.deadCount > MAX_DEAD_LISTED ? null : [...this.deadDocs, doc];
      return;
    }
    for (const id of unpackTermIds(terms)) {
      this.post.removeDoc(id, doc);
      this.dense.clear(id, doc);
    }
  }

  /** The key given to {@link add} for a live document, else null. */
  keyOf(doc: number): string | null {
    return this.docKey[doc] ?? null;
  }

  /**
   * The documents `allow` admits among the live ones, with the BM25 statistics over them.
   * @param allow by doc id; called once per live document
   * @returns a view valid until the index changes ({@link version})
   */
  view(allow: (doc: number) => boolean): CorpusView {
    const view = this.emptyView();
    this.judge(view, allow, 0, view.visible.length);
    return view;
  }

  /**
   * {@link view} made in steps the caller may yield between, `docsPerStep` doc ids a step (at
   * 100k notes a caller's `allow` costs tens of ms over every document). The index must not
   * change meanwhile: the caller compares {@link version} before and after, and drops the view if it moved.
   * @param allow by doc id; called once per live document
   * @param docsPerStep doc ids judged per step (≥ 1)
   * @returns (as the generator's return value) what {@link view} would return
   */
  *viewSteps(allow: (doc: number) => boolean, docsPerStep: number): Generator<void, CorpusView> {
    const view = this.emptyView();
    for (let from = 0; from < view.visible.length; from += docsPerStep) {
      if (from > 0) yield;
      this.judge(view, allow, from, Math.min(view.visible.length, from + docsPerStep));
    }
    return view;
  }

  /**
   * The live documents `view` shows that `keep` also admits, with the statistics over them: the
   * view of the access "`view`'s and `keep`'s" for every document not changed since `view` was
   * made ({@link patched} then judges the changed ones: corpus-views.ts narrows the base view so).
   * @param view made by {@link view} or {@link viewSteps}, possibly before later changes
   * @param keep by doc id; called once per live document `view` shows
   */
  narrowed(view: CorpusView, keep: (doc: number) => boolean): CorpusView {
    const narrowed = this.emptyView();
    const shown = view.visible;
    this.judge(narrowed, (doc) => shown[doc] === 1 && keep(doc), 0, narrowed.visible.length);
    return narrowed;
  }

  /** A view that shows no document, sized for every doc id the index has given. */
  private emptyView(): CorpusView {
    return { visible: new Uint8Array(this.docKey.length), count: 0, fieldTotal: new Float64Array(FIELD_COUNT) };
  }

  /** Marks the live documents `allow` admits among doc ids `from` … `to - 1` in `view`, counting them and their field lengths. */
  private judge(view: CorpusView, allow: (doc: number) => boolean, from: number, to: number): void {
    const { visible, fieldTotal } = view;
    let count = 0;
    const { docKey, dead } = this;
    for (let doc = from; doc < to; doc++) {
      // `dead` is only as long as its last tombstone needed: a read past its end is slow in V8 (as in liveNormalizers).
      if (docKey[doc] == null || (doc < dead.length && dead[doc] === 1) || !allow(doc)) continue;
      visible[doc] = 1;
      count++;
      for (let f = 0; f < FIELD_COUNT; f++) fieldTotal[f] += this.fieldLen[doc * FIELD_COUNT + f];
    }
    view.count += count;
  }

  /**
   * `view` brought to the index as it is now, after documents were added or removed: a copy in
   * which each of `docs` is judged again as {@link view} judges a document and every other one
   * keeps its flag, with the statistics moved by the documents whose flag changed (field lengths
   * are whole numbers: the sums are exact in any order, the same as a view made afresh).
   * @param view made by {@link view} (or this method) with the same `allow` before the changes, or
   *   any view whose flag of every document not among `docs` is `allow`'s (a base view narrowed: corpus-views.ts)
   * @param docs every document added or removed since `view` was made (repeats allowed)
   * @param allow by doc id; asked about the live ones among `docs` only
   * @returns what {@link view} would return now, provided `allow` answers as it did for every other document
   */
  patched(view: CorpusView, docs: readonly number[], allow: (doc: number) => boolean): CorpusView {
    const visible = new Uint8Array(this.docKey.length);
    visible.set(view.visible.subarray(0, visible.length));
    const fieldTotal = Float64Array.from(view.fieldTotal);
    let count = view.count;
    for (const doc of docs) {
      const now = this.docKey[doc] != null && !this.isDead(doc) && allow(doc) ? 1 : 0;
      if (visible[doc] === now) continue;
      visible[doc] = now;
      const sign = now === 1 ? 1 : -1;
      count += sign;
      for (let f = 0; f < FIELD_COUNT; f++) fieldTotal[f] += sign * this.fieldLen[doc * FIELD_COUNT + f];
    }
    return { visible, count, fieldTotal };
  }

  /**
   * The query term's expansions among the terms some visible document holds: the term
   * itself, terms it prefixes, and (only when neither exists in the view) terms one edit
   * away. Judging existence by the view keeps a hidden note from deciding whether typo
   * matching runs.
   */
  expand(term: string, mode: ExpandMode, view: CorpusView): Expansion[] {
    const out: Expansion[] = [];
    const exact = this.dict.idOf(term);
    if (exact >= 0 && this.seenIn(exact, view)) out.push(expansion(exact, 1));
    if (mode.prefix) out.push(...this.prefixed(term, exact, view));
    if (mode.fuzzy && out.length === 0) out.push(...this.typos(term, view));
    return out;
  }

  /** Terms longer than `term` that start with it (not `exact`), held by a visible document, weighted by how much longer they are. */
  prefixed(term: string, exact: number, view: CorpusView): Expansion[] {
    const out: Expansion[] = [];
    for (const id of this.dict.withPrefix(term)) {
      if (id === exact || !this.seenIn(id, view)) continue;
      const t = this.dict.term(id).length;
      out.push(expansion(id, (PREFIX_WEIGHT * t) / (t + 0.3 * (t - term.length))));
    }
    return out;
  }

  /** Terms one edit away from `term`, held by a visible document. */
  typos(term: string, view: CorpusView): Expansion[] {
    const out: Expansion[] = [];
    for (const id of this.dict.withinOneEdit(term)) {
      if (!this.seenIn(id, view)) continue;
      const t = this.dict.term(id).length;
      out.push(expansion(id, (FUZZY_WEIGHT * t) / (t + 1)));
    }
    return out;
  }

  /** True when some document visible in `view` holds term `id` (stops at the first). */
  seenIn(id: number, view: CorpusView): boolean {
    const c = this.post.cursor(id);
    while (c.next()) if (view.visible[c.doc] === 1) return true;
    return false;
  }

  /** An empty score sheet with room for every doc id. */
  sheet(): ScoreSheet {
    return { values: new Float64Array(this.docKey.length), docs: new Int32Array(this.docKey.length), count: 0 };
  }

  /** Number of doc ids ever given (live, removed or tombstoned): a {@link ScoreSheet} needs room for this many. */
  get docSpan(): number {
    return this.docKey.length;
  }

  /** Number of (document, field) postings of these terms: what scoring them costs. */
  postingCount(expansions: readonly Expansion[]): number {
    let n = 0;
    for (const e of expansions) n += this.post.count(e.id);
    return n;
  }

  /**
   * Scores one query term, given as its expansions (the term, its stem variants, prefix or
   * typo matches, each with a weight), with BM25F (bm25.ts) over the documents of `view`: the
   * expansions' weighted frequencies add up into one pseudo-frequency per document
   * ({@link frequencies}), saturated once with the term's idf.
   * @param boosts field weights, by field number
   * @param sheet receives the score (> 0) of every visible document holding the term; its
   *   values must be 0 for every document not already in its `docs` (a cleared sheet)
   * @returns the term's idf over the view (0 when no visible document holds it)
   */
  score(expansions: readonly Expansion[], boosts: ArrayLike<number>, view: CorpusView, sheet: ScoreSheet): number {
    if (this.listed.length < this.docKey.length) this.listed = new Int32Array(this.docKey.length);
    const { values, docs } = sheet;
    const listed = this.frequencies(expansions, boosts, view, values, this.listed);
    // No visible holder: nothing listed, idf 0.
    const idf = bm25Idf(view.count, listed);
    const holders = this.listed;
    let count = sheet.count;
    for (let i = 0; i < listed; i++) {
      const doc = holders[i];
      docs[count++] = doc;
      values[doc] = bm25Saturate(values[doc], idf, BM25F);
    }
    sheet.count = count;
    return idf;
  }

  /**
   * One query term's BM25F pseudo-frequency in each visible document holding it, before
   * saturation (see {@link score}): `Σ_expansions Σ_fields fieldFrequency(weight · boost_f, tf_f,
   * normalizer_f, len_f)`, added into `values[doc]` in posting order. One loop for every caller,
   * with no branch that only some callers take: V8 compiles it once from the first query's type
   * feedback, and a later caller does not throw that code away (a `within` branch for filter
   * queries' later terms did, at each of a phrase's first runs: docs/performance.md, session 40).
   * @param values by doc id; must be 0 for every document not yet holding this term's score
   * @param listed receives, from index 0, each document whose value this call made nonzero, in
   *   first-scored order; room for every doc id
   * @returns how many documents were listed: the term's document frequency over the view (each
   *   visible document holding any expansion, once; every weight and boost is above 0, so each
   *   holder's value becomes nonzero)
   */
  frequencies(
    expansions: readonly Expansion[],
    boosts: ArrayLike<number>,
    view: CorpusView,
    values: Float64Array,
    listed: Int32Array,
  ): number {
    const normalizer = lengthNormalizers(view.fieldTotal, view.count, BM25F);
    const { visible } = view;
    const { fieldLen } = this;
    // The expansion's weight times each field's boost, once per expansion (the same products the loop would take per posting).
    const weights = new Float64Array(FIELD_COUNT);
    // fieldFrequency's denominator is (1 − b) + normalizer · len, summed in that order here too: the same values (as in block-bounds.ts).
    const base = 1 - BM25F.b;
    const fieldMask = (1 << FIELD_BITS) - 1;
    let n = 0;
    for (const e of expansions) {
      for (let f = 0; f < FIELD_COUNT; f++) weights[f] = e.weight * boosts[f];
      // The list's postings decoded in this loop (PostingCursor.next's varints, postingField, postingFrequency, fieldFrequency):
      // one loop with no call per posting, which a prefix of 400 terms runs half a million times, most of it before V8 optimizes it.
      // Each varint is read by a loop whose body runs for every byte, the first too: every operation of it has run once the first
      // posting is read, so V8's code for it never meets one without type feedback. A second loop for the bytes after the first
      // ran only for a large gap or frequency; the first list with one then threw the compiled loop away (a common word's first
      // query: docs/performance.md, session 40).
      const bytes = this.post.listBytes(e.id);
      const end = bytes.length;
      let doc = 0;
      for (let at = 0; at < end;) {
        let b = 0;
        let scale = 1;
        do {
          b = bytes[at++];
          doc += (b & 127) * scale;
          scale *= 128;
        } while (b > 127);
        let code = 0;
        scale = 1;
        do {
          b = bytes[at++];
          code += (b & 127) * scale;
          scale *= 128;
        } while (b > 127);
        if (visible[doc] !== 1) continue;
        const f = code & fieldMask;
        const x = (weights[f] * (code >>> FIELD_BITS)) / (base + normalizer[f] * fieldLen[doc * FIELD_COUNT + f]);
        if (values[doc] === 0) listed[n++] = doc;
        values[doc] += x;
      }
    }
    return n;
  }

  /**
   * Term `id`'s posting list as blocks, for ranked retrieval's pruning (ranked-pruning.ts): a
   * cursor at its start, its block count and skip entries (PostingLists.blocks), and its block
   * bounds (block-bounds.ts; null when it has none); valid until the index changes.
   */
  blockWalk(id: number): { cursor: PostingCursor; blocks: number; skips: Uint32Array; end: number; bounds: Float32Array | null } {
    const { count, skips, end } = this.post.blocks(id);
    return { cursor: this.post.cursor(id), blocks: count, skips, end, bounds: this.post.bounds.of(id)?.values ?? null };
  }

  /**
   * The number of documents of `view` holding term `id` when it is known without reading the
   * list: the term has block bounds (they count its documents, tombstoned ones too, each of which
   * is looked up) and `view` shows every live document; else -1 (also with more than
   * {@link MAX_DEAD_LISTED} tombstones).
   */
  knownHolders(id: number, view: CorpusView): number {
    const t = this.post.bounds.of(id);
    if (t === undefined || view.count !== this.live || this.deadDocs === null) return -1;
    let docs = t.docs;
    for (const doc of this.deadDocs) if (this.post.has(id, doc)) docs--;
    return docs;
  }

  /** Each document's field lengths, `FIELD_COUNT` a document by doc id (read only; valid until the index changes). */
  fieldLengths(): Uint32Array {
    return this.fieldLen;
  }

  /**
   * What a block bound (block-bounds.ts, made with {@link FIELD_BOOSTS} under the reference
   * normalizers) is multiplied by to bound a pseudo-frequency in `view` with `boosts`: the largest
   * ratio of a field's reference normalizer to the view's (1 when none is larger: a document's
   * share only shrinks as a field's normalizer grows), or 0 when bounds cannot be used (none made,
   * or other boosts).
   */
  boundScale(view: CorpusView, boosts: ArrayLike<number>): number {
    const ref = this.boundNorm;
    if (ref === null || boosts.length !== FIELD_COUNT) return 0;
    for (let f = 0; f < FIELD_COUNT; f++) if (boosts[f] !== FIELD_BOOSTS[f]) return 0;
    const normalizer = lengthNormalizers(view.fieldTotal, view.count, BM25F);
    let scale = 1;
    for (let f = 0; f < FIELD_COUNT; f++) scale = Math.max(scale, ref[f] / normalizer[f]);
    return scale;
  }

  /**
   * Makes the block bounds (block-bounds.ts) of every list of at least
   * {@link MIN_BOUNDED_POSTINGS} postings that has none, in steps of about
   * {@link BOUND_STEP_POSTINGS} postings the caller may yield between; the index may change
   * between steps. Run it when a build ends (see {@link trimSteps}) and after a saved index's lines have loaded.
   */
  *boundSteps(): Generator<void> {
    if (this.boundNorm === null) {
      this.boundNorm = this.liveNormalizers();
      // A pass over every document's field lengths: a step of its own (with the first lists' bounds it was a 48 ms step at 100k notes).
      yield;
    }
    let read = 0;
    for (const id of this.idsToBound()) {
      read += this.boundTerm(id);
      if (read >= BOUND_STEP_POSTINGS) {
        yield;
        read = 0;
      }
    }
  }

  /**
   * The ids {@link boundSteps} goes through: those of the lists {@link boundTerm} would bound now
   * (at least {@link MIN_BOUNDED_POSTINGS} postings, no bounds yet), shortest list first, so
   * boundList (and its dense-term branch, which only the lists of many notes take) runs compiled
   * by the time the longest come (in id order the commonest words came first, each list of up to
   * every note read in one step by the interpreter: slices of 54–137 ms at generated 100k,
   * docs/performance.md, session 32); then any term interned since (a change between the steps).
   */
  private *idsToBound(): Generator<number> {
    const size = this.dict.size;
    const ids: number[] = [];
    for (let id = 0; id < size; id++)
      if (this.post.count(id) >= MIN_BOUNDED_POSTINGS && this.post.bounds.of(id) === undefined) ids.push(id);
    yield* Uint32Array.from(ids).sort((a, b) => this.post.count(a) - this.post.count(b));
    for (let id = size; id < this.dict.size; id++) yield id;
  }

  /** The length normalizers (bm25.ts) of every live document. */
  private liveNormalizers(): Float64Array {
    const total = new Float64Array(FIELD_COUNT);
    const { docKey, dead, fieldLen } = this;
    for (let doc = 0; doc < docKey.length; doc++) {
      // `dead` is only as long as its last tombstone needed: a read past its end is slow in V8 (a first call at 40k notes: 22 ms, 1.3 ms without).
      if (docKey[doc] == null || (doc < dead.length && dead[doc] === 1)) continue;
      for (let f = 0; f < FIELD_COUNT; f++) total[f] += fieldLen[doc * FIELD_COUNT + f];
    }
    return lengthNormalizers(total, this.live, BM25F);
  }

  /**
   * Makes term `id`'s block bounds when its list is long enough and has none: per block, the
   * largest pseudo-frequency (expansion weight 1, {@link FIELD_BOOSTS}, the reference
   * normalizers) of a document in it, rounded up.
   * @returns the postings read (0 when none were)
   */
  private boundTerm(id: number): number {
    const n = this.post.count(id);
    const norm = this.boundNorm;
    if (n < MIN_BOUNDED_POSTINGS || norm === null || this.post.bounds.of(id) !== undefined) return 0;
    const { count, skips } = this.post.blocks(id);
    // A list of more postings than the dense share of live notes may be a dense term (dense-terms.ts): its holders are noted as it is read.
    const maybeDense = n > this.live * DENSE_SHARE;
    const made = boundList(this.post.listBytes(id), skips, count, this.fieldLen, norm, maybeDense ? this.docKey.length : 0);
    if (made.dense !== null && made.docs > this.live * DENSE_SHARE) this.dense.set(id, made.dense);
    this.post.bounds.set(id, made.values, made.docs);
    return n;
  }

  /**
   * Marks the documents of `view` holding any of `expansions` (no score: an excluded word only
   * rules notes out, and its BM25F score is never read): `sheet.values[doc]` becomes 1 for each,
   * listed once in `sheet.docs` (after its first `count`), in first-seen order.
   * @param within when given, only documents `d` with `within[d] === 1` are marked
   */
  mark(expansions: readonly Expansion[], view: CorpusView, sheet: ScoreSheet, within: Uint8Array | null = null): void {
    const { visible } = view;
    const { values, docs } = sheet;
    for (const e of expansions) {
      // A dense term's holders are its bitset: the same notes in the same (doc id) order, none of the postings decoded.
      const dense = this.dense.of(e.id);
      if (dense !== undefined) {
        markHolders(dense.bits, view, sheet, within);
        continue;
      }
      const c = this.post.cursor(e.id);
      while (c.next()) {
        const doc = c.doc;
        if (visible[doc] !== 1 || values[doc] !== 0 || (within !== null && within[doc] !== 1)) continue;
        values[doc] = 1;
        docs[sheet.count++] = doc;
      }
    }
  }

  /**
   * The term ids live document `doc` holds, from its own term list (one decode of a few hundred
   * ids: cheaper than a posting lookup per term for a word of many expansions), or null when
   * it has no list (loaded from a saved index) or is not live: then ask {@link contains}.
   */
  termIdsOf(doc: number): Set<number> | null {
    if (this.docKey[doc] == null) return null;
    const words = this.docTerms.peek(doc);
    return words === null ? null : new Set(unpackTermIds(words));
  }

  /** True when live document `doc` contains term `id` in some field. */
  contains(id: number, doc: number): boolean {
    return !this.isDead(doc) && this.post.has(id, doc);
  }

  /** True when `doc` is tombstoned (`dead` is only as long as its last tombstone needed: no read past its end). */
  private isDead(doc: number): boolean {
    return doc < this.dead.length && this.dead[doc] === 1;
  }

  /**
   * The index as saved lines, live documents renumbered densely in id order, with `null`
   * between pieces of work of at most about {@link SAVE_STEP_BYTES} posting bytes encoded, so
   * a caller can yield at each null and between lines. When every document is live (a cold
   * build, a warm start that removed nothing) the ids stay as they are and each posting list
   * is copied as it is held: same bytes, none of the decoding.
   */
  *savedSteps(): Generator<IndexLine | null> {
    const renumber = new Int32Array(this.docKey.length).fill(-1);
    let next = 0;
    let rows: DocRow[] = [];
    for (let doc = 0; doc < this.docKey.length; doc++) {
      const key = this.docKey[doc];
      if (key == null) continue;
      renumber[doc] = next++;
      const row: DocRow = [key];
      for (let f = doc * FIELD_COUNT; f < (doc + 1) * FIELD_COUNT; f++) row.push(this.fieldLen[f]);
      rows.push(row);
      if (rows.length === DOC_LINE_ROWS) {
        yield { kind: 'D', rows };
        rows = [];
      }
    }
    if (rows.length > 0) yield { kind: 'D', rows };
    const dense = next === this.docKey.length;
    // A line's lists are encoded into one buffer, copied out whole (PostingBytes.take).
    const text = new PostingBytes();
    let terms: string[] = [];
    let bytes = 0;
    let sinceStep = 0;
    const line = (): IndexLine => {
      const { sizes, bytes: encoded } = text.take();
      const out: IndexLine = { kind: 'T', terms, sizes, bytes: encoded };
      terms = [];
      bytes = 0;
      return out;
    };
    for (let id = 0; id < this.dict.size; id++) {
      let n: number;
      if (dense) n = text.copy(this.post.listBytes(id));
      else {
        const postings = this.post.cursor(id);
        while ((n = text.add(postings, renumber, SAVE_STEP_BYTES)) < 0) yield null;
        sinceStep += n;
      }
      if (n === 0) continue;
      terms.push(this.dict.term(id));
      bytes += n;
      if (bytes >= TERM_LINE_BYTES) yield line();
      else if (sinceStep >= SAVE_STEP_BYTES) yield null;
      if (sinceStep >= SAVE_STEP_BYTES) sinceStep = 0;
    }
    if (terms.length > 0) yield line();
  }

  /**
   * Adds one saved line to an index being loaded (a fresh one: doc lines first, then term
   * lines), decoding its posting lists. Their block bounds are made after the last line, by
   * {@link boundSteps} (in steps: made per line, a line of common words took one step of
   * 124-171 ms at 100k notes).
   * @param keyOf the string to keep as a document row's key: the caller's own string equal to
   *   it when it has one (one string per note path, not a parsed copy of it), else the key itself
   * @throws Error when the line has the wrong shape or a posting list is damaged or names
   *   a document not loaded
   */
  loadLine(line: IndexLine, keyOf: (key: string) => string = (key) => key): void {
    if (line.kind === 'D') {
      for (const row of line.rows) {
        if (!Array.isArray(row) || typeof row[0] !== 'string' || row.length !== FIELD_COUNT + 1)
          throw new Error('saved search index has a malformed document row');
        const doc = this.docKey.length;
        this.docKey.push(keyOf(row[0]));
        if (this.fieldLen.length < (doc + 1) * FIELD_COUNT) this.fieldLen = grow(this.fieldLen, (doc + 1) * FIELD_COUNT);
        for (let f = 0; f < FIELD_COUNT; f++) {
          const n = Number(row[f + 1]) >>> 0;
          this.fieldLen[doc * FIELD_COUNT + f] = n;
        }
        this.live++;
      }
      return;
    }
    const { terms, sizes, bytes } = line;
    if (!Array.isArray(terms) || !Array.isArray(sizes) || terms.length !== sizes.length || !(bytes instanceof Uint8Array))
      throw new Error('saved search index has a malformed term line');
    let total = 0;
    const ids: number[] = [];
    for (let k = 0; k < terms.length; k++) {
      const size = sizes[k];
      if (typeof terms[k] !== 'string' || !Number.isInteger(size) || size < 0)
        throw new Error('saved search index has a malformed term line');
      total += size;
      // The index being loaded holds only the terms of earlier lists: a term it knows is listed twice.
      const known = this.dict.size;
      ids.push(this.dict.intern(terms[k]));
      if (this.dict.size === known) throw new Error('saved search index lists a term twice');
    }
    // A line cut short or grown: the lists' bytes then do not end where their sizes say.
    if (bytes.length !== total) throw new Error('saved search index has a truncated posting line');
    // PostingLists keeps views of the line's bytes (loadLists: checked as they are laid out).
    this.post.loadLists(ids, sizes, bytes, this.docKey.length);
  }

  /**
   * Drops the spare capacity that growth by doubling left in the posting lists and the
   * documents' term lists, in steps the caller may yield between (see PostingLists.trimSteps);
   * the index stays consistent between steps and may change meanwhile. Run it when a build ends,
   * not after each change.
   */
  *packSteps(): Generator<void> {
    yield* this.post.trimSteps();
    this.docTerms.trim();
  }

  /**
   * {@link packSteps}, then the lists' block bounds ({@link boundSteps}): what a build's end
   * runs, in steps the caller may yield between.
   */
  *trimSteps(): Generator<void> {
    yield* this.packSteps();
    // The posting lists' last copies and the bounds' first pass (see boundSteps) were one step at 100k notes.
    yield;
    yield* this.boundSteps();
  }

  /**
   * Bytes held by the index's typed arrays (outside the JS heap, in `arrayBuffers`), by
   * structure: posting lists with their bounds and dense terms (allocated, and used), per-document term lists,
   * and the per-document field lengths with the scoring scratch arrays. For the bench.
   */
  bytes(): { postings: number; postingsUsed: number; docTerms: number; perDoc: number } {
    const { allocated, used } = this.post.bytes();
    // The dense terms' bits and window bounds count with the lists' block bounds.
    const dense = this.dense.bytes();
    const [postings, postingsUsed] = [allocated + dense, used + dense];
    const perDoc = this.fieldLen.byteLength + this.dead.byteLength + this.listed.byteLength + this.counts.byteLength + this.seen.byteLength;
    return { postings, postingsUsed, docTerms: this.docTerms.bytes(), perDoc };
  }
}
