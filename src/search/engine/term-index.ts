import { decodePostings, encodePostings } from './posting-codec';
import { TermDictionary } from './term-dictionary';
import { indexTerms } from './tokenizer';

/**
 * The inverted index behind {@link LexicalEngine}: for each term, the documents and fields it
 * occurs in with its frequency, scored with BM25+ per field (the scoring MiniSearch 7 uses,
 * k 1.2, b 0.7, δ 0.5) and summed over fields with per-field boosts.
 *
 * Memory layout, chosen for a 14k-note vault in a few tens of MB: a posting list is a
 * `Uint32Array` of pairs `[doc id, field | frequency << 3]`, sorted by doc id; per-document
 * field lengths are one flat `Uint32Array`. Doc ids are dense and only grow: a re-added
 * document gets a new id, the old one is removed from every posting list it was in (the
 * document's own term list says which). A document loaded from a saved index has no term
 * list: when it is removed it is tombstoned instead, skipped by every lookup, and dropped
 * for good by the next save (which renumbers documents densely).
 */

/** Number of indexed fields per document; field numbers are 0 ≤ f < FIELD_COUNT. */
export const FIELD_COUNT = 6;

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

const K = 1.2;
const B = 0.7;
const D = 0.5;
/** MiniSearch 7's default weights for prefix and fuzzy expansions. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** Characters of encoded postings per saved term line. */
const TERM_LINE_CHARS = 1 << 18;
/** Documents per saved doc line. */
const DOC_LINE_ROWS = 2000;

/** Scores summed per document for one query term: `values` by doc id, `docs` the ids with a score, in first-scored order. */
export interface ScoreSheet {
  values: Float64Array;
  docs: number[];
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
  private docTerms: (Uint32Array | null)[] = [];
  /** 1 for a tombstoned document (see the class comment), by doc id; `deadCount` of them. */
  private dead = new Uint8Array(1024);
  private deadCount = 0;
  private readonly fieldTotal = new Float64Array(FIELD_COUNT);
  private live = 0;
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
      this.fieldTotal[f] += terms.length;
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
    this.docTerms[doc] = Uint32Array.from(all);
    this.live++;
    return doc;
  }

  /** Removes document `doc`; does nothing when it is not live. */
  remove(doc: number): void {
    if (this.docKey[doc] == null) return;
    this.version++;
    this.docKey[doc] = null;
    this.live--;
    for (let f = 0; f < FIELD_COUNT; f++) this.fieldTotal[f] -= this.fieldLen[doc * FIELD_COUNT + f];
    const terms = this.docTerms[doc];
    this.docTerms[doc] = null;
    if (terms === null || terms === undefined) {
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

  /** The query term's expansions: the term itself, terms it prefixes, and (only when neither exists) terms one edit away. */
  expand(term: string, mode: ExpandMode): Expansion[] {
    const out: Expansion[] = [];
    const exact = this.dict.idOf(term);
    if (exact >= 0) out.push({ id: exact, weight: 1 });
    if (mode.prefix) {
      for (const id of this.dict.withPrefix(term)) {
        if (id === exact) continue;
        const t = this.dict.term(id).length;
        out.push({ id, weight: (PREFIX_WEIGHT * t) / (t + 0.3 * (t - term.length)) });
      }
    }
    if (mode.fuzzy && out.length === 0) {
      for (const id of this.dict.withinOneEdit(term)) {
        const t = this.dict.term(id).length;
        out.push({ id, weight: (FUZZY_WEIGHT * t) / (t + 1) });
      }
    }
    return out;
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
   * Adds the BM25+ score of every live document containing term `id` into `sheet`,
   * `weight × boosts[field] × bm25` summed over the fields it occurs in (always > 0).
   * @param within when given, only documents `d` with `within[d] === 1` are scored (the
   *   others cannot match the query anyway); document frequencies still count them all
   */
  score(id: number, weight: number, boosts: ArrayLike<number>, sheet: ScoreSheet, within: Uint8Array | null = null): void {
    const list = this.postingsOf(id);
    const len = this.postLen[id];
    const matching = new Float64Array(FIELD_COUNT);
    const skip = this.deadCount > 0;
    for (let i = 0; i < len; i += 2) if (!skip || this.dead[list[i]] !== 1) matching[list[i + 1] & 7]++;
    const idf = new Float64Array(FIELD_COUNT);
    const perLength = new Float64Array(FIELD_COUNT);
    for (let f = 0; f < FIELD_COUNT; f++) {
      idf[f] = weight * boosts[f] * Math.log(1 + (this.live - matching[f] + 0.5) / (matching[f] + 0.5));
      perLength[f] = (K * B) / (this.fieldTotal[f] / Math.max(1, this.live) || 1);
    }
    const base = K * (1 - B);
    for (let i = 0; i < len; i += 2) {
      const doc = list[i];
      if ((skip && this.dead[doc] === 1) || (within !== null && within[doc] !== 1)) continue;
      const code = list[i + 1];
      const f = code & 7;
      const tf = code >>> 3;
      const s = idf[f] * (D + (tf * (K + 1)) / (tf + base + perLength[f] * this.fieldLen[doc * FIELD_COUNT + f]));
      if (sheet.values[doc] === 0) sheet.docs.push(doc);
      sheet.values[doc] += s;
    }
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
        this.docTerms.push(null);
        if (this.fieldLen.length < (doc + 1) * FIELD_COUNT) this.fieldLen = grow(this.fieldLen, (doc + 1) * FIELD_COUNT);
        for (let f = 0; f < FIELD_COUNT; f++) {
          const n = Number(row[f + 1]) >>> 0;
          this.fieldLen[doc * FIELD_COUNT + f] = n;
          this.fieldTotal[f] += n;
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
