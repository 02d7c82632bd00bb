import { grow } from './typed-growth';

/** Entries per page of the arena (256 KB): allocating a page never copies what is stored. */
const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
/** `start` of a document without a term list (loaded from a saved index, or removed). */
const NO_LIST = 0xffffffff;

/**
 * A short list of 32-bit words per document, by doc id: each document's distinct term ids,
 * which TermIndex.remove needs to find the document's postings (packed by posting-codec's
 * packTermIds, about 2 bytes an id), and each document's phrase filter. Every list in
 * fixed-size `Uint32Array` pages, addressed by a start (page, offset)
 * and a count per doc id, instead of one typed array per document (100k of them cost about
 * 20 MB of object headers at 100k notes) or one arena grown by doubling (whose copies of tens
 * of MB, and the garbage collections their allocations set off, held the main thread for
 * hundreds of ms at 100k notes). A list never spans pages; one longer than a page gets a page
 * of its own. A page whose lists were all removed is freed; a page left mostly empty has its
 * remaining lists moved to the current page, so garbage stays below about a quarter.
 */
export class DocTermLists {
  private pages: (Uint32Array | null)[] = [];
  /** Live entries per page. */
  private pageLive: number[] = [];
  /** Docs with a list in each page (removed ones included until the page is rewritten). */
  private pageDocs: number[][] = [];
  /** Page being filled, and the entries used in it. */
  private current = -1;
  private used = PAGE;
  private start = new Uint32Array(1024).fill(NO_LIST);
  private count = new Uint32Array(1024);

  /** Stores `terms` as document `doc`'s list (`doc` has none yet). */
  set(doc: number, terms: ArrayLike<number>): void {
    this.reserve(doc, terms.length).set(terms);
  }

  /**
   * Makes room for document `doc`'s list of `n` words (`doc` has none yet) and returns it, to
   * be filled in place (a saved list decoded straight into its page, not into an array of its own).
   * @returns a view of the list, zeroed, valid until the store next changes
   */
  reserve(doc: number, n: number): Uint32Array {
    if (doc >= this.start.length) {
      const old = this.start.length;
      this.start = grow(this.start, doc + 1);
      this.start.fill(NO_LIST, old);
      this.count = grow(this.count, doc + 1);
    }
    let page: number;
    let at: number;
    if (n > PAGE) {
      page = this.newPage(new Uint32Array(n));
      at = 0;
      this.used = PAGE;
    } else {
      if (this.used + n > PAGE || this.pages[this.current] === null) {
        this.current = this.newPage(new Uint32Array(PAGE));
        this.used = 0;
      }
      page = this.current;
      at = this.used;
      this.used += n;
    }
    this.start[doc] = page * PAGE + at;
    this.count[doc] = n;
    this.pageLive[page] += n;
    this.pageDocs[page].push(doc);
    return (this.pages[page] as Uint32Array).subarray(at, at + n);
  }

  /** Document `doc`'s list, removed from the store (a copy), or null when it has none. */
  take(doc: number): Uint32Array | null {
    if (doc >= this.start.length || this.start[doc] === NO_LIST) return null;
    const out = this.read(doc);
    const page = Math.floor(this.start[doc] / PAGE);
    this.start[doc] = NO_LIST;
    this.pageLive[page] -= out.length;
    if (page !== this.current) {
      if (this.pageLive[page] === 0) this.freePage(page);
      else if (this.pageLive[page] * 4 < PAGE) this.rehome(page);
    }
    return out;
  }

  /** Document `doc`'s list as a view into its page (valid until the store next changes), or null when it has none. */
  peek(doc: number): Uint32Array | null {
    if (doc >= this.start.length || this.start[doc] === NO_LIST) return null;
    const address = this.start[doc];
    const at = address % PAGE;
    return (this.pages[Math.floor(address / PAGE)] as Uint32Array).subarray(at, at + this.count[doc]);
  }

  /** Drops the spare capacity of the page being filled (later lists start a new page). */
  trim(): void {
    const data = this.pages[this.current];
    if (data == null || this.used >= data.length) return;
    this.pages[this.current] = data.slice(0, this.used);
    this.used = PAGE;
  }

  /** Bytes of the pages and the per-document index. */
  bytes(): number {
    let n = this.start.byteLength + this.count.byteLength;
    for (const page of this.pages) n += page?.byteLength ?? 0;
    return n;
  }

  private read(doc: number): Uint32Array {
    const address = this.start[doc];
    const data = this.pages[Math.floor(address / PAGE)] as Uint32Array;
    const at = address % PAGE;
    return data.slice(at, at + this.count[doc]);
  }

  private newPage(data: Uint32Array): number {
    this.pages.push(data);
    this.pageLive.push(0);
    this.pageDocs.push([]);
    return this.pages.length - 1;
  }

  private freePage(page: number): void {
    this.pages[page] = null;
    this.pageDocs[page] = [];
  }

  /** Moves the live lists of a mostly empty page (not the one being filled) to the page being filled, and frees it. */
  private rehome(page: number): void {
    const docs = this.pageDocs[page];
    for (const doc of docs) {
      if (this.start[doc] === NO_LIST || Math.floor(this.start[doc] / PAGE) !== page) continue;
      const list = this.read(doc);
      this.start[doc] = NO_LIST;
      this.set(doc, list);
    }
    this.freePage(page);
  }
}
