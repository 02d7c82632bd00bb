import fc from 'fast-check';
import { isSpace, mayHoldAll, phraseFilterOf, phraseKeys, PhraseFilters } from '../../src/search/engine/phrase-filter';
import { decodeWords, encodeWordLists, encodeWords } from '../../src/search/engine/posting-codec';
import { literalPattern } from '../../src/search/query/text-match';

/** A new array of `n` words, for decodeWords. */
const fresh = (n: number): Uint32Array => new Uint32Array(n);

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

  it('saves filters in lines and loads them back into its store', () => {
    const filters = new PhraseFilters();
    filters.add(0, 'Title', 'the quick brown fox');
    filters.add(2, 'Other', 'brown quick');
    const lines = [...filters.savedLines([0, 1, 2], 2)];
    expect(lines.map((line) => line.length)).toEqual([2, 1]);
    const loaded = new PhraseFilters();
    expect(loaded.loadSavedLine(lines[0], 0)).toBe(2);
    expect(loaded.loadSavedLine(lines[1], 2)).toBe(1);
    for (const doc of [0, 2]) expect(loaded.filterOf(doc)).toEqual(filters.filterOf(doc));
    expect(loaded.filterOf(1)).toBeNull();
    expect(() => loaded.loadSavedLine(['AAAAE'], 3)).toThrow(/truncated phrase filter/);
  });

  it('encodes filter words and decodes them back; refuses damaged text', () => {
    const words = Uint32Array.from([0, 1, 0xffffffff, 0x80000000, 123456789]);
    expect(decodeWords(encodeWords(words), fresh)).toEqual(words);
    expect(() => decodeWords('AB', fresh)).toThrow(/truncated phrase filter/);
    expect(() => decodeWords('AAAA*A', fresh)).toThrow(/damaged phrase filter/);
    expect(() => decodeWords('______', fresh)).toThrow(/damaged phrase filter/);
    expect(() => decodeWords('AAAAA\u00e9', fresh)).toThrow(/damaged phrase filter/);
    expect(() => decodeWords('AAAAE', fresh)).toThrow(/truncated phrase filter/);
  });

  it('encodes many filters at once exactly as one at a time, an absent one as the empty string', () => {
    const lists = [Uint32Array.from([7, 0xffffffff]), null, new Uint32Array(0), Uint32Array.from([0x3f, 0xfc0, 1 << 30])];
    const texts = encodeWordLists(lists);
    expect(texts).toEqual([encodeWords(lists[0] as Uint32Array), '', '', encodeWords(lists[3] as Uint32Array)]);
    expect(texts[0]).toHaveLength(12);
    expect(decodeWords(texts[3], fresh)).toEqual(lists[3]);
    expect(encodeWordLists([])).toEqual([]);
  });
});
