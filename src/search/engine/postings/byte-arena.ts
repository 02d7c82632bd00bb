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
 * reads only the bytes it wrote). Pages are never returned while the arena lives: once growth
 * is over, {@link packer} moves the lists to the front of the pages, end to end, and the pages
 * left empty go with the arena (PostingLists' trim).
 */
export class ByteArena {
  private page: Uint8Array | null = null;
  private pageUsed = 0;
  /** Freed regions by size: `free[k]` holds regions of 2^k bytes. */
  private readonly free: Uint8Array[][] = Array.from({ length: MAX_REGION_BITS + 1 }, () => []);
  /** This arena's pages in the order they were made. */
  private readonly pages: Uint8Array[] = [];
  /** Each page's number in {@link pages}, by its buffer. */
  private readonly pageNumber = new Map<ArrayBufferLike, number>();

  /** True when `bytes` is a region of this arena. */
  holds(bytes: Uint8Array): boolean {
    return this.pageNumber.has(bytes.buffer);
  }

  /** The number of the page region `bytes` lies in (pages count from 0 in the order they were made), or -1 when it is not a region of this arena. */
  pageOf(bytes: Uint8Array): number {
    return this.pageNumber.get(bytes.buffer) ?? -1;
  }

  /** Pages made so far. */
  get pageCount(): number {
    return this.pages.length;
  }

  /** A {@link RegionPacker} over this arena's pages: end growth first (a list grown afterwards may be given a region the packer overwrites). */
  packer(): RegionPacker {
    return new RegionPacker(this.pages);
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
      this.pageNumber.set(this.page.buffer, this.pages.length);
      this.pages.push(this.page);
      this.pageUsed = 0;
    }
    const out = this.page.subarray(this.pageUsed, this.pageUsed + size);
    this.pageUsed += size;
    return out;
  }
}

/**
 * Moves lists that are regions of a {@link ByteArena} to the front of its pages, end to end,
 * each where it fits whole in a page: no new memory, where copying them out to fresh arrays
 * made a cold build at 100k notes allocate its postings' bytes again (the host's collector ran
 * its marking of the whole heap in those steps). Give it the regions in page order and, within
 * a page, by offset: a list then never lands after where it was, nor on a list not moved yet.
 */
export class RegionPacker {
  private page = 0;
  private at = 0;

  constructor(private readonly pages: readonly Uint8Array[]) {}

  /**
   * Moves `bytes[0, len)` to the next place in the packed pages.
   * @param bytes a region of the arena at or after every region moved before it
   * @returns the list's bytes in their new place, exactly `len` long
   */
  move(bytes: Uint8Array, len: number): Uint8Array {
    if (this.at + len > PAGE_BYTES) {
      this.page++;
      this.at = 0;
    }
    const into = this.pages[this.page];
    if (bytes.buffer === into.buffer) into.copyWithin(this.at, bytes.byteOffset, bytes.byteOffset + len);
    else into.set(bytes.subarray(0, len), this.at);
    const out = into.subarray(this.at, this.at + len);
    this.at += len;
    return out;
  }

  /** The page being filled (the last one holding moved lists), and how many of its bytes they take. */
  get last(): { page: Uint8Array; used: number } {
    return { page: this.pages[this.page], used: this.at };
  }
}
