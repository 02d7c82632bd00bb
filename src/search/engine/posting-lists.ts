import { grow, lowerBound } from './typed-growth';

/** Array slots one step of {@link PostingLists.trimSteps} copies at most (1 MB), besides one list longer than that. */
const TRIM_STEP_SLOTS = 1 << 18;
/** Lists one step looks at, at most (most of them need no copy). */
const TRIM_STEP_LISTS = 4096;
/** Slots of one shared page that trimmed lists are copied into (4 MB); a list above a quarter of it gets an array of its own. */
const TRIM_PAGE_SLOTS = 1 << 20;
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
    let page = EMPTY;
    let used = 0;
    // Slots still to copy (as of the start): a page is no larger than what remains, so a small index gets no 4 MB page.
    let remaining = 0;
    for (let id = 0; id < this.lists.length; id++) {
      const list = this.lists[id];
      if (list != null && list.length > this.length(id)) remaining += this.length(id);
    }
    for (let id = 0; id < this.lists.length; id++) {
      if (++looked > TRIM_STEP_LISTS || (copied > 0 && copied + this.length(id) > TRIM_STEP_SLOTS)) {
        yield;
        copied = 0;
        looked = 1;
      }
      const list = this.lists[id];
      const len = this.length(id);
      if (list == null || list.length === len) continue;
      if (len === 0) this.lists[id] = null;
      else if (len * 4 > TRIM_PAGE_SLOTS) this.lists[id] = list.slice(0, len);
      else {
        if (used + len > page.length) {
          page = new Uint32Array(Math.min(TRIM_PAGE_SLOTS, Math.max(len, remaining)));
          used = 0;
        }
        const into = page.subarray(used, used + len);
        into.set(list.subarray(0, len));
        this.lists[id] = into;
        used += len;
      }
      copied += len;
      remaining -= len;
    }
    yield;
  }

  /** Bytes allocated by the lists (each buffer once: trimmed lists share pages), and the bytes their postings use. */
  bytes(): { allocated: number; used: number } {
    const buffers = new Set<ArrayBufferLike>();
    let used = 0;
    for (let id = 0; id < this.lists.length; id++) {
      const list = this.lists[id];
      if (list != null) buffers.add(list.buffer);
      used += this.length(id) * 4;
    }
    let allocated = 0;
    for (const buffer of buffers) allocated += buffer.byteLength;
    return { allocated, used };
  }
}
