import { PostingBytes, type PostingSource, packTermIds, unpackTermIds } from '../../../../src/search/engine/postings/posting-codec';
import { PostingLists } from '../../../../src/search/engine/postings/posting-lists';
import { TermDictionary } from '../../../../src/search/engine/postings/term-dictionary';
import { BM25F } from '../../../../src/search/engine/ranked/bm25';
import { FIELD_COUNT } from '../../../../src/search/engine/text/note-fields';
import { expansion, TermIndex, type IndexLine } from '../../../../src/search/engine/term-index';
import type { CorpusView } from '../../../../src/search/engine/corpus-view';
import { planRanked, STEM_WEIGHT } from '../../../../src/search/engine/ranked/ranked-search';
import { LexicalEngine, type EngineLine } from '../../../../src/search/engine/lexical-engine';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';
import fc from 'fast-check';
import { ASCII_HASH_SEED, asciiHashFinish, asciiHashStep } from '../../../../src/search/engine/postings/ascii-hash';
import { indexTerms, internIndexTerms, matchedTermSpans, termSpans } from '../../../../src/search/engine/text/tokenizer';

/** The saved lines of an index or engine, without the pauses between them (savedSteps' nulls). */
function savedLines<T>(source: { savedSteps(): Iterable<T | null> }): T[] {
  return [...source.savedSteps()].filter((line): line is T => line !== null);
}

/** Fields in index order (title, path, body, headings, tags, properties, aliases) with only a body. */
const body = (text: string): string[] => ['', '', text, '', '', '', ''];
const ONES = [1, 1, 1, 1, 1, 1, 1];

/** Every live document visible. */
const everything = (index: TermIndex): CorpusView => index.view(() => true);

function scores(index: TermIndex, term: string, view = everything(index)): Map<string, number> {
  const sheet = index.sheet();
  index.score(index.expand(term, { prefix: false, fuzzy: false }, view), ONES, view, sheet);
  return new Map(Array.from(sheet.docs.subarray(0, sheet.count), (doc) => [index.keyOf(doc) as string, sheet.values[doc]]));
}

describe('TermDictionary', () => {
  it('finds terms by prefix, also those added after the last lookup', () => {
    const dict = new TermDictionary();
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    words.forEach((w) => dict.intern(w));
    expect(
      dict
        .withPrefix('w29')
        .map((id) => dict.term(id))
        .sort(),
    ).toEqual(['w29', 'w290', 'w291', 'w292', 'w293', 'w294', 'w295', 'w296', 'w297', 'w298', 'w299']);
    dict.intern('w29x');
    expect(dict.withPrefix('w29x').map((id) => dict.term(id))).toEqual(['w29x']);
    expect(dict.withPrefix('zz')).toEqual([]);
    expect(dict.intern('w5')).toBe(dict.idOf('w5'));
    expect(dict.idOf('nope')).toBe(-1);
  });

  it("interns a text's words by offsets to the ids of the terms indexTerms gives, ASCII, accented and CJK alike", () => {
    const dict = new TermDictionary();
    const piece = fc.constantFrom('Get', 'get', 'GET', 'Process', '42', 'x', 'Café', 'e\u0301', '日本語', 'の', 'Ελλ', '𠀀', 'naïve');
    const gap = fc.constantFrom(' ', '-', '\n', '_', '—', '', '.');
    const text = fc.array(fc.tuple(piece, gap), { maxLength: 40 }).map((ws) => ws.map(([p, g]) => p + g).join(''));
    fc.assert(
      fc.property(text, (t) => {
        const { ids, count } = internIndexTerms(t, dict);
        expect(Array.from(ids.subarray(0, count), (id) => dict.term(id))).toEqual(indexTerms(t));
      }),
      { numRuns: 2000 },
    );
    // Past the hash table's first size, known terms are still found and new ones added once.
    const many = Array.from({ length: 5000 }, (_, i) => `W${i}x`).join(' ');
    const first = internIndexTerms(many, dict).ids.slice(0, 5000);
    const again = internIndexTerms(many.toLowerCase(), dict).ids.slice(0, 5000);
    expect(again).toEqual(first);
    expect(dict.idOf('w4999x')).toBe(first[4999]);
    expect(dict.internAscii('say W17X now', 4, 8)).toBe(dict.idOf('w17x'));
    // The hash made in steps as the tokenizer scans, for either case, finds the same term.
    const stepped = (word: string): number =>
      asciiHashFinish([...word].reduce((h, ch) => asciiHashStep(h, ch.charCodeAt(0)), ASCII_HASH_SEED));
    expect(stepped('W17X')).toBe(stepped('w17x'));
    expect(dict.internAscii('say W17X now', 4, 8, stepped('W17X'))).toBe(dict.idOf('w17x'));
  });

  it('finds terms exactly one edit away, not the term itself', () => {
    const dict = new TermDictionary();
    for (const w of ['canvas', 'canvass', 'canva', 'canvaz', 'cnvas', 'banvaz', 'canvas2x']) dict.intern(w);
    expect(
      dict
        .withinOneEdit('canvas')
        .map((id) => dict.term(id))
        .sort(),
    ).toEqual(['canva', 'canvass', 'canvaz', 'cnvas']);
  });
});

/** One list as PostingBytes writes it: its size in bytes and the bytes (none when every posting is left out). */
function encodePostings(postings: PostingSource, renumber: Int32Array): { sizes: number[]; bytes: Uint8Array } {
  const text = new PostingBytes();
  text.add(postings, renumber);
  return text.take();
}

describe('posting codec', () => {
  it('round-trips postings with large values and drops renumbered-away docs', () => {
    const pairs = [0, 2, 3, 7 << 3, 40, 5, 70000, 0xffffffff];
    const lists = new PostingLists();
    for (let i = 0; i < pairs.length; i += 2) lists.append(0, pairs[i], pairs[i + 1]);
    const decoded = ({ sizes, bytes }: { sizes: number[]; bytes: Uint8Array }): number[] => {
      const loaded = new PostingLists();
      loaded.loadLists(
        sizes.map((_, k) => k),
        sizes,
        bytes,
        70001,
      );
      const out: number[] = [];
      sizes.forEach((_, k) => {
        const c = loaded.cursor(k);
        while (c.next()) out.push(c.doc, c.code);
      });
      return out;
    };
    const identity = Int32Array.from({ length: 70001 }, (_, i) => i);
    // The saved bytes: the list's base-128 varints as PostingLists holds them (a doc's distance, then its code).
    expect(encodePostings(lists.cursor(0), identity)).toEqual({
      sizes: [14],
      bytes: Uint8Array.of(0, 2, 3, 56, 37, 5, 200, 162, 4, 255, 255, 255, 255, 15),
    });
    expect(decoded(encodePostings(lists.cursor(0), identity))).toEqual(pairs);
    identity[3] = -1;
    expect(decoded(encodePostings(lists.cursor(0), identity))).toEqual([0, 2, 40, 5, 70000, 0xffffffff]);
    expect(encodePostings(lists.cursor(1), identity)).toEqual({ sizes: [], bytes: new Uint8Array(0) });
    // Several lists at once (a saved line): each list's size, their bytes one after another; a list left empty gets no size.
    const text = new PostingBytes();
    expect(text.add(lists.cursor(0), identity)).toBe(encodePostings(lists.cursor(0), identity).sizes[0]);
    expect(text.add(lists.cursor(1), identity)).toBe(0);
    text.add(
      lists.cursor(0),
      Int32Array.from({ length: 70001 }, (_, i) => i),
    );
    const line = text.take();
    expect(line.sizes).toEqual([encodePostings(lists.cursor(0), identity).sizes[0], 14]);
    expect(decoded(line)).toEqual([0, 2, 40, 5, 70000, 0xffffffff, ...pairs]);
    expect(text.take()).toEqual({ sizes: [], bytes: new Uint8Array(0) });
  });

  it('writes a list in parts (maxBytes) as in one call, and copies a list held with its saved ids as add writes it', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(5000), { maxLength: 200 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 7 }),
        (docs, maxBytes, dropEvery) => {
          const lists = new PostingLists();
          docs.sort((a, b) => a - b).forEach((doc, i) => lists.append(0, doc, (i * 37) % 300));
          const renumber = Int32Array.from({ length: 5001 }, (_, i) => (i % dropEvery === 1 ? -1 : i));
          const parts = new PostingBytes();
          const postings = lists.cursor(0);
          let n: number;
          let calls = 0;
          while ((n = parts.add(postings, renumber, maxBytes)) < 0) calls++;
          const whole = encodePostings(lists.cursor(0), renumber);
          expect(parts.take()).toEqual(whole);
          expect(n).toBe(whole.sizes[0] ?? 0);
          // A call writes at most maxBytes and one posting more (10 bytes at most).
          expect(calls).toBeLessThanOrEqual(Math.ceil(n / maxBytes));
          const copied = new PostingBytes();
          expect(copied.copy(lists.listBytes(0))).toBe(docs.length === 0 ? 0 : lists.listBytes(0).length);
          expect(copied.take()).toEqual(
            encodePostings(
              lists.cursor(0),
              Int32Array.from({ length: 5001 }, (_, i) => i),
            ),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes out a copy of its bytes, not a view of the buffer it goes on writing into', () => {
    const lists = new PostingLists();
    lists.append(0, 3, 9);
    lists.append(1, 4, 8);
    const identity = Int32Array.from({ length: 10 }, (_, i) => i);
    const text = new PostingBytes();
    text.add(lists.cursor(0), identity);
    const first = text.take();
    text.add(lists.cursor(1), identity);
    const second = text.take();
    expect([...first.bytes]).toEqual([3, 9]);
    expect([...second.bytes]).toEqual([4, 8]);
    expect(first.bytes.buffer).not.toBe(second.bytes.buffer);
  });

  it("packs a document's term ids into varint words and reads them back sorted, about 2 bytes an id", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.nat(300), fc.nat(40_000), fc.constant(2 ** 32 - 1)), { maxLength: 300 }), (ids) => {
        const { words, count } = packTermIds(Uint32Array.from(ids));
        expect(unpackTermIds(words.slice(0, count))).toEqual([...ids].sort((a, b) => a - b));
      }),
      { numRuns: 500 },
    );
    expect(unpackTermIds(packTermIds(new Uint32Array(0)).words.slice(0, 0))).toEqual([]);
    const dense = Array.from({ length: 200 }, (_, i) => i * 150);
    expect(packTermIds(Uint32Array.from(dense)).count).toBeLessThanOrEqual(100);
  });
});

describe('TermIndex', () => {
  it('scores BM25F: rarer terms and shorter fields score higher, a boost raises the frequency before saturation', () => {
    const index = new TermIndex();
    index.add('a', body('apple apple banana'));
    index.add('b', body('apple cherry cherry cherry cherry cherry cherry'));
    index.add('c', body('cherry'));
    const apple = scores(index, 'apple');
    expect([...apple.keys()].sort()).toEqual(['a', 'b']);
    expect(apple.get('a')).toBeGreaterThan(apple.get('b') as number);
    expect((scores(index, 'banana').get('a') as number) > (apple.get('a') as number) / 2).toBe(true);
    const view = everything(index);
    const boosted = index.sheet();
    const idf = index.score(index.expand('apple', { prefix: false, fuzzy: false }, view), [1, 1, 3, 1, 1, 1, 1], view, boosted);
    expect(boosted.values[0]).toBeGreaterThan(apple.get('a') as number);
    // Saturation: never more than idf × (k1 + 1), however large the boost.
    expect(boosted.values[0]).toBeLessThan(idf * (BM25F.k1 + 1));
  });

  it('counts every statistic over the view only: a hidden document changes no visible score', () => {
    const without = new TermIndex();
    without.add('a', body('apple banana'));
    without.add('c', body('cherry apple apple'));
    const withHidden = new TermIndex();
    withHidden.add('a', body('apple banana'));
    withHidden.add('h', body('apple apple apple apple apple apple apple apple and many more words here'));
    withHidden.add('c', body('cherry apple apple'));
    const hidden = withHidden.view((doc) => withHidden.keyOf(doc) !== 'h');
    expect(hidden.count).toBe(2);
    expect(scores(withHidden, 'apple', hidden)).toEqual(scores(without, 'apple'));
    expect(scores(withHidden, 'apple')).not.toEqual(scores(without, 'apple'));
    // A term only the hidden document holds is not there for the view (no expansion, so typo matching still runs).
    expect(withHidden.expand('many', { prefix: true, fuzzy: true }, hidden)).toEqual([]);
    expect(withHidden.expand('bananz', { prefix: true, fuzzy: true }, hidden).map((e) => withHidden.dict.term(e.id))).toEqual(['banana']);
  });

  it('expands by prefix, and by one edit only when nothing matches exactly or by prefix', () => {
    const index = new TermIndex();
    index.add('a', body('canvas canvases'));
    const view = everything(index);
    const terms = (t: string, fuzzy: boolean): string[] =>
      index
        .expand(t, { prefix: true, fuzzy }, view)
        .map((e) => index.dict.term(e.id))
        .sort();
    expect(terms('canv', true)).toEqual(['canvas', 'canvases']);
    expect(terms('canvaz', true)).toEqual(['canvas']);
    expect(terms('canvaz', false)).toEqual([]);
    const weights = index.expand('canvas', { prefix: true, fuzzy: true }, view);
    expect(weights.find((e) => index.dict.term(e.id) === 'canvas')?.weight).toBe(1);
    expect(weights.find((e) => index.dict.term(e.id) === 'canvases')?.weight).toBeLessThan(1);
  });

  it("makes every expansion, a filter word's and a ranked word's, through expansion(): one object shape for all", () => {
    // V8 keeps a field's representation per shape: one shape whose weight starts as a double never changes when a fractional weight comes.
    const index = new TermIndex();
    index.add('a', body('canvas canvases running runs'));
    index.add('b', body('canvass paint'));
    const view = everything(index);
    const shape = Object.getPrototypeOf(expansion(0, 1)) as object;
    const filter = [
      ...index.expand('canvas', { prefix: false, fuzzy: false }, view),
      ...index.expand('canv', { prefix: true, fuzzy: false }, view),
      ...index.expand('paimt', { prefix: false, fuzzy: true }, view),
    ];
    const ranked = planRanked(['runs', 'canv', 'paint'], index, view).terms.flatMap((t) => t.expansions);
    const weights = [...filter, ...ranked].map((e) => e.weight);
    // Exact (1), prefix and typo (below 1), and stem variant (STEM_WEIGHT) expansions are all among them.
    expect(weights).toContain(1);
    expect(weights).toContain(STEM_WEIGHT);
    expect(weights.filter((w) => w < 1 && w !== STEM_WEIGHT).length).toBeGreaterThanOrEqual(2);
    for (const e of [...filter, ...ranked]) expect(Object.getPrototypeOf(e)).toBe(shape);
    expect(expansion(7, 0.375)).toEqual({ id: 7, weight: 0.375 });
    expect(expansion(7, 1).weight).toBe(1);
  });

  it('removes a document from every posting list, also after a save and load (tombstone)', () => {
    const index = new TermIndex();
    const a = index.add('a', body('apple banana'));
    index.add('b', body('apple'));
    index.remove(a);
    expect([...scores(index, 'apple').keys()]).toEqual(['b']);
    expect(scores(index, 'banana').size).toBe(0);
    expect(index.documentCount).toBe(1);

    const saved = savedLines(index);
    const loaded = new TermIndex();
    saved.forEach((line) => loaded.loadLine(line));
    expect(loaded.documentCount).toBe(1);
    expect(loaded.keyOf(0)).toBe('b');
    loaded.add('c', body('apple'));
    loaded.remove(0);
    expect([...scores(loaded, 'apple').keys()]).toEqual(['c']);
    const again = new TermIndex();
    savedLines(loaded).forEach((line) => again.loadLine(line));
    expect(again.documentCount).toBe(1);
    expect([...scores(again, 'apple').keys()]).toEqual(['c']);
  });

  it('counts the loaded documents past the last tombstone in a view, and finds their terms', () => {
    const index = new TermIndex();
    for (let i = 0; i < 1500; i++) index.add(`n${i}`, body(i % 2 === 0 ? 'even' : 'odd'));
    const loaded = new TermIndex();
    savedLines(index).forEach((line) => loaded.loadLine(line));
    // A tombstone early on: the documents after it (ids past the tombstone array's first size too) stay live.
    loaded.remove(10);
    const view = everything(loaded);
    expect(view.count).toBe(1499);
    expect([view.visible[10], view.visible[1400], view.visible[1499]]).toEqual([0, 1, 1]);
    const even = loaded.dict.idOf('even');
    expect([loaded.contains(even, 10), loaded.contains(even, 1400), loaded.contains(even, 1401)]).toEqual([false, true, false]);
    expect(loaded.patched(view, [1400, 10], () => true)).toEqual(view);
  });

  it('saves the same lines with all documents live (lists copied) as through the encoder, with pauses in long work', () => {
    const build = (remove: boolean): TermIndex => {
      const index = new TermIndex();
      for (let i = 0; i < 3000; i++) index.add(`n${i}`, body(`common w${i % 97} w${i % 13} ${i % 5 === 0 ? 'rare' : ''}`));
      if (remove) index.remove(1);
      return index;
    };
    const dense = build(false);
    const steps = [...dense.savedSteps()];
    // A copied list needs no pause: only whole lines come.
    expect(steps.filter((s) => s === null)).toHaveLength(0);
    // The same lines as the encoder writes: what a copy of the index that removed a document and added it back saves, renumbered.
    const sparse = new TermIndex();
    for (let i = 0; i < 3000; i++) {
      sparse.add(`n${i}`, body(`common w${i % 97} w${i % 13} ${i % 5 === 0 ? 'rare' : ''}`));
      if (i === 0) {
        sparse.add('gone', body('common w1 rare'));
        sparse.remove(1);
      }
    }
    expect(savedLines(sparse)).toEqual(steps);
    // Encoding (a document removed): pauses between pieces of about 64 KB of postings; the lines load back whole.
    const big = new TermIndex();
    for (let i = 0; i < 40_000; i++) big.add(`n${i}`, body(`common other w${i % 7}`));
    big.remove(5);
    const encoded = [...big.savedSteps()];
    expect(encoded.filter((s) => s === null).length).toBeGreaterThan(0);
    const loaded = new TermIndex();
    for (const line of encoded) if (line !== null) loaded.loadLine(line);
    expect(loaded.documentCount).toBe(39_999);
    expect(build(true).documentCount).toBe(2999);
  });

  it('finds every posting of a removed document after many removals reclaim its term lists', () => {
    const index = new TermIndex();
    const words = (i: number): string => Array.from({ length: 40 }, (_, k) => `w${(i * 7 + k) % 300}`).join(' ');
    const ids: number[] = [];
    for (let i = 0; i < 400; i++) ids.push(index.add(`n${i}`, body(`${words(i)} common`)));
    // Removing most documents makes the term-list store copy the live lists away from the garbage.
    for (let i = 0; i < 380; i++) index.remove(ids[i]);
    expect(index.documentCount).toBe(20);
    expect([...scores(index, 'common').keys()].sort()).toEqual(Array.from({ length: 20 }, (_, k) => `n${380 + k}`).sort());
    for (let i = 380; i < 400; i++) index.remove(ids[i]);
    expect(scores(index, 'common').size).toBe(0);
    for (let k = 0; k < 300; k++) expect(scores(index, `w${k}`).size).toBe(0);
  });

  it('trims spare capacity without changing a score, and keeps indexing and removing after it', () => {
    const index = new TermIndex();
    for (let i = 0; i < 50; i++) index.add(`n${i}`, body(`apple ${i % 3 === 0 ? 'banana' : 'cherry'} word${i}`));
    const before = { apple: scores(index, 'apple'), banana: scores(index, 'banana') };
    const bytes = index.bytes();
    expect(bytes.postings).toBeGreaterThan(bytes.postingsUsed);
    expect([...index.trimSteps()].length).toBeGreaterThan(0);
    const trimmed = index.bytes();
    expect(trimmed.postings).toBe(trimmed.postingsUsed);
    expect(trimmed.docTerms).toBeLessThan(bytes.docTerms);
    expect(scores(index, 'apple')).toEqual(before.apple);
    expect(scores(index, 'banana')).toEqual(before.banana);
    index.add('late', body('apple banana'));
    index.remove(0);
    expect(scores(index, 'apple').has('n0')).toBe(false);
    expect(scores(index, 'banana').has('late')).toBe(true);
    expect(scores(index, 'apple').size).toBe(50);
  });

  it('scores as an index built from the surviving notes alone, over random adds, removes, trims and save/load', () => {
    // Words from a small vocabulary, so lists of the common ones run over many blocks of postings.
    const vocabulary = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape'];
    const noteText = fc.array(fc.nat(vocabulary.length * 3 - 1), { minLength: 1, maxLength: 12 }).map((picks) => ({
      title: vocabulary[picks[0] % vocabulary.length],
      text: picks.map((k) => (k < vocabulary.length ? vocabulary[k] : `${vocabulary[k % vocabulary.length]} w${k}`)).join(' '),
    }));
    const step = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), note: noteText, key: fc.nat(150) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), key: fc.nat(150) }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'trim' as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'reload' as const }) },
    );
    const fields = (n: { title: string; text: string }): string[] => [n.title, '', n.text, '', '', '', ''];
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300, size: 'max' }), (steps) => {
        let index = new TermIndex();
        // Each live key's note and doc id, in the order the survivors were (re)added.
        const live = new Map<string, { note: { title: string; text: string }; doc: number }>();
        for (const s of steps) {
          if (s.kind === 'add') {
            const key = `k${s.key}`;
            const old = live.get(key);
            if (old !== undefined) index.remove(old.doc);
            live.delete(key);
            live.set(key, { note: s.note, doc: index.add(key, fields(s.note)) });
          } else if (s.kind === 'remove') {
            const old = live.get(`k${s.key}`);
            if (old !== undefined) index.remove(old.doc);
            live.delete(`k${s.key}`);
          } else if (s.kind === 'trim') for (const t of index.trimSteps()) void t;
          else {
            // A save and load renumbers the live documents densely, in doc id order.
            const loaded = new TermIndex();
            for (const line of savedLines(index)) loaded.loadLine(line);
            index = loaded;
            const byDoc = [...live.entries()].sort((a, b) => a[1].doc - b[1].doc);
            byDoc.forEach(([key, v], doc) => live.set(key, { ...v, doc }));
          }
        }
        const fresh = new TermIndex();
        const byDoc = [...live.entries()].sort((a, b) => a[1].doc - b[1].doc);
        for (const [key, { note }] of byDoc) fresh.add(key, fields(note));
        expect(index.documentCount).toBe(fresh.documentCount);
        const view = everything(index);
        const freshView = everything(fresh);
        for (const word of [...vocabulary, 'w9', 'w20', 'ap']) {
          expect(scores(index, word)).toEqual(scores(fresh, word));
          const mode = { prefix: true, fuzzy: true };
          const expansions = index.expand(word, mode, view);
          expect(expansions.map((e) => index.dict.term(e.id)).sort()).toEqual(
            fresh
              .expand(word, mode, freshView)
              .map((e) => fresh.dict.term(e.id))
              .sort(),
          );
          expect(index.postingCount(expansions)).toBeGreaterThanOrEqual(0);
          for (const [key, { doc }] of byDoc) {
            const id = index.dict.idOf(word);
            const freshId = fresh.dict.idOf(word);
            const freshDoc = byDoc.findIndex(([k]) => k === key);
            expect(id >= 0 && index.contains(id, doc)).toBe(freshId >= 0 && fresh.contains(freshId, freshDoc));
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses saved lines of the wrong shape', () => {
    const index = new TermIndex();
    expect(() => index.loadLine({ kind: 'D', rows: [['a', 1]] } as IndexLine)).toThrow('malformed document row');
    const none = new Uint8Array(0);
    expect(() => index.loadLine({ kind: 'T', terms: ['a'], sizes: [], bytes: none })).toThrow('malformed term line');
    expect(() => index.loadLine({ kind: 'T', terms: ['a'], sizes: [1.5], bytes: none })).toThrow('malformed term line');
    expect(() => index.loadLine({ kind: 'T', pairs: ['a', 'AA'] } as unknown as IndexLine)).toThrow('malformed term line');
    // Format 9's line: the bytes as base64url text.
    expect(() => index.loadLine({ kind: 'T', terms: ['a'], sizes: [2], bytes: 'AIA' } as unknown as IndexLine)).toThrow(
      'malformed term line',
    );
    // Bytes [0, 8]: a posting of doc 0, and no document is loaded.
    expect(() => index.loadLine({ kind: 'T', terms: ['a'], sizes: [2], bytes: Uint8Array.of(0, 8) })).toThrow('unknown document');
    const twice = new TermIndex();
    twice.loadLine({ kind: 'D', rows: [['x', 1, 0, 0, 0, 0, 0, 0]] });
    expect(() => twice.loadLine({ kind: 'T', terms: ['a', 'a'], sizes: [2, 2], bytes: Uint8Array.of(0, 8, 0, 8) })).toThrow(
      'lists a term twice',
    );
    expect(() => twice.loadLine({ kind: 'T', terms: ['b'], sizes: [3], bytes: Uint8Array.of(0, 8) })).toThrow('truncated');
    expect(() => twice.loadLine({ kind: 'T', terms: ['c'], sizes: [1], bytes: Uint8Array.of(0, 8) })).toThrow('truncated');
    expect(FIELD_COUNT).toBe(7);
  });
});

describe('LexicalEngine save and load', () => {
  const note = (path: string, text: string, title = path.slice(0, -3)) => ({
    path,
    id: `path:${path}`,
    title,
    tags: [],
    frontmatter: {},
    text,
    headings: [],
  });
  const all = { key: 'all', allow: (): boolean => true };
  const find = async (engine: LexicalEngine, q: string): Promise<string[]> =>
    (await engine.match(parseQuery(q), async () => '', all, new RegexGuard())).matches.map((m) => m.note.path);

  it('answers the same after a round trip through its lines, and keeps working after edits', async () => {
    const engine = new LexicalEngine();
    engine.add(note('Canvas.md', 'Canvas is a visual board.'));
    engine.add(note('Sync.md', 'Sync your notes; see the canvas too.'));
    engine.add(note('Old.md', 'to be removed canvas'));
    engine.remove('Old.md');
    const lines: EngineLine[] = savedLines(engine);
    const copy = new LexicalEngine();
    let pauses = 0;
    await copy.load(lines, async () => {
      pauses++;
    });
    // One pause per line (the block bounds are made after the load: boundSteps).
    expect(pauses).toBe(lines.length);
    expect(await find(copy, 'canvas')).toEqual(await find(engine, 'canvas'));
    expect(await find(copy, 'canvas')).toEqual(['Canvas.md', 'Sync.md']);
    copy.add(note('Sync.md', 'Now about boards only.'));
    expect(await find(copy, 'canvas')).toEqual(['Canvas.md']);
    // Ranked retrieval stems: "boards" also finds "board", after the note spelled as asked.
    expect(await find(copy, 'boards')).toEqual(['Sync.md', 'Canvas.md']);
    // A filter (any operator) keeps the word as written.
    expect(await find(copy, 'boards -nothing')).toEqual(['Sync.md']);
    expect(copy.size).toBe(2);
  });

  it("pauses between a phrase filter line's read and its filters' decoding, and after each line", async () => {
    // 1000 filters a saved line: 2500 notes make three lines.
    const engine = new LexicalEngine();
    for (let i = 0; i < 2500; i++) engine.add(note(`N${i}.md`, `the quick brown fox ${i}`));
    const copy = new LexicalEngine();
    const later = await copy.load(engine.savedSteps(), async () => undefined, true);
    if (later === null) throw new Error('the phrase filter lines were not left');
    const decoded = jest.spyOn(later.phrases, 'loadSavedLine');
    const atPauses: number[] = [];
    expect(
      await copy.loadPhrases(later, async () => {
        atPauses.push(decoded.mock.calls.length);
      }),
    ).toBe(true);
    // Lines decoded at each pause: after line 1, after line 2's read, after line 2, after line 3's read, after line 3.
    expect(atPauses).toEqual([1, 1, 2, 2, 3]);
    expect(decoded.mock.calls.map(([sizes]) => (sizes as unknown[]).length)).toEqual([1000, 1000, 500]);
  });

  it('answers phrases before its phrase filters load (phrasesLater) as after; a note changed meanwhile answers by its new text', async () => {
    const engine = new LexicalEngine();
    for (let i = 0; i < 30; i++) engine.add(note(`N${i}.md`, i % 3 === 0 ? `the quick brown fox ${i}` : `slow green turtle ${i}`));
    const texts = new Map(
      Array.from({ length: 30 }, (_, i) => [`N${i}.md`, i % 3 === 0 ? `the quick brown fox ${i}` : `slow green turtle ${i}`]),
    );
    const phrase = async (e: LexicalEngine, q: string): Promise<{ paths: string[]; read: number }> => {
      let read = 0;
      const loader = async (path: string): Promise<string> => {
        read++;
        return texts.get(path) ?? '';
      };
      const found = await e.match(parseQuery(q), loader, all, new RegexGuard());
      return { paths: found.matches.map((m) => m.note.path).sort(), read };
    };
    const copy = new LexicalEngine();
    const later = await copy.load(engine.savedSteps(), async () => undefined, true);
    if (later === null) throw new Error('the phrase filter lines were not left');
    const before = await phrase(copy, '"quick brown"');
    expect(before.paths).toEqual((await phrase(engine, '"quick brown"')).paths);
    expect(before.paths).toHaveLength(10);
    // Without filters, every note holding both words is read.
    const turtleBefore = await phrase(copy, '"turtle slow"');
    // A note changed before its filter loaded: the filter saved for its old text must not come back.
    texts.set('N3.md', 'slow green turtle now');
    copy.add(note('N3.md', 'slow green turtle now'));
    expect(await copy.loadPhrases(later, async () => undefined)).toBe(true);
    const after = await phrase(copy, '"quick brown"');
    expect(after.paths).toEqual(before.paths.filter((p) => p !== 'N3.md'));
    // The filters are in: notes holding both words but not the phrase are ruled out without being read.
    expect((await phrase(copy, '"turtle slow"')).read).toBeLessThan(turtleBefore.read);
    expect(turtleBefore.read).toBe(20);
  });

  it('pauses after each line of the file that is not its own (a null) as after its own; one among the phrase filters left for later is damage', async () => {
    const engine = new LexicalEngine();
    for (let i = 0; i < 3; i++) engine.add(note(`N${i}.md`, `the quick brown fox ${i}`));
    const lines = savedLines(engine);
    const copy = new LexicalEngine();
    let pauses = 0;
    await copy.load([null, null, ...lines], async () => {
      pauses++;
    });
    expect(pauses).toBe(lines.length + 2);
    expect(await find(copy, 'quick')).toEqual(await find(engine, 'quick'));
    const phrases = lines.filter((l) => l.kind === 'P');
    const reloaded = new LexicalEngine();
    const left = await reloaded.load([...lines.filter((l) => l.kind !== 'P'), phrases[0], null], async () => undefined, true);
    if (left === null) throw new Error('the phrase filter lines were not left');
    await expect(reloaded.loadPhrases(left, async () => undefined)).rejects.toThrow('malformed phrase filter line');
  });

  it('keeps its content when a load fails', async () => {
    const engine = new LexicalEngine();
    engine.add(note('A.md', 'apple'));
    await expect(engine.load([{ kind: 'R', records: [{ path: 'X.md' } as never] }], async () => undefined)).rejects.toThrow(
      'malformed note record',
    );
    expect(await find(engine, 'apple')).toEqual(['A.md']);
  });

  it('puts the best matches first when asked for only the top few', async () => {
    const engine = new LexicalEngine();
    for (let i = 0; i < 50; i++) engine.add(note(`N${String(i).padStart(2, '0')}.md`, `${'filler '.repeat(i)}apple`));
    // A ranked query (plain words) and a filter the index decides alone return only the best; one that reads text lists the others after them.
    for (const [q, listed] of [
      ['apple', 5],
      ['apple filler', 5],
      ['apple OR filler', 5],
      ['apple OR /zzz/', 50],
    ] as const) {
      const full = await engine.match(parseQuery(q), async () => '', all, new RegexGuard());
      const top = await engine.match(parseQuery(q), async () => '', all, new RegexGuard(), 5);
      expect(full.matches).toHaveLength(50);
      expect(top.total).toBe(50);
      expect(top.matches).toHaveLength(listed);
      expect(top.matches.slice(0, 5).map((m) => m.note.path)).toEqual(full.matches.slice(0, 5).map((m) => m.note.path));
      expect(new Set(full.matches.map((m) => m.note.path)).size).toBe(50);
    }
  });
});

describe('matchedTermSpans', () => {
  it('gives the spans termSpans gives for the wanted terms, ASCII, accented and CJK alike', () => {
    const text = 'Café CAFE cafés — 日本語の本 x\u0301y Registry registry-key 𠀀𠀁';
    const wanted = new Set(['cafe', 'café', '日本', '語', 'registry', '𠀀𠀁']);
    expect(matchedTermSpans(text, wanted)).toEqual(termSpans(text, 'index').filter((s) => wanted.has(s.term)));
    expect(matchedTermSpans(text, wanted).map((s) => s.term)).toEqual(['cafe', 'cafe', '日本', 'registry', 'registry', '𠀀𠀁']);
    expect(matchedTermSpans(text, new Set())).toEqual([]);
    const ascii = 'Registry-key KEYS key2 akey key_ Registry\nkey';
    const keys = new Set(['key', 'registry', 'keys']);
    expect(matchedTermSpans(ascii, keys)).toEqual(termSpans(ascii, 'index').filter((s) => keys.has(s.term)));
    expect(matchedTermSpans(ascii, keys).map((s) => s.term)).toEqual(['registry', 'key', 'keys', 'key', 'registry', 'key']);
  });
});
