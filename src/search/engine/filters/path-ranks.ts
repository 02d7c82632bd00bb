/**
 * Each document's rank in path order, as an integer by doc id, so a query that orders notes of
 * equal score by path compares two integers instead of two paths: at 100k notes `tag:#x`
 * offers 13k notes that all score 0 to the best 20, and each comparison read two note records
 * and their path strings from all over the heap (8 of its 9 ms). Doc ids only grow and are
 * never reused, and a doc id's path never changes, so the documents are ranked in id order as
 * far as a query reaches ({@link cover}): new ones are sorted by path and merged into the
 * order kept so far. A removed document keeps its place (its rank is never compared again: a
 * live note's path is unique among live notes, so the ranks of live documents order them
 * exactly as their paths do).
 */
export class PathRanks {
  /** Doc ids ranked so far, by path ascending (`count` of them; removed ones included). */
  private order = new Int32Array(0);
  /** The path of each entry of {@link order}, at the same position. */
  private paths: string[] = [];
  private count = 0;
  /** Rank (position in path order) by doc id, for every live doc id below {@link upTo}. */
  private ranks = new Int32Array(0);
  /** Documents below this id are ranked. */
  private upTo = 0;

  /** @param pathOf a document's path, undefined for a removed doc id (it is not ranked). */
  constructor(private readonly pathOf: (doc: number) => string | undefined) {}

  /**
   * The ranks by doc id after {@link cover}: for two live doc ids below the covered count,
   * `ranks[a] < ranks[b]` exactly when a's path sorts before b's (UTF-16 code unit order, as
   * `<` compares strings). The array is replaced by a later cover: read it after one.
   */
  get byDoc(): Int32Array {
    return this.ranks;
  }

  /**
   * Ranks the live documents below `n` not ranked yet: they are sorted by path and each is
   * placed by binary search among those ranked before (m new of n documents: O(m log n) path
   * comparisons and O(n) integer copies).
   */
  cover(n: number): void {
    if (n <= this.upTo) return;
    const freshDocs: number[] = [];
    const freshPaths: string[] = [];
    for (let doc = this.upTo; doc < n; doc++) {
      const path = this.pathOf(doc);
      if (path === undefined) continue;
      freshDocs.push(doc);
      freshPaths.push(path);
    }
    const sorted = freshDocs.map((_, i) => i).sort((a, b) => compare(freshPaths[a], freshPaths[b]));
    const total = this.count + sorted.length;
    const order = new Int32Array(total);
    const paths = new Array<string>(total);
    let from = 0;
    let at = 0;
    for (const i of sorted) {
      const path = freshPaths[i];
      // The first kept entry after `path` (a removed document's equal path may sit on either side).
      let lo = from;
      let hi = this.count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.paths[mid] < path) lo = mid + 1;
        else hi = mid;
      }
      for (; from < lo; from++, at++) {
        order[at] = this.order[from];
        paths[at] = this.paths[from];
      }
      order[at] = freshDocs[i];
      paths[at++] = path;
    }
    for (; from < this.count; from++, at++) {
      order[at] = this.order[from];
      paths[at] = this.paths[from];
    }
    const ranks = this.ranks.length >= n ? this.ranks : new Int32Array(Math.max(n, this.ranks.length * 2));
    for (let r = 0; r < total; r++) ranks[order[r]] = r;
    this.order = order;
    this.paths = paths;
    this.count = total;
    this.ranks = ranks;
    this.upTo = n;
  }
}

/** UTF-16 code unit order, as `<` orders strings. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
