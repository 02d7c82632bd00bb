import { BM25F, bm25Idf, bm25Saturate, fieldFrequency, lengthNormalizers } from '../../../../src/search/engine/ranked/bm25';
import { DocTermLists } from '../../../../src/search/engine/postings/doc-term-lists';
import { FIELD_BOOSTS, FIELD_COUNT, FIELDS } from '../../../../src/search/engine/text/note-fields';
import { FIELD_BITS, packPosting, postingField, postingFrequency, writeVarint } from '../../../../src/search/engine/postings/posting-codec';
import { PostingLists } from '../../../../src/search/engine/postings/posting-lists';
import fc from 'fast-check';

describe('bm25', () => {
  it('gives rarer terms a higher idf, and 0 to a term no document holds', () => {
    expect(bm25Idf(100, 0)).toBe(0);
    expect(bm25Idf(100, 1)).toBeGreaterThan(bm25Idf(100, 50));
    expect(bm25Idf(100, 100)).toBeGreaterThan(0);
  });

  it('saturates towards idf · (k1 + 1) and normalizes by field length', () => {
    const idf = bm25Idf(10, 2);
    expect(bm25Saturate(1e9, idf)).toBeCloseTo(idf * (BM25F.k1 + 1), 5);
    expect(bm25Saturate(1, idf)).toBeLessThan(bm25Saturate(2, idf));
    const [norm] = lengthNormalizers([100], 10);
    expect(norm).toBeCloseTo(BM25F.b / 10);
    expect(fieldFrequency(1, 1, norm, 5)).toBeGreaterThan(fieldFrequency(1, 1, norm, 50));
    expect(fieldFrequency(1, 3, norm, 10)).toBeCloseTo(3);
  });

  it('leaves a field with no length at all unnormalized rather than dividing by zero', () => {
    const [norm] = lengthNormalizers([0], 0);
    expect(Number.isFinite(norm)).toBe(true);
  });
});

describe('posting codes and the field table', () => {
  it('packs a field and a frequency and reads both back', () => {
    for (const [field, freq] of [
      [0, 1],
      [6, 1],
      [3, 12345],
      [7, 2 ** 28],
    ]) {
      const code = packPosting(field, freq);
      expect([postingField(code), postingFrequency(code)]).toEqual([field, freq]);
    }
  });

  it('has one field table that fits a posting code', () => {
    expect(FIELD_COUNT).toBe(FIELDS.length);
    expect(FIELD_COUNT).toBeLessThanOrEqual(1 << FIELD_BITS);
    expect(FIELD_BOOSTS).toEqual(FIELDS.map((f) => f.boost));
  });
});

/** The postings of term `id` as read by a cursor: `[doc, code]` pairs. */
function read(lists: PostingLists, id: number): number[][] {
  const out: number[][] = [];
  const c = lists.cursor(id);
  while (c.next()) out.push([c.doc, c.code]);
  return out;
}

/** Bytes of the per-term bookkeeping (bytes used, skip slots used, last doc, postings, postings of the last block: 4 bytes each), for `terms` term ids. */
const perTerm = (terms: number): number => terms * 20;

describe('PostingLists', () => {
  it('appends, finds, removes and trims postings by doc', () => {
    const lists = new PostingLists();
    for (let doc = 0; doc < 10; doc++) lists.append(3, doc, packPosting(doc % 2, 1));
    expect(lists.count(3)).toBe(10);
    expect(lists.has(3, 4)).toBe(true);
    lists.removeDoc(3, 4);
    lists.removeDoc(3, 42);
    lists.removeDoc(9, 0);
    expect(lists.has(3, 4)).toBe(false);
    expect(lists.count(3)).toBe(9);
    expect(read(lists, 3).map(([doc]) => doc)).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 9]);
    expect(lists.has(7, 0)).toBe(false);
    expect(read(lists, 7)).toEqual([]);
    for (const step of lists.trimSteps()) void step;
    // 9 postings of one byte of distance and one of code, after the per-term arrays.
    expect(lists.bytes()).toEqual({ allocated: perTerm(1024) + 18, used: perTerm(1024) + 18 });
  });

  it('takes about 2 bytes a posting where pairs of Uint32 took 8, and large values round-trip', () => {
    const lists = new PostingLists();
    for (let doc = 0; doc < 1000; doc++) lists.append(0, doc * 3, packPosting(2, 1 + (doc % 5)));
    lists.append(1, 0, 0xffffffff);
    lists.append(1, 0xfffffffe, packPosting(7, 2 ** 28));
    expect(read(lists, 1)).toEqual([
      [0, 0xffffffff],
      [0xfffffffe, packPosting(7, 2 ** 28)],
    ]);
    for (const step of lists.trimSteps()) void step;
    expect(lists.bytes().used - perTerm(1024)).toBeLessThan(1000 * 2 + 16 * 8 + 20);
  });

  it('loads lists as append lays them out, in one array of exactly their size that needs no trim', () => {
    const appended = new PostingLists();
    const loaded = new PostingLists();
    const ids = [4, 1, 9];
    // The saved bytes: each list's postings as a doc distance and a code, base-128 varints (posting-codec's PostingText).
    const data = new Uint8Array(3 * 300 * 10);
    let at = 0;
    const sizes: number[] = [];
    ids.forEach((id, k) => {
      // 300 postings over two fields (several blocks, docs repeated at distance 0), with distances and codes of several bytes.
      const from = at;
      let last = 0;
      for (let i = 0; i < 300; i++) {
        const doc = i * (k * 90 + 1) + (i >> 1);
        const code = i % 3 === 0 ? 2 ** 30 + i : packPosting(i % 2, 1 + k);
        appended.append(id, doc, code);
        at = writeVarint(data, writeVarint(data, at, doc - last), code);
        last = doc;
      }
      sizes.push(at - from);
    });
    loaded.loadLists(ids, sizes, data.slice(0, at), 10 ** 5);
    for (const step of appended.trimSteps()) void step;
    const bytes = loaded.bytes();
    expect(bytes).toEqual(appended.bytes());
    expect(bytes.allocated).toBe(bytes.used);
    for (const id of [...ids, 0, 2]) {
      expect(read(loaded, id)).toEqual(read(appended, id));
      expect(loaded.count(id)).toBe(appended.count(id));
    }
    for (const doc of [0, 1, 150, 151, 27_000, 27_134, 54_134, 54_135]) expect(loaded.has(9, doc)).toBe(appended.has(9, doc));
    // Loaded lists change as appended ones do.
    for (const lists of [loaded, appended]) {
      lists.removeDoc(9, 181 * 100 + 50);
      lists.append(9, 10 ** 6, 8);
      lists.append(0, 3, 8);
    }
    for (const id of [0, ...ids]) expect(read(loaded, id)).toEqual(read(appended, id));
    expect(() => loaded.loadLists([4], [2], Uint8Array.of(0, 8), 10)).toThrow('already has postings');
    // Damage: a posting without its code, a varint cut off, one not in its shortest form, one above 32 bits, bytes left over, a doc not loaded.
    const load =
      (bytes: number[], docs = 10, size = bytes.length): (() => void) =>
      () =>
        new PostingLists().loadLists([0], [size], Uint8Array.from(bytes), docs);
    expect(load([5])).toThrow('damaged posting list');
    expect(load([5, 0x88])).toThrow('damaged posting list');
    expect(load([5, 0x88, 0])).toThrow('damaged posting list');
    expect(load([5, 0xff, 0xff, 0xff, 0xff, 0x1f])).toThrow('damaged posting list');
    expect(load([5, 0xff, 0xff, 0xff, 0xff, 0xff, 1])).toThrow('damaged posting list');
    expect(load([5, 8, 1], 10, 2)).toThrow('damaged posting list');
    expect(load([5, 8], 5)).toThrow('unknown document');
    expect(load([5, 8, 0, 16], 6)).not.toThrow();
    expect(load([5, 0xff, 0xff, 0xff, 0xff, 0x0f])).not.toThrow();
  });

  it('refuses a posting out of doc order', () => {
    const lists = new PostingLists();
    lists.append(0, 5, 8);
    lists.append(0, 5, 9);
    expect(() => lists.append(0, 4, 8)).toThrow('append in doc order');
  });

  it('trims in steps of about 1 MB copied, so no step holds the main thread long', () => {
    const lists = new PostingLists();
    // Distances of 200 take two bytes, codes one: 3 bytes a posting, 1.2 MB a list.
    for (let id = 0; id < 3; id++) for (let doc = 0; doc < 400_000; doc++) lists.append(id, doc * 200, packPosting(0, 1));
    const used: number[] = [];
    for (const step of lists.trimSteps()) {
      void step;
      used.push(lists.bytes().allocated);
    }
    // Lists of 1.2 MB are more than one step copies: one list per step.
    expect(used.length).toBe(3);
    expect(used[0]).toBeGreaterThan(used[1]);
    const bytes = lists.bytes();
    expect(bytes.allocated).toBe(bytes.used);
    expect(bytes.used).toBeLessThan(3 * 400_000 * 3 * 1.05 + perTerm(1024));
    expect(lists.has(2, 399_999 * 200)).toBe(true);
    expect(lists.has(2, 399_999 * 200 - 1)).toBe(false);
  });

  it('packs lists over several arena pages in place, with appends and removals between the steps', () => {
    const lists = new PostingLists();
    const model = new ModelLists();
    const add = (id: number, doc: number, code: number): void => {
      lists.append(id, doc, code);
      model.append(id, doc, code);
    };
    // 3000 terms of 1–700 postings each, interleaved by doc (lists outgrow their regions in every order): about 3 MB of regions.
    const terms = 3000;
    for (let doc = 0; doc < 700; doc++)
      for (let id = 0; id < terms; id++) if (doc < 1 + ((id * 7919) % 700)) add(id, doc, packPosting(id % 3, 1 + ((doc + id) % 40)));
    let steps = 0;
    for (const step of lists.trimSteps()) {
      void step;
      steps++;
      // Between steps: a removal from a list (moved or not yet), 300 postings appended to another (it outgrows its region).
      const id = (steps * 131) % terms;
      lists.removeDoc(id, 0);
      model.removeDoc(id, 0);
      for (let k = 0; k < 300; k++) add((steps * 17) % terms, 1000 * steps + k, packPosting(1, 2));
    }
    expect(steps).toBeGreaterThan(3);
    // Compared as one text each (3000 lists compared one by one took seconds).
    const wrong = Array.from({ length: terms }, (_, id) => id).filter(
      (id) =>
        JSON.stringify(read(lists, id)) !== JSON.stringify(model.lists.get(id) ?? []) ||
        lists.count(id) !== (model.lists.get(id) ?? []).length,
    );
    expect(wrong).toEqual([]);
    // Spare capacity gone but for the pages' ends (a list never straddles two pages) and the lists grown meanwhile.
    const bytes = lists.bytes();
    expect(bytes.allocated - bytes.used).toBeLessThan(128 * 1024);
  });
});

/** A posting list as pairs of `[doc, code]` in plain arrays: the model the compact lists must answer like. */
class ModelLists {
  readonly lists = new Map<number, number[][]>();
  append(id: number, doc: number, code: number): void {
    const list = this.lists.get(id) ?? [];
    list.push([doc, code]);
    this.lists.set(id, list);
  }
  removeDoc(id: number, doc: number): void {
    this.lists.set(
      id,
      (this.lists.get(id) ?? []).filter(([d]) => d !== doc),
    );
  }
}

describe('PostingLists against pairs in plain arrays', () => {
  /** One step of a random history: a document added with some terms (1–3 fields each), or a document removed. */
  const step = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        gap: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 100, max: 70_000 })),
        terms: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
        fields: fc.integer({ min: 1, max: 3 }),
        freq: fc.oneof(fc.integer({ min: 1, max: 15 }), fc.integer({ min: 16, max: 2 ** 20 })),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(), trim: fc.boolean() }) },
  );

  it('reads, finds and counts the same postings over random adds, removes and trims', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 500, size: 'max' }), (steps) => {
        const lists = new PostingLists();
        const model = new ModelLists();
        const live: { doc: number; terms: number[] }[] = [];
        let doc = 0;
        for (const s of steps) {
          if (s.kind === 'add') {
            doc += s.gap;
            for (const id of s.terms)
              for (let f = 0; f < s.fields; f++) {
                lists.append(id, doc, packPosting(f, s.freq));
                model.append(id, doc, packPosting(f, s.freq));
              }
            live.push({ doc, terms: s.terms });
            doc++;
          } else if (live.length > 0) {
            const [gone] = live.splice(s.pick % live.length, 1);
            for (const id of gone.terms) {
              lists.removeDoc(id, gone.doc);
              model.removeDoc(id, gone.doc);
            }
            if (s.trim) for (const t of lists.trimSteps()) void t;
          }
        }
        for (let id = 0; id <= 3; id++) {
          const want = model.lists.get(id) ?? [];
          expect(read(lists, id)).toEqual(want);
          expect(lists.count(id)).toBe(want.length);
          const held = new Set(want.map(([d]) => d));
          for (const d of held) {
            expect(lists.has(id, d)).toBe(true);
            expect(lists.has(id, d + 1)).toBe(held.has(d + 1));
            if (d > 0) expect(lists.has(id, d - 1)).toBe(held.has(d - 1));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('DocTermLists', () => {
  it('returns each document its own list once, through removals that free and rewrite pages', () => {
    const store = new DocTermLists();
    const want = new Map<number, number[]>();
    for (let doc = 0; doc < 3000; doc++) {
      const terms = Array.from({ length: 1 + ((doc * 37) % 90) }, (_, i) => doc * 100 + i);
      store.set(doc, terms);
      want.set(doc, terms);
    }
    // One list longer than a page gets a page of its own.
    const long = Array.from({ length: 70_000 }, (_, i) => i);
    store.set(3000, long);
    want.set(3000, long);
    // Remove most documents of the early pages: their survivors move.
    for (let doc = 0; doc < 2500; doc++) {
      if (doc % 10 === 0) continue;
      expect(Array.from(store.take(doc) ?? [])).toEqual(want.get(doc));
      want.delete(doc);
    }
    const before = store.bytes();
    for (const [doc, terms] of want) expect(Array.from(store.take(doc) ?? [])).toEqual(terms);
    expect(store.take(0)).toBeNull();
    expect(store.take(99_999)).toBeNull();
    expect(store.bytes()).toBeLessThan(before);
  });

  it('grows its pages with what it holds (few allocations), and keeps every list through removals of big pages', () => {
    const store = new DocTermLists();
    const want = new Map<number, number[]>();
    // 2.4M words in lists of 30–90: fixed pages of 64K words were 37 allocations. The highest doc id's list first: the per-document arrays grow once.
    store.set(40_000, [1]);
    let allocations = 0;
    let bytes = store.bytes();
    for (let doc = 0; doc < 40_000; doc++) {
      const terms = Array.from({ length: 30 + ((doc * 7) % 61) }, (_, i) => (doc * 7919 + i) >>> 0);
      store.set(doc, terms);
      want.set(doc, terms);
      if (store.bytes() !== bytes) allocations++;
      bytes = store.bytes();
    }
    expect(allocations).toBeLessThanOrEqual(12);
    for (let doc = 0; doc < 40_000; doc += 997) expect(Array.from(store.peek(doc) ?? [])).toEqual(want.get(doc));
    // Remove four in five everywhere: pages fall under a quarter live and their lists move.
    for (let doc = 0; doc < 40_000; doc++) {
      if (doc % 5 === 0) continue;
      expect(Array.from(store.take(doc) ?? [])).toEqual(want.get(doc));
      want.delete(doc);
    }
    for (const [doc, terms] of want) expect(Array.from(store.peek(doc) ?? [])).toEqual(terms);
    expect(store.bytes()).toBeLessThan(bytes / 2);
  });

  it('places a list as an index into the page it names', () => {
    const store = new DocTermLists();
    const before = store.bytes();
    const at = store.place(999, 3);
    const page = store.placed;
    expect(Array.from(page.subarray(at, at + 3))).toEqual([0, 0, 0]);
    page.set([5, 6, 7], at);
    expect(Array.from(store.peek(999) ?? [])).toEqual([5, 6, 7]);
    // One page more (doc 999 is within the per-document arrays' first size).
    expect(store.bytes() - before).toBe(page.byteLength);
    const next = store.place(12, 2);
    expect(store.placed).toBe(page);
    expect(next).toBe(at + 3);
    expect(Array.from(store.take(999) ?? [])).toEqual([5, 6, 7]);
    expect(store.peek(999)).toBeNull();
    expect(Array.from(store.peek(12) ?? [])).toEqual([0, 0]);
    // Trimmed, the page being filled is replaced by a copy: placed no longer holds the old one alive.
    store.trim();
    expect(store.placed).not.toBe(page);
    expect(store.placed.length).toBe(0);
    expect(Array.from(store.peek(12) ?? [])).toEqual([0, 0]);
  });
});
