import fc from 'fast-check';
import {
  isSpace,
  joinWords,
  mayHoldAll,
  phraseFilterOf,
  phraseKeys,
  PhraseFilters,
} from '../../../../src/search/engine/filters/phrase-filter';
import { literalPattern } from '../../../../src/search/query/text-match';

describe('phrase filter', () => {
  it("counts as space exactly what JavaScript's \\s matches", () => {
    const space = /\s/;
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isSpace(c) !== space.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
    expect(isSpace(0x20) && isSpace(0x3000) && !isSpace(0x41)).toBe(true);
  });

  it('never rules out a note that holds the phrase (any case, any whitespace, the characters iu folds to ASCII)', () => {
    const piece = fc.constantFrom('tok', 'TOK', 'aka', 'AKa', 'kel', '\u212ael', 'sss', '\u017fs', 'ab', 'x', '-', 'é', 'e\u0301');
    const gap = fc.constantFrom(' ', '\n', '\t ', '\u00a0', '\u3000', '\u2028');
    const text = fc
      .array(fc.tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), gap), { minLength: 1, maxLength: 30 })
      .map((ws) => ws.map(([p, g]) => p.join('') + g).join(''));
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.nat(), (t, a, len, cut) => {
        const start = a % t.length;
        const phrase = t.slice(start, start + 1 + (len % 20)).slice(cut % 2);
        const keys = phraseKeys(phrase.normalize('NFC'));
        if (keys === null || phrase.trim() === '') return;
        if (literalPattern(phrase).test(t)) expect(mayHoldAll(phraseFilterOf(t), keys)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives a title and a text the filter of the two joined by a newline', () => {
    const part = fc.array(fc.constantFrom('tok', 'AKA', ' ', '\n', 'é', '\u3000', 'x'), { maxLength: 12 }).map((ps) => ps.join(''));
    fc.assert(
      fc.property(part, part, (title, text) => {
        expect(phraseFilterOf(title, text)).toEqual(phraseFilterOf(`${title}\n${text}`));
      }),
      { numRuns: 1000 },
    );
    expect(Array.from(phraseFilterOf(''))).toEqual([0, 0]);
  });

  it('stores in PhraseFilters the filter phraseFilterOf gives, a long note after a short one or the reverse', () => {
    const long = Array.from({ length: 3000 }, (_, i) => `Word${i} tok${i % 7}`).join(' ');
    const texts = ['a short note', long, 'tokaka tokato', '', long.slice(0, 500), 'tokaka tokato'];
    const filters = new PhraseFilters();
    texts.forEach((text, doc) => filters.add(doc, 'Title', text));
    texts.forEach((text, doc) => expect(filters.filterOf(doc)).toEqual(phraseFilterOf('Title', text)));
  });

  it('rules out most notes whose words are there but not side by side', () => {
    const notes = Array.from({ length: 200 }, (_, i) => `note ${i}: tokaka is here and later tokato is there, word${i} after word${i + 1}`);
    const keys = phraseKeys('tokaka tokato') as number[];
    const kept = notes.filter((n) => mayHoldAll(phraseFilterOf(n), keys)).length;
    expect(kept).toBeLessThan(40);
    expect(mayHoldAll(phraseFilterOf('and TOKAKA\n  Tokato!'), keys)).toBe(true);
  });

  it('gives no keys when the check could rule nothing out: non-ASCII text, short parts, one part', () => {
    expect(phraseKeys('café crème')).toBeNull();
    expect(phraseKeys('to be')).toBeNull();
    expect(phraseKeys('tokaka')).toBeNull();
    expect(phraseKeys('a tokaka tokato')).toHaveLength(1);
  });

  it('keeps a filter per document, forgets removed ones (which may then hold anything)', () => {
    const filters = new PhraseFilters();
    const keys = phraseKeys('quick brown') as number[];
    filters.add(0, 'Title', 'the quick brown fox');
    filters.add(1, 'Other', 'brown quick');
    expect(filters.mayHold(0, keys)).toBe(true);
    expect(filters.mayHold(1, keys)).toBe(false);
    filters.remove(1);
    expect(filters.mayHold(1, keys)).toBe(true);
    expect(filters.mayHold(0, phraseKeys('title the') as number[])).toBe(true);
  });

  it('saves filters in lines and loads them back into its store, for the documents still indexed', () => {
    const filters = new PhraseFilters();
    filters.add(0, 'Title', 'the quick brown fox');
    filters.add(2, 'Other', 'brown quick');
    filters.add(3, 'Third', 'slow green turtle');
    const lines = [...filters.savedLines([0, 1, 2, 3], 2)];
    expect(lines.map((line) => line.sizes.length)).toEqual([2, 2]);
    expect(lines[0].sizes[1]).toBe(0);
    const loaded = new PhraseFilters();
    expect(loaded.loadSavedLine(lines[0].sizes, lines[0].words, 0)).toBe(2);
    // Document 3 was removed meanwhile: its saved filter is skipped.
    expect(loaded.loadSavedLine(lines[1].sizes, lines[1].words, 2, (doc) => doc !== 3)).toBe(2);
    for (const doc of [0, 2]) expect(loaded.filterOf(doc)).toEqual(filters.filterOf(doc));
    expect(loaded.filterOf(1)).toBeNull();
    expect(loaded.filterOf(3)).toBeNull();
    expect(() => loaded.loadSavedLine([2], Uint32Array.of(1), 4)).toThrow(/truncated phrase filter/);
    expect(() => loaded.loadSavedLine('[1]', Uint32Array.of(1), 4)).toThrow(/malformed phrase filter line/);
    // Format 9's line: the words as base64url text.
    expect(() => loaded.loadSavedLine([1], 'AAAAAA', 4)).toThrow(/malformed phrase filter line/);
    expect(() => loaded.loadSavedLine([1], Uint8Array.of(1, 0, 0, 0), 4)).toThrow(/malformed phrase filter line/);
    expect(loaded.filterOf(4)).toBeNull();
  });

  it('joins word lists into one array with their sizes; an absent or empty list as no words', () => {
    const lists = [Uint32Array.from([7, 0xffffffff]), null, new Uint32Array(0), Uint32Array.from([0, 1, 0x80000000, 123456789])];
    const { sizes, words } = joinWords(lists);
    expect(sizes).toEqual([2, 0, 0, 4]);
    expect([...words]).toEqual([7, 0xffffffff, 0, 1, 0x80000000, 123456789]);
    expect(joinWords([])).toEqual({ sizes: [], words: new Uint32Array(0) });
  });

  it('tests a filter that is a stretch of a longer array as it tests the filter alone (any words, any keys)', () => {
    const words = fc.uint32Array({ minLength: 2, maxLength: 40 });
    fc.assert(
      fc.property(words, words, words, fc.array(fc.nat(0xffffffff), { minLength: 1, maxLength: 3 }), (before, filter, after, keys) => {
        const { words: line } = joinWords([before, filter, after]);
        expect(mayHoldAll(line, keys, before.length, filter.length)).toBe(mayHoldAll(filter, keys));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a loaded line as the words it was given: the same answers as the built filters, removals, a save again as it was', () => {
    const built = new PhraseFilters();
    const texts = Array.from({ length: 30 }, (_, i) => (i % 4 === 0 ? `tokaka tokato ${i}` : `tokato tokaka word${i} and more${i}`));
    texts.forEach((text, doc) => built.add(doc, 'Title', text));
    const docs = texts.map((_, doc) => doc);
    const lines = [...built.savedLines(docs, 8)];
    const loaded = new PhraseFilters();
    loaded.expectDocs(texts.length);
    let first = 0;
    for (const line of lines) first += loaded.loadSavedLine(line.sizes, line.words, first);
    // The words are kept as given, not copied.
    expect(loaded.filterOf(0)?.buffer).toBe(lines[0].words.buffer);
    expect(first).toBe(texts.length);
    const keys = ['tokaka tokato', 'tokato tokaka', 'title tokaka', 'title tokato', 'nothing here'].map((p) => phraseKeys(p) as number[]);
    for (const doc of docs) {
      expect(loaded.filterOf(doc)).toEqual(built.filterOf(doc));
      for (const k of keys) expect(loaded.mayHold(doc, k)).toBe(built.mayHold(doc, k));
    }
    expect(keys.some((k) => docs.some((doc) => !loaded.mayHold(doc, k)))).toBe(true);
    expect([...loaded.savedLines(docs, 8)]).toEqual(lines);
    // Removed, a loaded filter rules nothing out; a line with none left lets go of its words.
    const held = loaded.bytes();
    for (let doc = 0; doc < 8; doc++) loaded.remove(doc);
    for (const k of keys) expect(loaded.mayHold(3, k)).toBe(true);
    expect(loaded.filterOf(3)).toBeNull();
    expect(held - loaded.bytes()).toBe(lines[0].words.byteLength);
    loaded.remove(9);
    expect(held - loaded.bytes()).toBe(lines[0].words.byteLength);
    // A filter added later (a new doc id) goes to the store beside the loaded ones.
    loaded.add(30, 'Title', 'tokaka tokato');
    expect(loaded.mayHold(30, keys[0])).toBe(true);
    expect(loaded.mayHold(30, keys[1])).toBe(false);
    // Saved again: the loaded filters' words as they were, the removed one as none, the added one from the store.
    const rest = [...docs.slice(8), 30];
    const want = joinWords(rest.map((d) => (d === 9 ? null : d === 30 ? phraseFilterOf('Title', 'tokaka tokato') : built.filterOf(d))));
    expect([...loaded.savedLines(rest, 100)]).toEqual([want]);
  });

  it('refuses a damaged line: its sizes, its length; a damaged line restores none of its filters', () => {
    const filters = new PhraseFilters();
    filters.add(0, 'Title', 'the quick brown fox');
    const [line] = [...filters.savedLines([0, 0, 0], 3)];
    for (const [sizes, words, message] of [
      [[1, 2], new Uint32Array(4), /truncated phrase filter/],
      [[3], new Uint32Array(4), /truncated phrase filter/],
      [[-1, 3], new Uint32Array(2), /malformed phrase filter/],
      [[1.5, 0.5], new Uint32Array(2), /malformed phrase filter/],
      [['1', 1], new Uint32Array(2), /malformed phrase filter/],
      [[null, 2], new Uint32Array(2), /malformed phrase filter/],
      [line.sizes, line.words.subarray(1), /truncated phrase filter/],
    ] as [unknown[], Uint32Array, RegExp][]) {
      const loaded = new PhraseFilters();
      expect(() => loaded.loadSavedLine(sizes, words, 0)).toThrow(message);
      for (const doc of [0, 1, 2]) expect(loaded.filterOf(doc)).toBeNull();
      expect(loaded.bytes()).toBe(new PhraseFilters().bytes());
    }
  });
});
