/**
 * The term dictionary of the inverted index: every index term once, with a small integer id,
 * and the lookups a query word needs — exact, by prefix (a sorted view searched by binary
 * search) and within one edit (a scan of the terms of nearby length).
 */

/** Term ids are dense from 0 in first-seen order; a term keeps its id for the dictionary's life. */
export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
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
    }
    return id;
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

  /** Folds the ids added since the last lookup into the sorted view once they are many enough. */
  private merge(): void {
    if (this.pending.length === 0) return;
    if (this.pending.length < 64 || this.pending.length * 16 < this.sorted.length) return;
    const cmp = (a: number, b: number): number => (this.terms[a] < this.terms[b] ? -1 : this.terms[a] > this.terms[b] ? 1 : 0);
    const add = this.pending.sort(cmp);
    const out = new Array<number>(this.sorted.length + add.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length && j < add.length) out[k++] = cmp(this.sorted[i], add[j]) <= 0 ? this.sorted[i++] : add[j++];
    while (i < this.sorted.length) out[k++] = this.sorted[i++];
    while (j < add.length) out[k++] = add[j++];
    this.sorted = out;
    this.pending = [];
  }
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
