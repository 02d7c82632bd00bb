/**
 * Growing byte lists without an `ArrayBuffer` per growth: each list is a region of 2^k bytes
 * carved from shared pages; a list that outgrows its region moves to one twice the size and
 * its old region is handed to the next list of that size. Growing every posting list by
 * doubling into arrays of its own made about 300,000 `ArrayBuffer` allocations in a 100k-note
 * build, 4.6 % of its CPU in `growBytes` alone, and each buffer is tracked and swept by the
 * garbage collector (docs/performance.md, issue 20's cold build).
 */

/** Smallest region, bytes. */
const MIN_REGION_BITS = 4;
/** Largest region carved from a page (256 KB); a list that needs more gets an array of its own. */
const MAX_REGION_BITS = 18;
/** Bytes of one page (1 MB). */
const PAGE_BYTES = 1 << 20;

/**
 * Regions of 2^k bytes (16 B to 256 KB) in 1 MB pages, with a free list per size. A region
 * is a `Uint8Array` view; a freed one is reused as it is (the bytes are not cleared: a list
 * reads only the bytes it wrote). Pages are never returned while the arena lives: drop the
 * whole arena once its lists have moved out (PostingLists' trim copies them).
 */
export class ByteArena {
  private page: Uint8Array | null = null;
  private pageUsed = 0;
  /** Freed regions by size: `free[k]` holds regions of 2^k bytes. */
  private readonly free: Uint8Array[][] = Array.from({ length: MAX_REGION_BITS + 1 }, () => []);
  /** The buffers of this arena's pages. */
  private readonly pages = new Set<ArrayBufferLike>();

  /** True when `bytes` is a region of this arena. */
  holds(bytes: Uint8Array): boolean {
    return this.pages.has(bytes.buffer);
  }

  /**
   * A list of at least `min` bytes (and at least twice `old`'s) holding `old`'s bytes at its
   * start; `old`, when it is a region of this arena, is freed for a later call.
   * @param old the list's current bytes (empty for a new list)
   * @returns a region of 2^k bytes, or an array of its own above 256 KB
   */
  grow(old: Uint8Array, min: number): Uint8Array {
    const want = Math.max(min, old.length * 2, 1 << MIN_REGION_BITS);
    let bits = MIN_REGION_BITS;
    while (1 << bits < want) bits++;
    const out = bits > MAX_REGION_BITS ? new Uint8Array(1 << bits) : (this.free[bits].pop() ?? this.carve(1 << bits));
    out.set(old);
    if (old.length > 0 && this.holds(old)) this.free[Math.log2(old.length)].push(old);
    return out;
  }

  /** A fresh region of `size` bytes (a power of two ≤ 256 KB) from the page being filled, or a new page. */
  private carve(size: number): Uint8Array {
    if (this.page === null || this.pageUsed + size > PAGE_BYTES) {
      // The page's rest, too small for this region, goes to the free lists in power-of-two pieces.
      if (this.page !== null)
        for (let bits = MAX_REGION_BITS; bits >= MIN_REGION_BITS; bits--) {
          if (PAGE_BYTES - this.pageUsed < 1 << bits) continue;
          this.free[bits].push(this.page.subarray(this.pageUsed, this.pageUsed + (1 << bits)));
          this.pageUsed += 1 << bits;
        }
      this.page = new Uint8Array(PAGE_BYTES);
      this.pages.add(this.page.buffer);
      this.pageUsed = 0;
    }
    const out = this.page.subarray(this.pageUsed, this.pageUsed + size);
    this.pageUsed += size;
    return out;
  }
}
