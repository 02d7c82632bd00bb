import { grow } from './typed-growth';

/** Entries of the smallest page (256 KB), the size a store's first pages have. */
const MIN_PAGE = 1 << 16;
/** Entries of the largest shared page (4 MB): what a store's pages grow to as it fills. */
const MAX_PAGE = 1 << 20;
/** `pageOf` of a document without a list (loaded from a saved index, or removed). */
const NO_LIST = 0xffffffff;

/**
 * A short list of 32-bit words per document, by doc id: each document's distinct term ids,
 * which TermIndex.remove needs to find the document's postings (packed by posting-codec's
 * packTermIds, about 2 bytes an id), and each document's phrase filter. Every list in
 * `Uint32Array` pages, addressed by a page, an offset and a count per doc id, instead of one
 * typed array per document (100k of them cost about 20 MB of object headers at 100k notes) or
 * one arena grown by doubling (whose copies of tens of MB, and the garbage collections their
 * allocations set off, held the main thread for hundreds of ms at 100k notes). A new page holds
 * a quarter of what the store holds, from {@link MIN_PAGE} up to {@link MAX_PAGE} entries (a power
 * of 2): each page is an allocation of memory outside the JS heap, and once V8 has counted 64 MB
 * of those since its last full collection, each one lets its marker take a step on the main
 * thread (122 pages of 256 KB for the phrase filters of 100k notes, about 16 now;
 * docs/performance.md, "store" round, session 18). A list never spans pages; one longer than a
 * new page would be gets a page of its own. A page whose lists were all removed is freed; a page
 * left mostly empty has its remaining lists moved to the current page, so garbage stays below
 * about a quarter.
 */
export class DocTermLists {
  private pages: (Uint32Array | null)[] = [];
  /** Live entries per page. */
  private pageLive: number[] = [];
  /** Docs with a list in each page (removed ones included until the page is rewritten). */
  private pageDocs: number[][] = [];
  /** Page being filled, and the entries used in it. */
  private current = -1;
  private used = 0;
  /** Live entries in all pages. */
  private held = 0;
  /** Each doc id's page ({@link NO_LIST} for none), the list's first entry in it, and its length. */
  private pageOf = new Uint32Array(1024).fill(NO_LIST);
  private offset = new Uint32Array(1024);
  private count = new Uint32Array(1024);
  /** See {@link placed}. */
  private lastPage: Uint32Array = new Uint32Array(0);

  /** Stores `terms` as document `doc`'s list (`doc` has none yet). */
  set(doc: number, terms: ArrayLike<number>): void {
    const at = this.place(doc, terms.length);
    this.lastPage.set(terms, at);
  }

  /** The page the last {@link place} made room in: the list's words go there from the index it returned. */
  get placed(): Uint32Array {
    return this.lastPage;
  }

  /**
   * Makes room for document `doc`'s list of `n` words (`doc` has none yet) in the page
   * {@link placed} then returns, to be filled in place (a saved list decoded straight into its page).
   * An index, not a view of the list: a view per list (about 100 bytes) was 10 MB of new objects
   * in a 100k-note warm start's phrase filter load, each 64 KB of them a chance for the
   * collector to take a marking step inside the load's slices.
   * @returns where the list starts in {@link placed} (its `n` words there are zero)
   */
  place(doc: number, n: number): number {
    if (doc >= this.pageOf.length) this.growDocs(doc + 1);
    const size = this.newPageSize();
    let page: number;
    let at: number;
    if (n > size) {
      page = this.newPage(new Uint32Array(n));
      at = 0;
    } else {
      const current = this.pages[this.current];
      if (current == null || this.used + n > current.length) {
        this.current = this.newPage(new Uint32Array(size));
        this.used = 0;
      }
      page = this.current;
      at = this.used;
      this.used += n;
    }
    this.pageOf[doc] = page;
    this.offset[doc] = at;
    this.count[doc] = n;
    this.pageLive[page] += n;
    this.held += n;
    this.pageDocs[page].push(doc);
    this.lastPage = this.pages[page] as Uint32Array;
    return at;
  }

  /** Document `doc`'s list, removed from the store (a copy), or null when it has none. */
  take(doc: number): Uint32Array | null {
    if (doc >= this.pageOf.length || this.pageOf[doc] === NO_LIST) return null;
    const out = this.read(doc);
    const page = this.pageOf[doc];
    this.pageOf[doc] = NO_LIST;
    this.pageLive[page] -= out.length;
    this.held -= out.length;
    if (page !== this.current) {
      if (this.pageLive[page] === 0) this.freePage(page);
      else if (this.pageLive[page] * 4 < (this.pages[page] as Uint32Array).length) this.rehome(page);
    }
    return out;
  }

  /** Document `doc`'s list as a view into its page (valid until the store next changes), or null when it has none. */
  peek(doc: number): Uint32Array | null {
    if (doc >= this.pageOf.length || this.pageOf[doc] === NO_LIST) return null;
    const at = this.offset[doc];
    return (this.pages[this.pageOf[doc]] as Uint32Array).subarray(at, at + this.count[doc]);
  }

  /** Drops the spare capacity of the page being filled (later lists start a new page). */
  trim(): void {
    const data = this.pages[this.current];
    if (data == null || this.used >= data.length) return;
    this.pages[this.current] = data.slice(0, this.used);
    this.current = -1;
    this.forgetPlaced(data);
  }

  /** Bytes of the pages and the per-document index. */
  bytes(): number {
    let n = this.pageOf.byteLength + this.offset.byteLength + this.count.byteLength;
    for (const page of this.pages) n += page?.byteLength ?? 0;
    return n;
  }

  /** Entries of the next shared page: a quarter of what the store holds, a power of 2 from MIN_PAGE to MAX_PAGE. */
  private newPageSize(): number {
    let size = MIN_PAGE;
    while (size < MAX_PAGE && size * 4 <= this.held) size *= 2;
    return size;
  }

  private growDocs(docs: number): void {
    const old = this.pageOf.length;
    this.pageOf = grow(this.pageOf, docs);
    this.pageOf.fill(NO_LIST, old);
    this.offset = grow(this.offset, docs);
    this.count = grow(this.count, docs);
  }

  private read(doc: number): Uint32Array {
    const at = this.offset[doc];
    return (this.pages[this.pageOf[doc]] as Uint32Array).slice(at, at + this.count[doc]);
  }

  private newPage(data: Uint32Array): number {
    this.pages.push(data);
    this.pageLive.push(0);
    this.pageDocs.push([]);
    return this.pages.length - 1;
  }

  private freePage(page: number): void {
    this.forgetPlaced(this.pages[page]);
    this.pages[page] = null;
    this.pageDocs[page] = [];
  }

  /** Drops {@link placed}'s hold on `data`, a page the store no longer keeps (it would stay alive, uncounted by {@link bytes}). */
  private forgetPlaced(data: Uint32Array | null): void {
    if (this.lastPage === data) this.lastPage = new Uint32Array(0);
  }

  /** Moves the live lists of a mostly empty page (not the one being filled) to the page being filled, and frees it. */
  private rehome(page: number): void {
    const docs = this.pageDocs[page];
    for (const doc of docs) {
      if (this.pageOf[doc] !== page) continue;
      const list = this.read(doc);
      this.pageOf[doc] = NO_LIST;
      this.pageLive[page] -= list.length;
      this.held -= list.length;
      this.set(doc, list);
    }
    this.freePage(page);
  }
}
