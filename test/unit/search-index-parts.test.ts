import { BM25F, bm25Idf, bm25Saturate, fieldFrequency, lengthNormalizers } from '../../src/search/engine/bm25';
import { DocTermLists } from '../../src/search/engine/doc-term-lists';
import { FIELD_BOOSTS, FIELD_COUNT, FIELDS } from '../../src/search/engine/note-fields';
import { FIELD_BITS, packPosting, postingField, postingFrequency } from '../../src/search/engine/posting-codec';
import { PostingLists } from '../../src/search/engine/posting-lists';

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

describe('PostingLists', () => {
  it('appends, finds, removes and trims postings by doc', () => {
    const lists = new PostingLists();
    for (let doc = 0; doc < 10; doc++) lists.append(3, doc, packPosting(doc % 2, 1));
    expect(lists.length(3)).toBe(20);
    expect(lists.has(3, 4)).toBe(true);
    lists.removeDoc(3, 4);
    lists.removeDoc(3, 42);
    expect(lists.has(3, 4)).toBe(false);
    expect(lists.length(3)).toBe(18);
    expect(lists.has(7, 0)).toBe(false);
    for (const step of lists.trimSteps()) void step;
    expect(lists.bytes()).toEqual({ allocated: 72, used: 72 });
  });

  it('trims in steps of about 1 MB copied, so no step holds the main thread long', () => {
    const lists = new PostingLists();
    for (let id = 0; id < 3; id++) for (let doc = 0; doc < 100_000; doc++) lists.append(id, doc, packPosting(0, 1));
    const used: number[] = [];
    for (const step of lists.trimSteps()) {
      void step;
      used.push(lists.bytes().allocated);
    }
    // Two lists of 200k slots are more than one step copies: one list per step.
    expect(used.length).toBe(3);
    expect(used[0]).toBeGreaterThan(used[1]);
    expect(lists.bytes()).toEqual({ allocated: 3 * 200_000 * 4, used: 3 * 200_000 * 4 });
    expect(lists.has(2, 99_999)).toBe(true);
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
});
