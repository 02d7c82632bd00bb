import { decodePostings, encodePostings } from './posting-codec';
import { StemGroups } from './stemming';
import { TermDictionary } from './term-dictionary';
import { indexTerms } from './tokenizer';

/**
 * The inverted index behind {@link LexicalEngine}: for each term, the documents and fields it
 * occurs in with its frequency, scored with BM25F ({@link BM25F}): one saturation and one idf
 * per query term over its field-weighted, length-normalized frequencies. Every statistic
 * (document count, document frequency, average field length) is counted over a
 * {@link CorpusView}, the documents one caller may see, so a note hidden from the caller
 * changes no score it sees.
 *
 * Memory layout, measured at 100k generated notes (docs/performance.md): a posting list is a
 * `Uint32Array` of pairs `[doc id, field | frequency << 3]`, sorted by doc id, grown by
 * doubling while indexing and trimmed to its length by {@link trim} once a build ends;
 * per-document field lengths are one flat `Uint32Array`, and so are the documents' own term
 * lists ({@link DocTermLists}: one arena, no object per document). Doc ids are dense and only
 * grow: a re-added document gets a new id, the old one is removed from every posting list it
 * was in (the document's own term list says which). A document loaded from a saved index has
 * no term list: when it is removed it is tombstoned instead, skipped by every lookup, and
 * dropped for good by the next save (which renumbers documents densely).
 */

/** Number of indexed fields per document; field numbers are 0 ≤ f < FIELD_COUNT (at most 8: 3 bits of a posting). */
export const FIELD_COUNT = 7;

/** One term a query word expands to, with its weight (1 exact; less for prefix and typo matches). */
export interface Expansion {
  id: number;
  weight: number;
}

/** How a query term may expand: by prefix and/or within one edit. */
export interface ExpandMode {
  prefix: boolean;
  fuzzy: boolean;
}

/** Saved state of one chunk of documents: `[key, field lengths...]` per document, in id order. */
export type DocRow = [key: string, ...lengths: number[]];

/**
 * BM25F parameters (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and
 * Beyond", 2009, §3.3, the simple BM25F): a query term's pseudo-frequency in a document is
 * `Σ_fields boost_f · tf_f / (1 − b + b · len_f / avglen_f)`, saturated once as
 * `idf · x · (k1 + 1) / (k1 + x)` with `idf = ln(1 + (N − df + 0.5) / (df + 0.5))`.
 * k1 = 2, the top of the usual 1.2–2 range: field weights add up before the one saturation, so
 * a low k1 lets a long note that repeats every query word reach the ceiling as a note about
 * them does (chosen on the bench's tuning half: help MRR@10 0.71 → 0.74 for natural-language
 * questions, PowerShell unchanged there; 3 gave the same).
 */
export const BM25F = { k1: 2, b: 0.75 } as const;
/** MiniSearch 7's default weights for prefix and fuzzy expansions. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** Characters of encoded postings per saved term line. */
const TERM_LINE_CHARS = 1 << 18;
/** Documents per saved doc line. */
const DOC_LINE_ROWS = 2000;
/** Posting lists trimmed per step of {@link TermIndex.trimSteps} (a few ms of copying at 100k notes). */
const TRIM_STEP_LISTS = 1024;

/** Scores summed per document for one query term: `values` by doc id, `docs` the ids with a score, in first-scored order. */
export interface ScoreSheet {
  values: Float64Array;
  docs: number[];
}

/**
 * What one caller may see of the index, and the BM25 statistics counted over it: built by
 * {@link TermIndex.view}, valid while the index's {@link TermIndex.version} is unchanged.
 */
export interface CorpusView {
  /** 1 for each live document the caller may see, by doc id. */
  visible: Uint8Array;
  /** Number of visible documents (BM25's N). */
  count: number;
  /** Each field's length summed over the visible documents (terms). */
  fieldTotal: Float64Array;
}

/** One saved line: `D` rows of documents, or `T` pairs of term and encoded postings. */
export type IndexLine = { kind: 'D'; rows: DocRow[] } | { kind: 'T'; pairs: string[] };

/** The inverted index itself (see the comment at the top of this file). Not thread-safe: callers serialize writes. */
export class TermIndex {
  readonly dict = new TermDictionary();
  private post: (Uint32Array | null)[] = [];
  private postLen: number[] = [];
  private docKey: (string | null)[] = [];
  private fieldLen = new Uint32Array(FIELD_COUNT * 1024);
  private readonly docTerms = new DocTermLists();
  /** 1 for a tombstoned document (see the class comment), by doc id; `deadCount` of them. */
  private dead = new Uint8Array(1024);
  private deadCount = 0;
  private live = 0;
  /** Per-document stamp of the query term being scored (document frequency over several expansions counts a document once). */
  private stamps = new Uint32Array(1024);
  private stamp = 0;
  /** Index terms by stem, for ranked queries (see stemming.ts). */
  readonly stems = new StemGroups(
    () => this.dict.size,
    (id) => this.dict.term(id),
  );
  private counts = new Uint32Array(1024);
  private seen = new Uint32Array(1024);
  /** Bumped by every change; lets a sliced save notice that the index moved under it. */
  version = 0;

  /** Number of live documents. */
  get documentCount(): number {
    return this.live;
  }

  /**
   * Indexes a document.
   * @param key the caller's key for it (the note path), returned by {@link keyOf}
   * @param fields the text of each field, `FIELD_COUNT` strings, tokenized with `indexTerms`
   * @returns the new document's id
   */
  add(key: string, fields: readonly string[]): number {
    this.version++;
    const doc = this.docKey.length;
    this.docKey.push(key);
    if (this.fieldLen.length < (doc + 1) * FIELD_COUNT) this.fieldLen = grow(this.fieldLen, (doc + 1) * FIELD_COUNT);
    const all: number[] = [];
    for (let f = 0; f < FIELD_COUNT; f++) {
      const terms = indexTerms(fields[f]);
      this.fieldLen[doc * FIELD_COUNT + f] = terms.length;
      const touched: number[] = [];
      for (const term of terms) {
        const id = this.dict.intern(term);
        if (id >= this.counts.length) {
          this.counts = grow(this.counts, id + 1);
          this.seen = grow(this.seen, id + 1);
        }
        if (this.counts[id]++ === 0) touched.push(id);
      }
      for (const id of touched) {
        this.append(id, doc, f | (this.counts[id] << 3));
        this.counts[id] = 0;
        if (this.seen[id] !== doc + 1) {
          this.seen[id] = doc + 1;
          all.push(id);
        }
      }
    }
    this.docTerms.set(doc, all);
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
      return;
    }
    for (const id of terms) {
      const list = this.postingsOf(id);
      const len = this.postLen[id];
      const at = lowerBound(list, len, doc);
      let end = at;
      while (end < len && list[end] === doc) end += 2;
      if (end > at) {
        list.copyWithin(at, end, len);
        this.postLen[id] = len - (end - at);
      }
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
    const visible = new Uint8Array(this.docKey.length);
    const fieldTotal = new Float64Array(FIELD_COUNT);
    let count = 0;
    for (let doc = 0; doc < this.docKey.length; doc++) {
      if (this.docKey[doc] == null || this.dead[doc] === 1 || !allow(doc)) continue;
      visible[doc] = 1;
      count++;
      for (let f = 0; f < FIELD_COUNT; f++) fieldTotal[f] += this.fieldLen[doc * FIELD_COUNT + f];
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
    if (exact >= 0 && this.seenIn(exact, view)) out.push({ id: exact, weight: 1 });
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
      out.push({ id, weight: (PREFIX_WEIGHT * t) / (t + 0.3 * (t - term.length)) });
    }
    return out;
  }

  /** Terms one edit away from `term`, held by a visible document. */
  typos(term: string, view: CorpusView): Expansion[] {
    const out: Expansion[] = [];
    for (const id of this.dict.withinOneEdit(term)) {
      if (!this.seenIn(id, view)) continue;
      const t = this.dict.term(id).length;
      out.push({ id, weight: (FUZZY_WEIGHT * t) / (t + 1) });
    }
    return out;
  }

  /** True when some document visible in `view` holds term `id` (stops at the first). */
  seenIn(id: number, view: CorpusView): boolean {
    const list = this.postingsOf(id);
    const len = this.postLen[id] ?? 0;
    for (let i = 0; i < len; i += 2) if (view.visible[list[i]] === 1) return true;
    return false;
  }

  /** An empty score sheet with room for every doc id. */
  sheet(): ScoreSheet {
    return { values: new Float64Array(this.docKey.length), docs: [] };
  }

  /** Number of (document, field) postings of these terms: what scoring them costs. */
  postingCount(expansions: readonly Expansion[]): number {
    let n = 0;
    for (const e of expansions) n += this.postLen[e.id] ?? 0;
    return n / 2;
  }

  /**
   * Scores one query term, given as its expansions (the term, its stem variants, prefix or
   * typo matches, each with a weight), with {@link BM25F} over the documents of `view`: the
   * expansions' weighted frequencies add up into one pseudo-frequency per document, and the
   * term's document frequency counts each visible document holding any expansion once.
   * @param boosts field weights, by field number
   * @param sheet receives the score (> 0) of every visible document holding the term
   * @param within when given, only documents `d` with `within[d] === 1` are scored (the
   *   others cannot match the query anyway); the document frequency still counts them all
   * @returns the term's idf over the view (0 when no visible document holds it)
   */
  score(expansions: readonly Expansion[], boosts: ArrayLike<number>, view: CorpusView, sheet: ScoreSheet, within: Uint8Array | null = null): number {
    const { k1, b } = BM25F;
    if (this.stamps.length < this.docKey.length) this.stamps = grow(this.stamps, this.docKey.length);
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    const perLength = new Float64Array(FIELD_COUNT);
    for (let f = 0; f < FIELD_COUNT; f++) perLength[f] = b / (view.fieldTotal[f] / Math.max(1, view.count) || 1);
    const base = 1 - b;
    const { visible } = view;
    let df = 0;
    for (const e of expansions) {
      const list = this.postingsOf(e.id);
      const len = this.postLen[e.id] ?? 0;
      for (let i = 0; i < len; i += 2) {
        const doc = list[i];
        if (visible[doc] !== 1) continue;
        if (this.stamps[doc] !== stamp) {
          this.stamps[doc] = stamp;
          df++;
        }
        if (within !== null && within[doc] !== 1) continue;
        const code = list[i + 1];
        const f = code & 7;
        const x = (e.weight * boosts[f] * (code >>> 3)) / (base + perLength[f] * this.fieldLen[doc * FIELD_COUNT + f]);
        if (sheet.values[doc] === 0) sheet.docs.push(doc);
        sheet.values[doc] += x;
      }
    }
    if (df === 0) return 0;
    const idf = Math.log(1 + (view.count - df + 0.5) / (df + 0.5));
    for (const doc of sheet.docs) {
      const x = sheet.values[doc];
      sheet.values[doc] = (idf * x * (k1 + 1)) / (k1 + x);
    }
    return idf;
  }

  /** True when live document `doc` contains term `id` in some field. */
  contains(id: number, doc: number): boolean {
    const list = this.postingsOf(id);
    const at = lowerBound(list, this.postLen[id], doc);
    return at < this.postLen[id] && list[at] === doc && this.dead[doc] !== 1;
  }

  /**
   * The index as saved lines, live documents renumbered densely in id order. Each line is a
   * bounded piece of work, so a caller can yield between lines.
   */
  *lines(): Generator<IndexLine> {
    const renumber = new Int32Array(this.docKey.length).fill(-1);
    let next = 0;
    let rows: DocRow[] = [];
    for (let doc = 0; doc < this.docKey.length; doc++) {
      const key = this.docKey[doc];
      if (key == null) continue;
      renumber[doc] = next++;
      rows.push([key, ...this.fieldLen.subarray(doc * FIELD_COUNT, (doc + 1) * FIELD_COUNT)]);
      if (rows.length === DOC_LINE_ROWS) {
        yield { kind: 'D', rows };
        rows = [];
      }
    }
    if (rows.length > 0) yield { kind: 'D', rows };
    let pairs: string[] = [];
    let chars = 0;
    for (let id = 0; id < this.dict.size; id++) {
      const list = encodePostings(this.postingsOf(id), this.postLen[id], renumber);
      if (list.length === 0) continue;
      pairs.push(this.dict.term(id), list);
      chars += list.length;
      if (chars >= TERM_LINE_CHARS) {
        yield { kind: 'T', pairs };
        pairs = [];
        chars = 0;
      }
    }
    if (pairs.length > 0) yield { kind: 'T', pairs };
  }

  /**
   * Adds one saved line to an index being loaded (a fresh one: doc lines first, then term
   * lines), decoding its posting lists.
   * @throws Error when the line has the wrong shape or a posting list is damaged or names
   *   a document not loaded
   */
  loadLine(line: IndexLine): void {
    if (line.kind === 'D') {
      for (const row of line.rows) {
        if (!Array.isArray(row) || typeof row[0] !== 'string' || row.length !== FIELD_COUNT + 1) throw new Error('saved search index has a malformed document row');
        const doc = this.docKey.length;
        this.docKey.push(row[0]);
        if (this.fieldLen.length < (doc + 1) * FIELD_COUNT) this.fieldLen = grow(this.fieldLen, (doc + 1) * FIELD_COUNT);
        for (let f = 0; f < FIELD_COUNT; f++) {
          const n = Number(row[f + 1]) >>> 0;
          this.fieldLen[doc * FIELD_COUNT + f] = n;
        }
        this.live++;
      }
      return;
    }
    const { pairs } = line;
    if (!Array.isArray(pairs) || pairs.length % 2 !== 0) throw new Error('saved search index has a malformed term line');
    for (let i = 0; i < pairs.length; i += 2) {
      if (typeof pairs[i] !== 'string' || typeof pairs[i + 1] !== 'string') throw new Error('saved search index has a malformed term line');
      const list = decodePostings(pairs[i + 1]);
      if (list.length > 0 && list[list.length - 2] >= this.docKey.length) throw new Error('saved search index has a posting for an unknown document');
      const id = this.dict.intern(pairs[i]);
      this.post[id] = list;
      this.postLen[id] = list.length;
    }
  }

  /**
   * Drops the spare capacity that growth by doubling left in every posting list and in the
   * documents' term lists (a third of the postings' bytes after a cold build at 100k notes).
   * Costs one copy of the postings, so it comes in steps the caller may yield between (each
   * trims {@link TRIM_STEP_LISTS} posting lists, the last one the term lists); the index
   * stays consistent between steps and may change meanwhile. Run it when a build ends, not
   * after each change.
   */
  *trimSteps(): Generator<void> {
    for (let first = 0; first < this.post.length; first += TRIM_STEP_LISTS) {
      const end = Math.min(this.post.length, first + TRIM_STEP_LISTS);
      for (let id = first; id < end; id++) {
        const list = this.post[id];
        const len = this.postLen[id] ?? 0;
        if (list != null && list.length > len) this.post[id] = len === 0 ? null : list.slice(0, len);
      }
      yield;
    }
    this.docTerms.trim();
  }

  /**
   * Bytes held by the index's typed arrays (outside the JS heap, in `arrayBuffers`), by
   * structure: posting lists (allocated, and used by postings), per-document term lists,
   * and the per-document field lengths with the scoring scratch arrays. For the bench.
   */
  bytes(): { postings: number; postingsUsed: number; docTerms: number; perDoc: number } {
    let postings = 0;
    let postingsUsed = 0;
    for (let id = 0; id < this.post.length; id++) {
      postings += this.post[id]?.byteLength ?? 0;
      postingsUsed += (this.postLen[id] ?? 0) * 4;
    }
    const perDoc = this.fieldLen.byteLength + this.dead.byteLength + this.stamps.byteLength + this.counts.byteLength + this.seen.byteLength;
    return { postings, postingsUsed, docTerms: this.docTerms.bytes(), perDoc };
  }

  /** The term's posting list (slots past `postLen[id]` are spare capacity). */
  private postingsOf(id: number): Uint32Array {
    return this.post[id] ?? EMPTY;
  }

  private append(id: number, doc: number, code: number): void {
    let list = this.postingsOf(id);
    const len = this.postLen[id] ?? 0;
    if (len + 2 > list.length) {
      list = grow(list, len + 2);
      this.post[id] = list;
    }
    list[len] = doc;
    list[len + 1] = code;
    this.postLen[id] = len + 2;
  }
}

const EMPTY = new Uint32Array(0);
/** `DocTermLists.start` of a document without a term list (loaded from a saved index, or removed). */
const NO_LIST = 0xffffffff;

/**
 * The distinct term ids of each document, which {@link TermIndex.remove} needs to find the
 * document's postings: every list in one `Uint32Array` arena, addressed by a start and a
 * count per doc id, instead of one typed array per document (100k of them cost about 20 MB
 * of object headers at 100k notes). A removed document's slots become garbage, reclaimed by
 * copying the live lists once garbage outweighs them.
 */
class DocTermLists {
  private data = new Uint32Array(1024);
  private used = 0;
  private garbage = 0;
  private start = new Uint32Array(1024).fill(NO_LIST);
  private count = new Uint32Array(1024);

  /** Stores `terms` as document `doc`'s list (`doc` has none yet). */
  set(doc: number, terms: readonly number[]): void {
    if (doc >= this.start.length) {
      const old = this.start.length;
      this.start = grow(this.start, doc + 1);
      this.start.fill(NO_LIST, old);
      this.count = grow(this.count, doc + 1);
    }
    if (this.used + terms.length > this.data.length) this.data = grow(this.data, this.used + terms.length);
    for (let i = 0; i < terms.length; i++) this.data[this.used + i] = terms[i];
    this.start[doc] = this.used;
    this.count[doc] = terms.length;
    this.used += terms.length;
  }

  /** Document `doc`'s list, removed from the store (a copy), or null when it has none. */
  take(doc: number): Uint32Array | null {
    if (doc >= this.start.length || this.start[doc] === NO_LIST) return null;
    const at = this.start[doc];
    const out = this.data.slice(at, at + this.count[doc]);
    this.start[doc] = NO_LIST;
    this.garbage += out.length;
    if (this.garbage > 4096 && this.garbage * 2 > this.used) this.compact(this.used - this.garbage);
    return out;
  }

  /** Drops the arena's spare capacity. */
  trim(): void {
    if (this.data.length > this.used) this.compact(this.used - this.garbage);
  }

  /** Bytes of the arena and its per-document index. */
  bytes(): number {
    return this.data.byteLength + this.start.byteLength + this.count.byteLength;
  }

  /** Copies the live lists, in doc order, into an arena of exactly `size` slots. */
  private compact(size: number): void {
    const out = new Uint32Array(size);
    let next = 0;
    for (let doc = 0; doc < this.start.length; doc++) {
      const at = this.start[doc];
      if (at === NO_LIST) continue;
      out.set(this.data.subarray(at, at + this.count[doc]), next);
      this.start[doc] = next;
      next += this.count[doc];
    }
    this.data = out;
    this.used = next;
    this.garbage = 0;
  }
}

/** A copy of `a` with room for at least `min` elements (capacity doubled). */
function grow(a: Uint32Array, min: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(Math.max(min, a.length * 2, 4));
  out.set(a);
  return out;
}

/** A copy of `a` with room for at least `min` bytes (capacity doubled). */
function growBytes(a: Uint8Array, min: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.max(min, a.length * 2));
  out.set(a);
  return out;
}

/** First even index `i` with `list[i] >= doc`, by binary search over the pairs. */
function lowerBound(list: Uint32Array, len: number, doc: number): number {
  let lo = 0;
  let hi = len >>> 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid * 2] < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2;
}
