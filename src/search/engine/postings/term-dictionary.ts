/**
 * The term dictionary of the inverted index: every index term once, with a small integer id,
 * and the lookups a query word needs — exact, by prefix (a sorted view searched by binary
 * search) and within one edit (a scan of the terms of nearby length).
 */

import { ASCII_HASH_SEED, asciiHashFinish, asciiHashStep } from './ascii-hash';
import { grow, growBytes } from './typed-growth';

/** Terms {@link TermDictionary.sortSteps} sorts in one step, then merges in runs of this length. */
const SORT_RUN = 8192;
/** Pairs of terms {@link TermDictionary.sortSteps} compares between two pauses while merging (about a ms). */
const SORT_STEP = 16384;
/** True for a term of ASCII lower-case letters and digits only: the terms {@link TermDictionary.internAscii} can find. */
const ASCII_TERM = /^[a-z0-9]+$/;

/**
 * Term ids are dense from 0 in first-seen order; a term keeps its id for the dictionary's life.
 * Besides the map by term, the ASCII terms sit in an open-addressing hash table keyed by their
 * characters (kept as bytes beside it), so {@link internAscii} finds a word of the note text by
 * its offsets: an index build then makes a string only for a term it has not seen (tens of
 * thousands), not for every word (tens of millions at 100k notes, whose garbage collections
 * took a third of the build).
 */
export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  /**
   * Hash table of the ASCII terms: per slot, two entries side by side (one cache line for a
   * probe): the term's hash and its id + 1 (0: empty slot).
   */
  private table = new Int32Array(2 * 1024);
  private asciiCount = 0;
  /**
   * The ASCII terms' characters, lower-cased, one byte each, in id order: term `id`'s are
   * `chars[charStart[id], charStart[id + 1])` (empty for a term that is not ASCII). A probe
   * compares the note's word against these bytes, not the term's string (one pointer less to
   * follow per word: interning 20k generated notes' texts took 14-20 % less CPU).
   */
  private chars = new Uint8Array(1 << 16);
  private charStart = new Uint32Array(1024);
  /** Term ids sorted by term (UTF-16 code unit order). */
  private sorted: number[] = [];
  /** Ids added since `sorted` was last merged, unsorted. */
  private pending: number[] = [];

  /** Number of terms. */
  get size(): number {
    return this.terms.length;
  }

  /** The id of `term`, or -1 when it is not in the dictionary. */
  idOf(term: string): number {
    return this.ids.get(term) ?? -1;
  }

  /** The term with id `id` (0 ≤ id < size). */
  term(id: number): string {
    return this.terms[id];
  }

  /** The id of `term`, adding it when new. */
  intern(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.ids.set(term, id);
      this.pending.push(id);
      const ascii = ASCII_TERM.test(term);
      this.addChars(id, ascii ? term : '');
      if (ascii) this.addSlot(id, asciiHash(term, 0, term.length));
    }
    return id;
  }

  /**
   * The id of the lower-cased ASCII run `text[start, end)` (letters and digits only, as the
   * tokenizer cuts them), adding the term when new: what `intern(text.slice(start, end).toLowerCase())`
   * returns, without making the string when the term is known.
   * @param hash the run's hash (ascii-hash.ts), when the caller computed it while scanning
   */
  internAscii(text: string, start: number, end: number, hash = asciiHash(text, start, end)): number {
    const h = hash | 0;
    const { table, chars, charStart } = this;
    const mask = (table.length >>> 1) - 1;
    const len = end - start;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const slot = table[2 * at + 1];
      if (slot === 0) break;
      if (table[2 * at] !== h) continue;
      const from = charStart[slot - 1];
      if (charStart[slot] - from !== len) continue;
      let k = 0;
      while (k < len && chars[from + k] === lower(text.charCodeAt(start + k))) k++;
      if (k === len) return slot - 1;
    }
    return this.intern(text.slice(start, end).toLowerCase());
  }

  /**
   * Ids of every term that starts with `prefix` (the prefix itself included when present),
   * in no particular order.
   */
  withPrefix(prefix: string): number[] {
    this.merge();
    const out: number[] = [];
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[this.sorted[mid]] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length && this.terms[this.sorted[i]].startsWith(prefix); i++) out.push(this.sorted[i]);
    for (const id of this.pending) if (this.terms[id].startsWith(prefix)) out.push(id);
    return out;
  }

  /**
   * Ids of every term exactly one edit (insertion, deletion or substitution of one UTF-16 code
   * unit) away from `term`. Scans the whole dictionary comparing lengths first: tens of
   * thousands of terms take well under a millisecond.
   */
  withinOneEdit(term: string): number[] {
    const out: number[] = [];
    const n = term.length;
    for (let id = 0; id < this.terms.length; id++) {
      const t = this.terms[id];
      const d = t.length - n;
      if (d <= 1 && d >= -1 && t !== term && oneEditApart(term, t)) out.push(id);
    }
    return out;
  }

  /** Appends term `id`'s characters (`term`: ASCII, or '' for a term that is not) to {@link chars}. */
  private addChars(id: number, term: string): void {
    if (id + 2 > this.charStart.length) this.charStart = grow(this.charStart, id + 2);
    const from = this.charStart[id];
    if (from + term.length > this.chars.length) this.chars = growBytes(this.chars, from + term.length);
    for (let k = 0; k < term.length; k++) this.chars[from + k] = term.charCodeAt(k);
    this.charStart[id + 1] = from + term.length;
  }

  /** Puts ASCII term `id` of hash `h` into the hash table, doubling it past half full. */
  private addSlot(id: number, h: number): void {
    if (++this.asciiCount * 4 > this.table.length) {
      const old = this.table;
      this.table = new Int32Array(old.length * 2);
      for (let at = 0; at < old.length; at += 2) if (old[at + 1] !== 0) this.place(old[at + 1], old[at]);
    }
    this.place(id + 1, h | 0);
  }

  private place(slot: number, h: number): void {
    const mask = (this.table.length >>> 1) - 1;
    let at = h & mask;
    while (this.table[2 * at + 1] !== 0) at = (at + 1) & mask;
    this.table[2 * at] = h;
    this.table[2 * at + 1] = slot;
  }

  /**
   * Folds the terms added since the last lookup into the sorted view, in steps the caller may
   * yield between (a merge sort: runs of {@link SORT_RUN} terms sorted, then merged, each step
   * comparing about {@link SORT_STEP} pairs), what the first prefix lookup after a build would
   * otherwise do in one go. Terms may be added meanwhile (they stay for a later fold); a lookup
   * that folds them itself meanwhile makes the steps give up.
   */
  *sortSteps(): Generator<void> {
    const before = this.sorted;
    const pending = this.pending;
    const n = pending.length;
    if (n === 0) return;
    const cmp = (a: number, b: number): number => (this.terms[a] < this.terms[b] ? -1 : this.terms[a] > this.terms[b] ? 1 : 0);
    const terms = this.terms;
    let from = pending.slice(0, n);
    for (let lo = 0; lo < n; lo += SORT_RUN) {
      const run = from.slice(lo, lo + SORT_RUN).sort(cmp);
      for (let k = 0; k < run.length; k++) from[lo + k] = run[k];
      yield;
    }
    let to = new Array<number>(n);
    for (let width = SORT_RUN; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = Math.min(lo + width, n);
        yield* mergeByTerm(terms, { ids: from, lo, hi: mid }, { ids: from, lo: mid, hi: Math.min(lo + 2 * width, n) }, to, lo);
      }
      [from, to] = [to, from];
    }
    // The sorted terms of before and of the fold, merged as merge() merges them.
    const out = new Array<number>(before.length + n);
    yield* mergeByTerm(terms, { ids: before, lo: 0, hi: before.length }, { ids: from, lo: 0, hi: n }, out, 0);
    // A lookup folded the terms meanwhile (merge() replaces both arrays): its view stands.
    if (this.sorted !== before || this.pending !== pending) return;
    this.sorted = out;
    this.pending = pending.slice(n);
  }

  /** Folds the ids added since the last lookup into the sorted view once they are many enough. */
  private merge(): void {
    if (this.pending.length === 0) return;
    if (this.pending.length < 64 || this.pending.length * 16 < this.sorted.length) return;
    const cmp = (a: number, b: number): number => (this.terms[a] < this.terms[b] ? -1 : this.terms[a] > this.terms[b] ? 1 : 0);
    const add = this.pending.sort(cmp);
    const out = new Array<number>(this.sorted.length + add.length);
    const steps = mergeByTerm(this.terms, { ids: this.sorted, lo: 0, hi: this.sorted.length }, { ids: add, lo: 0, hi: add.length }, out, 0);
    while (steps.next().done !== true);
    this.sorted = out;
    this.pending = [];
  }
}

/** Term ids `ids[lo..hi)`, in the order of their terms. */
interface TermRun {
  ids: readonly number[];
  lo: number;
  hi: number;
}

/**
 * Merges runs `a` and `b` (each in term order) into `out` from index `at`, `a`'s id first
 * between equal terms, pausing (a `yield`) after every {@link SORT_STEP} comparisons: a step of
 * TermDictionary.sortSteps, or, drained, a merge in one go. `out` may be neither run's array.
 */
function* mergeByTerm(terms: readonly string[], a: TermRun, b: TermRun, out: number[], at: number): Generator<void> {
  let i = a.lo;
  let j = b.lo;
  let k = at;
  let compared = 0;
  while (i < a.hi && j < b.hi) {
    out[k++] = terms[a.ids[i]] <= terms[b.ids[j]] ? a.ids[i++] : b.ids[j++];
    if (++compared === SORT_STEP) {
      compared = 0;
      yield;
    }
  }
  while (i < a.hi) out[k++] = a.ids[i++];
  while (j < b.hi) out[k++] = b.ids[j++];
}

/** True when `a` and `b` (lengths differing by at most one) are exactly one edit apart. */
function oneEditApart(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length) {
    // One substitution at i, the rest equal.
    return a.slice(i + 1) === b.slice(i + 1);
  }
  // b is one longer: one insertion at i.
  return a.slice(i) === b.slice(i + 1);
}

/** An ASCII letter or digit lower-cased (A–Z to a–z; others as they are). */
function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** The hash of ascii-hash.ts over `text[start, end)`. */
function asciiHash(text: string, start: number, end: number): number {
  let h = ASCII_HASH_SEED;
  for (let i = start; i < end; i++) h = asciiHashStep(h, text.charCodeAt(i));
  return asciiHashFinish(h);
}
