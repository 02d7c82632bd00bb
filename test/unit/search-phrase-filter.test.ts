import fc from 'fast-check';
import { isSpace, mayHoldAll, phraseFilterOf, phraseKeys, PhraseFilters } from '../../src/search/engine/phrase-filter';
import { decodeWordRun, encodeWordRun } from '../../src/search/engine/posting-codec';
import { literalPattern } from '../../src/search/query/text-match';

/**
 * Decodes `text` as a run of lists of `sizes` words, for decodeWordRun: all lists in one shared
 * array, each placed one word after the one before (so a list written from the wrong index shows:
 * over its neighbour, or in a gap, which must stay 0).
 * @returns each list as a view of the shared array, and the array
 */
function decodeRun(text: string, sizes: unknown[]): { lists: (Uint32Array | null)[]; array: Uint32Array } {
  const lists: (Uint32Array | null)[] = sizes.map(() => null);
  const array = new Uint32Array(2 + text.length);
  let next = 1;
  decodeWordRun(text, sizes, {
    place: (i, n) => {
      const at = next;
      lists[i] = array.subarray(at, at + n);
      next += n + 1;
      return at;
    },
    array,
  });
  return { lists, array };
}

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
    expect(loaded.loadSavedLine(lines[0].sizes, lines[0].text, 0)).toBe(2);
    // Document 3 was removed meanwhile: its saved filter is skipped.
    expect(loaded.loadSavedLine(lines[1].sizes, lines[1].text, 2, (doc) => doc !== 3)).toBe(2);
    for (const doc of [0, 2]) expect(loaded.filterOf(doc)).toEqual(filters.filterOf(doc));
    expect(loaded.filterOf(1)).toBeNull();
    expect(loaded.filterOf(3)).toBeNull();
    expect(() => loaded.loadSavedLine([1], 'AAAAE', 4)).toThrow(/truncated phrase filter/);
    expect(() => loaded.loadSavedLine('[1]', 'AAAAAA', 4)).toThrow(/malformed phrase filter line/);
    expect(() => loaded.loadSavedLine([1], ['AAAAAA'], 4)).toThrow(/malformed phrase filter line/);
    expect(loaded.filterOf(4)).toBeNull();
  });

  it('encodes word lists as one run and decodes them back; an absent or empty list as no words', () => {
    const lists = [
      Uint32Array.from([7, 0xffffffff]),
      null,
      new Uint32Array(0),
      Uint32Array.from([0, 1, 0x80000000, 123456789, 0x3f, 0xfc0, 1 << 30]),
    ];
    const { sizes, text } = encodeWordRun(lists);
    expect(sizes).toEqual([2, 0, 0, 7]);
    expect(text).toHaveLength(9 * 6);
    const run = decodeRun(text, sizes);
    expect(run.lists).toEqual([lists[0], null, null, lists[3]]);
    // Each list from the index its place gave, nothing written elsewhere.
    expect(Array.from(run.array.subarray(0, 12))).toEqual([0, 7, 0xffffffff, 0, 0, 1, 0x80000000, 123456789, 0x3f, 0xfc0, 1 << 30, 0]);
    expect(run.array.subarray(12).every((w) => w === 0)).toBe(true);
    expect(encodeWordRun([])).toEqual({ sizes: [], text: '' });
    expect(decodeRun('', []).lists).toEqual([]);
  });

  it('skips a list whose place is -1 and decodes the next ones from their own characters', () => {
    const lists = [Uint32Array.from([1, 2]), Uint32Array.from([3, 4, 5]), Uint32Array.from([6])];
    const { sizes, text } = encodeWordRun(lists);
    const array = new Uint32Array(4);
    const asked: number[] = [];
    decodeWordRun(text, sizes, {
      place: (i, n) => {
        asked.push(i);
        return i === 1 ? -1 : i === 0 ? 0 : 4 - n;
      },
      array,
    });
    expect(asked).toEqual([0, 1, 2]);
    expect(Array.from(array)).toEqual([1, 2, 0, 6]);
  });

  it('refuses a damaged run: its sizes before any list is written, its characters where they are', () => {
    const written: number[] = [];
    const into = {
      place: (i: number): number => {
        written.push(i);
        return 0;
      },
      array: new Uint32Array(2),
    };
    for (const [sizes, message] of [
      [[1, 2], /truncated phrase filter/],
      [[3], /truncated phrase filter/],
      [[-1, 3], /malformed phrase filter/],
      [[1.5, 0.5], /malformed phrase filter/],
      [['1', 1], /malformed phrase filter/],
      [[null, 2], /malformed phrase filter/],
    ] as [unknown[], RegExp][]) {
      expect(() => decodeWordRun('AAAAAAAAAAAA', sizes, into)).toThrow(message);
    }
    expect(written).toEqual([]);
    expect(() => decodeWordRun('AAAAAAAAAA*A', [1, 1], into)).toThrow(/damaged phrase filter/);
    expect(() => decodeWordRun('AAAAAA______', [1, 1], into)).toThrow(/damaged phrase filter/);
    expect(() => decodeWordRun('AAAAAAAAAAA\u00e9', [1, 1], into)).toThrow(/damaged phrase filter/);
    // Lists up to the bad character's are asked for their place; a character outside ASCII is found before any.
    expect(written).toEqual([0, 1, 0, 1]);
  });
});
