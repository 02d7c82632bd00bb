import { BlockBounds } from './block-bounds';
import { ByteArena } from './byte-arena';
import { writeVarint } from './posting-codec';
import { grow, growBytes } from './typed-growth';

/**
 * Postings after which a list starts a new block at its next document: each block has a skip
 * entry, so {@link PostingLists.has} and {@link PostingLists.removeDoc} decode one block, not
 * the whole list (8 bytes of skip entry per 64 postings of ≈ 2.5 bytes each).
 */
const BLOCK_POSTINGS = 64;
/**
 * Bytes one step of {@link PostingLists.trimSteps} copies at most (256 KB), besides one list
 * longer than that: copies into fresh pages ran at about 100 MB/s at 100k notes (the pages'
 * first touch), so steps of 1 MB were slices of 20-120 ms.
 */
const TRIM_STEP_BYTES = 1 << 18;
/** Lists one step looks at, at most (most of them need no copy; each copied one makes a view object). */
const TRIM_STEP_LISTS = 1024;
/** Bytes of one shared page that trimmed lists are copied into (4 MB); a list above a quarter of it gets an array of its own. */
const TRIM_PAGE_BYTES = 1 << 22;
const EMPTY_BYTES = new Uint8Array(0);
const EMPTY_SKIPS = new Uint32Array(0);
/** Bytes a posting takes at most: two varints of 32-bit values, 5 bytes each. */
const MAX_POSTING_BYTES = 10;
/** Per-term bookkeeping in {@link PostingLists}' `meta`: slots a term, and each slot's offset. */
const META = 5;
/** Bytes of the list used. */
const USED = 0;
/** Slots of the skip entries used (two an entry). */
const SKIP_USED = 1;
/** Doc id of the list's last posting (0 when empty). */
const LAST = 2;
/** Postings in the list. */
const COUNT = 3;
/** Postings in the list's last block. */
const FILL = 4;

/**
 * Reads one term's postings in order: after each {@link next} that returns true, `doc` and
 * `code` are the posting's doc id and code (posting-codec's packPosting). Made by
 * {@link PostingLists.cursor}; valid until the lists next change.
 */
export class PostingCursor {
  /** Doc id of the posting last read (the block's base before the first). */
  doc: number;
  /** Code of the posting last read. */
  code = 0;
  /** Byte offset of the next posting. */
  at: number;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly end: number,
    at: number,
    doc: number,
  ) {
    this.at = at;
    this.doc = doc;
  }

  /** Reads the next posting; false at the end of the list. */
  next(): boolean {
    let at = this.at;
    if (at >= this.end) return false;
    const bytes = this.bytes;
    // Each varint's loop body runs for its first byte too, so V8's code for it has seen every operation (TermIndex.frequencies).
    let b = 0;
    let v = 0;
    let scale = 1;
    do {
      b = bytes[at++];
      v += (b & 127) * scale;
      scale *= 128;
    } while (b > 127);
    this.doc += v;
    v = 0;
    scale = 1;
    do {
      b = bytes[at++];
      v += (b & 127) * scale;
      scale *= 128;
    } while (b > 127);
    this.code = v;
    this.at = at;
    return true;
  }
}

/**
 * Every term's posting list, indexed by term id. A list is a byte string of postings sorted by
 * doc id, each the distance of its doc id to the previous posting's (the first: to 0) and its
 * code, both as base-128 varints (7 bits a byte, low bits first, high bit "more follows"): about
 * 2.5 bytes a posting where pairs of `Uint32` took 8 (165 MB of postings at 100k generated
 * notes; docs/performance.md). A document holding the term in several fields has one posting
 * per field, consecutive, the later ones at distance 0.
 *
 * Lists are cut into blocks of about {@link BLOCK_POSTINGS} postings, a block always starting
 * at a new document; each block after the first has a skip entry `[doc id of the posting
 * before it, byte offset]`, so finding or removing a document decodes one block after a binary
 * search of the skip entries. Scoring reads a list from its start ({@link cursor}) and needs no
 * skip entry. Lists grow by doubling while indexing ({@link append}: doc ids only grow), lose a
 * document in place ({@link removeDoc}: its postings are cut out and the next posting's
 * distance rewritten, which never takes more bytes), and are trimmed into shared pages by
 * {@link trimSteps} once a build ends. The block bounds of the terms that have them
 * ({@link bounds}, block-bounds.ts) follow the blocks: a new block starts at 0, a merge keeps
 * the larger bound.
 */
export class PostingLists {
  private data: (Uint8Array | null)[] = [];
  private skips: (Uint32Array | null)[] = [];
  /** Per term id, {@link META} slots side by side (one cache line for an append): see USED, SKIP_USED, LAST, COUNT, FILL. */
  private meta = new Uint32Array(1024 * META);
  /** Block index (0 the first) of the last {@link seek}. */
  private seekBlock = 0;
  /** Where lists grow until the next trim moves them out (then null: later growth gets arrays of its own, as edits are few). */
  private arena: ByteArena | null = new ByteArena();
  /** The skip entries of the saved line being loaded (reused by every {@link loadLists}). */
  private loadSkips = new Uint32Array(1024);
  /** Per-block score bounds of the terms that have them (block-bounds.ts), kept in step with the blocks. */
  readonly bounds = new BlockBounds();

  /** Number of postings in term `id`'s list (one per document and field holding it). */
  count(id: number): number {
    return this.at(id, COUNT);
  }

  /**
   * Term `id`'s blocks: `count` of them (0 for an empty list) and its skip entries
   * (`[doc id of the posting before block k + 1, byte offset of block k + 1]` for k ≥ 0, two
   * slots each; the first block starts at byte 0 after doc 0); read only, valid until the lists change.
   */
  blocks(id: number): { count: number; skips: Uint32Array; end: number } {
    const n = this.at(id, COUNT);
    return { count: n === 0 ? 0 : (this.at(id, SKIP_USED) >>> 1) + 1, skips: this.skips[id] ?? EMPTY_SKIPS, end: this.at(id, USED) };
  }

  /** Raises the bound of term `id`'s last block by `x` (a posting just appended there; see BlockBounds.raise). */
  raiseLastBound(id: number, x: number): void {
    this.bounds.raise(id, this.at(id, SKIP_USED) >>> 1, x);
  }

  /** A cursor at the start of term `id`'s list (see {@link PostingCursor}). */
  cursor(id: number): PostingCursor {
    return new PostingCursor(this.data[id] ?? EMPTY_BYTES, this.at(id, USED), 0, 0);
  }

  /** Term `id`'s list as it is held (a view, valid until the lists next change): what posting-codec's PostingBytes writes for it when doc ids stay as they are. */
  listBytes(id: number): Uint8Array {
    const data = this.data[id];
    return data == null ? EMPTY_BYTES : data.subarray(0, this.at(id, USED));
  }

  /**
   * Appends the posting `[doc, code]` to term `id`'s list.
   * @param doc must not be below the list's last doc id
   * @param code below 2^32
   * @throws Error when `doc` is below the list's last doc id (postings must come in doc order)
   */
  append(id: number, doc: number, code: number): void {
    const m = id * META;
    if (m >= this.meta.length) this.cover(id + 1);
    const meta = this.meta;
    const n = meta[m + COUNT];
    // LAST is 0 while the list is empty: the first posting's distance is its doc id.
    const last = meta[m + LAST];
    let len = meta[m + USED];
    if (!this.bounds.empty && (n === 0 || doc !== last)) this.bounds.count(id, 1);
    if (n > 0) {
      if (doc < last) throw new Error(`PostingLists.append: doc ${doc} comes after doc ${last} in term ${id}'s list; append in doc order`);
      if (doc !== last && meta[m + FILL] >= BLOCK_POSTINGS) {
        this.addSkip(id, last, len);
        meta[m + FILL] = 0;
      }
    }
    let bytes = this.data[id];
    if (bytes == null || len + MAX_POSTING_BYTES > bytes.length) {
      const old = bytes ?? EMPTY_BYTES;
      bytes = this.arena === null ? growBytes(old, len + MAX_POSTING_BYTES) : this.arena.grow(old, len + MAX_POSTING_BYTES);
      this.data[id] = bytes;
    }
    const delta = doc - last;
    if (delta < 128 && code < 128) {
      bytes[len] = delta;
      bytes[len + 1] = code;
      len += 2;
    } else len = writeVarint(bytes, writeVarint(bytes, len, delta), code);
    meta[m + USED] = len;
    meta[m + LAST] = doc;
    meta[m + COUNT] = n + 1;
    meta[m + FILL]++;
  }

  /**
   * Fills the lists of terms that have none yet from their saved bytes (a saved index being
   * loaded, posting-codec's PostingBytes): term `ids[k]` gets the next `sizes[k]` bytes of `data`,
   * which become its list as they are (views of `data`, which the lists then own), after one
   * pass that checks them and makes the skip entries {@link append} would have made, all in one
   * `Uint32Array` of exactly their size. No list of numbers between, and nothing to trim: list
   * per array grown while loading made thousands of allocations whose external-memory pressure
   * set off full garbage collections of the host's heap on the main thread at 100k notes.
   * @param docs documents the index holds: every doc id must be below it
   * @throws Error when a term already has postings, the sizes do not add up to `data`'s length,
   *   or a list is damaged (a varint cut off, too long or not in its shortest form, a posting
   *   without its code, a doc id not below `docs`)
   */
  loadLists(ids: ArrayLike<number>, sizes: ArrayLike<number>, data: Uint8Array, docs: number): void {
    const damaged = (): Error => new Error('saved search index has a damaged posting list');
    let skips = this.loadSkips;
    let slot = 0;
    let at = 0;
    const slotEnds: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      if (this.count(id) > 0) throw new Error(`PostingLists.loadLists: term ${id} already has postings`);
      if (id * META >= this.meta.length) this.cover(id + 1);
      const from = at;
      const end = from + sizes[k];
      if (end > data.length) throw damaged();
      let last = 0;
      let fill = 0;
      let count = 0;
      while (at < end) {
        const start = at;
        let doc = 0;
        // Two varints a posting: the doc's distance, then the code; each below 2^32, in its shortest form, within the list.
        // Every check runs for the first byte too (as in PostingCursor.next), so V8's code for the loop has seen each of them.
        for (let half = 0; half < 2; half++) {
          let b = 0;
          let v = 0;
          let scale = 1;
          do {
            if (at >= end || scale > 1 << 28) throw damaged();
            b = data[at++];
            // A last byte of 0 after others is a longer form than the shortest.
            if (b === 0 && scale > 1) throw damaged();
            v += (b & 127) * scale;
            scale *= 128;
          } while (b > 127);
          if (v > 0xffffffff || (half === 0 && at >= end)) throw damaged();
          if (half === 0) doc = last + v;
        }
        if (count > 0 && doc !== last && fill >= BLOCK_POSTINGS) {
          if (slot + 2 > skips.length) skips = this.loadSkips = grow(skips, slot + 2);
          skips[slot++] = last;
          skips[slot++] = start - from;
          fill = 0;
        }
        last = doc;
        fill++;
        count++;
      }
      if (count > 0 && last >= docs) throw new Error('saved search index has a posting for an unknown document');
      const m = id * META;
      this.meta[m + USED] = end - from;
      this.meta[m + SKIP_USED] = slot - (slotEnds[k - 1] ?? 0);
      this.meta[m + LAST] = last;
      this.meta[m + COUNT] = count;
      this.meta[m + FILL] = fill;
      this.data[id] = end === from ? null : data.subarray(from, end);
      slotEnds.push(slot);
    }
    if (at !== data.length) throw damaged();
    const skipData = slot === 0 ? EMPTY_SKIPS : skips.slice(0, slot);
    for (let k = 0; k < ids.length; k++) {
      const fromSlot = slotEnds[k - 1] ?? 0;
      this.skips[ids[k]] = slotEnds[k] === fromSlot ? null : skipData.subarray(fromSlot, slotEnds[k]);
    }
  }

  /** True when term `id`'s list has a posting of `doc`. */
  has(id: number, doc: number): boolean {
    const c = this.seek(id, doc);
    while (c.next()) if (c.doc >= doc) return c.doc === doc;
    return false;
  }

  /** Drops every posting of `doc` from term `id`'s list (nothing when it has none). */
  removeDoc(id: number, doc: number): void {
    const bytes = this.data[id];
    if (bytes == null) return;
    const m = id * META;
    const meta = this.meta;
    const len = meta[m + USED];
    const c = this.seek(id, doc);
    // The doc id before `doc`'s postings, their byte range [start, end), and the next posting's doc id (-1: none).
    let before = c.doc;
    let start = -1;
    let end = -1;
    let after = -1;
    let removed = 0;
    for (let at = c.at; c.next(); at = c.at) {
      if (c.doc < doc) before = c.doc;
      else if (c.doc === doc) {
        if (start < 0) start = at;
        end = c.at;
        removed++;
      } else {
        after = c.doc;
        break;
      }
    }
    if (start < 0) return;
    this.bounds.count(id, -1);
    // The next posting's distance (to `doc`) becomes its distance to `before`: never more bytes than the two it replaces.
    let cut = len;
    let written = start;
    if (after >= 0) {
      cut = end + varintLength(after - doc);
      written = writeVarint(bytes, start, after - before);
    } else meta[m + LAST] = before;
    bytes.copyWithin(written, cut, len);
    const shrink = cut - written;
    const newLen = len - shrink;
    meta[m + USED] = newLen;
    meta[m + COUNT] -= removed;
    // Only the last block is still being filled (an earlier block's removals must not let the last one grow past its size).
    if (this.seekBlock === meta[m + SKIP_USED] >>> 1) meta[m + FILL] = Math.max(0, meta[m + FILL] - removed);
    if (meta[m + COUNT] === 0) meta[m + LAST] = 0;
    this.fixSkips(id, doc, before, start, end, shrink, newLen);
  }

  /**
   * Drops the spare capacity that growth by doubling left (a third of the postings' bytes after
   * a cold build), in steps of at most {@link TRIM_STEP_BYTES} copied (or one longer list) and
   * {@link TRIM_STEP_LISTS} lists looked at, so the caller may yield between steps. The lists
   * in the build's {@link ByteArena} are moved to the front of its pages, end to end, page by
   * page (the last page's lists then copied into one array of their size), and the arena
   * dropped with its pages left empty; the other lists and the skip entries are copied into
   * shared pages (thousands of separate array allocations in one step held the main thread for
   * hundreds of ms at 100k notes). The lists stay consistent between steps and may change meanwhile.
   */
  *trimSteps(): Generator<void> {
    const arena = this.arena;
    // Lists that grow from here on (edits meanwhile) get arrays of their own: none is given a region the packing overwrites.
    this.arena = null;
    if (arena !== null) yield* this.packSteps(arena);
    // Bytes still to copy (as of the start): a page is no larger than what remains, so a small index gets no 4 MB page.
    let remainingBytes = 0;
    let remainingSkips = 0;
    for (let id = 0; id < this.data.length; id++) {
      const len = this.at(id, USED);
      const slots = this.at(id, SKIP_USED);
      const list = this.data[id];
      if (list != null && list.length !== len) remainingBytes += len;
      if ((this.skips[id]?.length ?? 0) > slots) remainingSkips += slots;
    }
    const bytePages = new PageCutter((n) => new Uint8Array(n), TRIM_PAGE_BYTES, remainingBytes);
    const skipPages = new PageCutter((n) => new Uint32Array(n), TRIM_PAGE_BYTES / 4, remainingSkips);
    let copied = 0;
    let looked = 0;
    for (let id = 0; id < this.data.length; id++) {
      const len = this.at(id, USED);
      if (++looked > TRIM_STEP_LISTS || (copied > 0 && copied + len > TRIM_STEP_BYTES)) {
        yield;
        copied = 0;
        looked = 1;
      }
      const list = this.data[id];
      if (list != null && list.length !== len) {
        this.data[id] = len === 0 ? null : bytePages.cut(list, len);
        copied += len;
      }
      const skips = this.skips[id];
      const slots = this.at(id, SKIP_USED);
      if (skips != null && skips.length !== slots) {
        this.skips[id] = slots === 0 ? null : skipPages.cut(skips, slots);
        copied += slots * 4;
      }
    }
    yield;
  }

  /**
   * The arena part of {@link trimSteps}: the lists that are regions of `arena` (growth in it
   * ended), moved to the front of its pages in page and offset order (RegionPacker), a page's
   * lists sorted in a step of their own; then the lists of the last page filled copied into one
   * array of their size, so a small index keeps no 1 MB page. A list that an edit moved out of
   * its region meanwhile (to an array of its own) is left where it is.
   */
  private *packSteps(arena: ByteArena): Generator<void> {
    const byPage: number[][] = Array.from({ length: arena.pageCount }, () => []);
    let held = 0;
    for (let id = 0; id < this.data.length; id++) {
      const list = this.data[id];
      const page = list == null ? -1 : arena.pageOf(list);
      if (page >= 0) {
        byPage[page].push(id);
        held++;
      }
    }
    if (held === 0) return;
    yield;
    const packer = arena.packer();
    let copied = 0;
    let looked = 0;
    // The lists moved into the page being filled (the last one, in the end).
    let lastIds: number[] = [];
    let lastPage: ArrayBufferLike | null = null;
    for (const ids of byPage) {
      if (ids.length === 0) continue;
      // Offsets below 2^20 and ids below 2^32: offset × 2^32 + id is exact, and sorts the page's lists by offset.
      const keys = new Float64Array(ids.length);
      for (let k = 0; k < ids.length; k++) keys[k] = this.data[ids[k]]!.byteOffset * 2 ** 32 + ids[k];
      keys.sort();
      yield;
      for (let k = 0; k < keys.length; k++) {
        const id = keys[k] % 2 ** 32;
        const list = this.data[id];
        if (list == null || arena.pageOf(list) < 0) continue;
        const len = this.at(id, USED);
        if (++looked > TRIM_STEP_LISTS || (copied > 0 && copied + len > TRIM_STEP_BYTES)) {
          yield;
          copied = 0;
          looked = 1;
        }
        if (len === 0) {
          this.data[id] = null;
          continue;
        }
        const moved = packer.move(list, len);
        this.data[id] = moved;
        copied += len;
        if (moved.buffer !== lastPage) {
          lastPage = moved.buffer;
          lastIds = [];
        }
        lastIds.push(id);
      }
    }
    const { page, used } = packer.last;
    if (lastPage === null || page.buffer !== lastPage) return;
    const tight = new Uint8Array(used);
    tight.set(page.subarray(0, used));
    for (const id of lastIds) {
      const list = this.data[id];
      if (list != null && list.buffer === lastPage) this.data[id] = tight.subarray(list.byteOffset, list.byteOffset + list.length);
    }
  }

  /** Bytes allocated by the lists, their skip entries (each buffer once: trimmed lists share pages) and block bounds, and the bytes they use. */
  bytes(): { allocated: number; used: number } {
    const buffers = new Set<ArrayBufferLike>();
    let used = this.meta.byteLength;
    let allocated = used;
    for (let id = 0; id < this.data.length; id++) {
      const list = this.data[id];
      if (list != null) buffers.add(list.buffer);
      const skips = this.skips[id];
      if (skips != null) buffers.add(skips.buffer);
      used += this.at(id, USED) + this.at(id, SKIP_USED) * 4;
    }
    for (const buffer of buffers) allocated += buffer.byteLength;
    const bounds = this.bounds.bytes();
    return { allocated: allocated + bounds, used: used + bounds };
  }

  /** A cursor at the start of the block of term `id`'s list that holds `doc` if any posting does. */
  private seek(id: number, doc: number): PostingCursor {
    const bytes = this.data[id] ?? EMPTY_BYTES;
    const len = this.at(id, USED);
    const skips = this.skips[id] ?? EMPTY_SKIPS;
    // Last skip entry whose base is below `doc`: every doc id of block k lies in (base_k, base_k+1].
    let lo = 0;
    let hi = this.at(id, SKIP_USED) >>> 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (skips[mid * 2] < doc) lo = mid + 1;
      else hi = mid;
    }
    this.seekBlock = lo;
    return lo === 0 ? new PostingCursor(bytes, len, 0, 0) : new PostingCursor(bytes, len, skips[lo * 2 - 1], skips[lo * 2 - 2]);
  }

  /** Adds the skip entry `[base, at]` (a block starting at byte `at`, after a posting of doc `base`) to term `id`'s list. */
  private addSkip(id: number, base: number, at: number): void {
    let skips = this.skips[id] ?? EMPTY_SKIPS;
    const n = this.meta[id * META + SKIP_USED];
    if (n + 2 > skips.length) {
      skips = grow(skips, n + 2);
      this.skips[id] = skips;
    }
    skips[n] = base;
    skips[n + 1] = at;
    this.meta[id * META + SKIP_USED] = n + 2;
    this.bounds.open(id, (n >>> 1) + 1);
  }

  /**
   * Updates term `id`'s skip entries after {@link removeDoc} cut `doc`'s postings (bytes
   * [start, end) before the cut, the list `shrink` bytes shorter, `newLen` long): a block that
   * began at the next posting now begins at `start` after `before`; later blocks moved back;
   * an entry left empty (at the same offset as the one before, or at the end) is dropped, its
   * block's bound merged into the block before it.
   */
  private fixSkips(id: number, doc: number, before: number, start: number, end: number, shrink: number, newLen: number): void {
    const skips = this.skips[id];
    if (skips == null) return;
    const n = this.meta[id * META + SKIP_USED];
    let out = 0;
    let prevAt = 0;
    for (let k = 0; k < n; k += 2) {
      let base = skips[k];
      let at = skips[k + 1];
      if (at === end && base === doc) {
        base = before;
        at = start;
      } else if (at > end) at -= shrink;
      // Entry k starts block k / 2 + 1; kept, it starts block out / 2 + 1, else that block joins block out / 2.
      if (at === prevAt || at >= newLen) {
        this.bounds.move(id, (k >>> 1) + 1, out >>> 1, true);
        continue;
      }
      this.bounds.move(id, (k >>> 1) + 1, (out >>> 1) + 1, false);
      skips[out] = base;
      skips[out + 1] = at;
      out += 2;
      prevAt = at;
    }
    this.meta[id * META + SKIP_USED] = out;
  }

  /** Slot `slot` of term `id`'s bookkeeping (0 for a term never appended to). */
  private at(id: number, slot: number): number {
    const i = id * META + slot;
    return i < this.meta.length ? this.meta[i] : 0;
  }

  /** Grows the per-term bookkeeping to hold term ids below `n`. */
  private cover(n: number): void {
    this.meta = grow(this.meta, n * META);
  }
}

/** Copies lists into shared pages of `size` elements (a list above a quarter of a page gets an array of its own). */
class PageCutter<T extends Uint8Array<ArrayBuffer> | Uint32Array<ArrayBuffer>> {
  private page: T | null = null;
  private at = 0;

  constructor(
    private readonly make: (n: number) => T,
    private readonly size: number,
    /** Elements still to copy: a page is no larger than that. */
    private remaining: number,
  ) {}

  /** A trimmed copy of `list[0, len)`, in a shared page or its own array. */
  cut(list: Uint8Array | Uint32Array, len: number): T {
    this.remaining -= len;
    if (len * 4 > this.size) {
      const out = this.make(len);
      out.set(list.subarray(0, len));
      return out;
    }
    if (this.page === null || this.at + len > this.page.length) {
      this.page = this.make(Math.min(this.size, Math.max(len, this.remaining + len)));
      this.at = 0;
    }
    const into = this.page.subarray(this.at, this.at + len) as T;
    into.set(list.subarray(0, len));
    this.at += len;
    return into;
  }
}

/** Bytes {@link writeVarint} takes for `v`. */
function varintLength(v: number): number {
  let n = 1;
  while (v > 127) {
    v >>>= 7;
    n++;
  }
  return n;
}
