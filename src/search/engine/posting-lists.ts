import { grow, lowerBound } from './typed-growth';

/** Array slots one step of {@link PostingLists.trimSteps} copies at most (1 MB), besides one list longer than that. */
const TRIM_STEP_SLOTS = 1 << 18;
/** Lists one step looks at, at most (most of them need no copy). */
const TRIM_STEP_LISTS = 4096;
const EMPTY = new Uint32Array(0);

/**
 * Every term's posting list: a `Uint32Array` of pairs `[doc id, code]` (the code made by
 * posting-codec's packPosting), sorted by doc id, grown by doubling while indexing and
 * trimmed to its length by {@link trimSteps} once a build ends. Indexed by term id.
 */
export class PostingLists {
  private lists: (Uint32Array | null)[] = [];
  private lens: number[] = [];

  /** Term `id`'s list; slots from {@link length} on are spare capacity. */
  of(id: number): Uint32Array {
    return this.lists[id] ?? EMPTY;
  }

  /** Array slots used by term `id`'s list (twice its number of postings). */
  length(id: number): number {
    return this.lens[id] ?? 0;
  }

  /** Appends the posting `[doc, code]` to term `id`'s list; `doc` must not be below the list's last doc. */
  append(id: number, doc: number, code: number): void {
    let list = this.of(id);
    const len = this.length(id);
    if (len + 2 > list.length) {
      list = grow(list, len + 2);
      this.lists[id] = list;
    }
    list[len] = doc;
    list[len + 1] = code;
    this.lens[id] = len + 2;
  }

  /** Replaces term `id`'s list with `pairs` (flat `[doc, code]`, sorted by doc), as loaded from a saved index. */
  set(id: number, pairs: Uint32Array): void {
    this.lists[id] = pairs;
    this.lens[id] = pairs.length;
  }

  /** Drops every posting of `doc` from term `id`'s list. */
  removeDoc(id: number, doc: number): void {
    const list = this.of(id);
    const len = this.length(id);
    const at = lowerBound(list, len, doc);
    let end = at;
    while (end < len && list[end] === doc) end += 2;
    if (end > at) {
      list.copyWithin(at, end, len);
      this.lens[id] = len - (end - at);
    }
  }

  /** True when term `id`'s list has a posting of `doc`. */
  has(id: number, doc: number): boolean {
    const list = this.of(id);
    const len = this.length(id);
    const at = lowerBound(list, len, doc);
    return at < len && list[at] === doc;
  }

  /**
   * Drops the spare capacity that growth by doubling left (a third of the postings' bytes after
   * a cold build at 100k notes), in steps of at most {@link TRIM_STEP_SLOTS} slots copied (or one
   * longer list) and {@link TRIM_STEP_LISTS} lists looked at, so the caller may yield between
   * steps: a step of 1024 lists by count alone copied tens of MB at once and held the main thread
   * for hundreds of ms. The lists stay consistent between steps and may change meanwhile.
   */
  *trimSteps(): Generator<void> {
    let copied = 0;
    let looked = 0;
    for (let id = 0; id < this.lists.length; id++) {
      if (++looked > TRIM_STEP_LISTS || (copied > 0 && copied + this.length(id) > TRIM_STEP_SLOTS)) {
        yield;
        copied = 0;
        looked = 1;
      }
      const list = this.lists[id];
      const len = this.length(id);
      if (list != null && list.length > len) {
        this.lists[id] = len === 0 ? null : list.slice(0, len);
        copied += len;
      }
    }
    yield;
  }

  /** Bytes allocated by the lists, and the bytes their postings use. */
  bytes(): { allocated: number; used: number } {
    let allocated = 0;
    let used = 0;
    for (let id = 0; id < this.lists.length; id++) {
      allocated += this.lists[id]?.byteLength ?? 0;
      used += this.length(id) * 4;
    }
    return { allocated, used };
  }
}
