import {
  indexHead,
  indexParts,
  joinedBytes,
  IndexChangedError,
  INDEX_FORMAT,
  isOtherIndexFormat,
  openIndex,
  PART_SIZE,
  partSum,
  PHRASE_PART_CHARS,
  type IndexPart,
  type PartReader,
  type SavedIndex,
} from '../../../../src/search/engine/index-file';
import { LexicalEngine } from '../../../../src/search/engine/lexical-engine';

/** A part of text alone. */
const textPart = (text: string): IndexPart => ({ text, bytes: new Uint8Array(0) });

/**
 * A reader of the parts in `parts` (null for a missing one; a string is a part of text alone)
 * that records what it was asked (`<generation>.<n>`, `+bytes` when it asked for the bytes too).
 */
function readerOf(parts: (IndexPart | string | null)[], asked: string[] = []): (generation: string) => PartReader {
  return (generation) => ({
    read: async (n, withBytes) => {
      asked.push(`${generation}.${n}${withBytes ? '+bytes' : ''}`);
      const part = parts[n] ?? null;
      if (part === null) return null;
      const { text, bytes } = typeof part === 'string' ? textPart(part) : part;
      return { text, bytes: withBytes ? bytes : new Uint8Array(0) };
    },
    wait: (pending) => pending,
  });
}

/** The head of generation 000000001-a listing `parts` (their lengths and checksums) as a save writes it. */
const headOf = (parts: readonly (IndexPart | string)[]): string =>
  indexHead(
    '000000001-a',
    lengthsOf(parts),
    parts.map((p) => (typeof p === 'string' ? partSum(p, new Uint8Array(0)) : partSum(p.text, p.bytes))),
  );

/** The lengths a head lists for `parts`. */
const lengthsOf = (parts: readonly (IndexPart | string)[]): { chars: number; bytes: number }[] =>
  parts.map((p) => (typeof p === 'string' ? { chars: p.length, bytes: 0 } : { chars: p.text.length, bytes: p.bytes.length }));

async function collect(saved: SavedIndex): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const line of saved.lines()) out.push(line);
  return out;
}

/** An engine of `count` notes whose text is `words` words long each. */
function engineOf(count: number, words: number): LexicalEngine {
  const engine = new LexicalEngine();
  for (let i = 0; i < count; i++) {
    const text = Array.from({ length: words }, (_, w) => `w${(i * 7 + w * 13) % 5000}`).join(' ');
    engine.add({ path: `N${i}.md`, id: `path:N${i}.md`, title: `N${i}`, tags: [], frontmatter: {}, text, headings: [] });
  }
  return engine;
}

async function partsOf(engine: LexicalEngine, manifest = new Map<string, [number, number]>()): Promise<IndexPart[]> {
  const parts: IndexPart[] = [];
  for await (const part of indexParts(engine, manifest, async () => undefined)) parts.push(part);
  return parts;
}

/** Opens `parts` as one save of generation 000000001-a and loads them into a new engine (throws as LexicalEngine.load does on damage). */
async function loadParts(parts: IndexPart[]): Promise<{ saved: SavedIndex; copy: LexicalEngine }> {
  const saved = openIndex(headOf(parts), readerOf(parts)) as SavedIndex;
  const copy = new LexicalEngine();
  await copy.load(saved.lines(), async () => undefined);
  return { saved, copy };
}

describe('saved index parts', () => {
  it('are whole lines, none over PART_SIZE (PHRASE_PART_CHARS once it holds a phrase filter line) unless one line alone, and load back to the same engine', async () => {
    const engine = engineOf(3000, 400);
    const manifest = new Map<string, [number, number]>(engine.paths().map((p, i) => [p, [i, 10 * i]]));
    const parts = await partsOf(engine, manifest);
    expect(parts.length).toBeGreaterThan(1);
    for (const { text, bytes } of parts) {
      const size = text.split('\n').some((line) => line.startsWith('["P",')) ? PHRASE_PART_CHARS : PART_SIZE;
      expect(text.length + bytes.length <= size || !text.includes('\n')).toBe(true);
      // JSON lines; a term line's posting lists and a phrase filter line's words (4 bytes each) are the part's next bytes.
      let lineBytes = 0;
      const kinds = new Set<string>();
      for (const line of text.split('\n')) {
        const value = JSON.parse(line) as [string, unknown[]];
        kinds.add(value[0]);
        if (value[0] === 'T') lineBytes += (value[1][1] as number[]).reduce((sum, n) => sum + n, 0);
        if (value[0] === 'P') lineBytes += 4 * (value[1] as number[]).reduce((sum, n) => sum + n, 0);
      }
      expect(lineBytes).toBe(bytes.length);
      // Phrase filter lines in parts of their own: their words start at multiples of 4 bytes.
      if (kinds.has('P')) expect([...kinds]).toEqual(['P']);
    }
    expect(parts.some((part) => part.bytes.length > 0)).toBe(true);
    const { saved, copy } = await loadParts(parts);
    expect([...saved.manifest]).toEqual([...manifest]);
    expect(await partsOf(copy, saved.manifest)).toEqual(parts);
    // The phrase filter lines come in parts of their own smaller size.
    expect(parts.filter((part) => part.text.startsWith('["P",')).length).toBeGreaterThan(1);
    // A save of other part sizes (4 MB for every line before session 19) loads the same: the head's lengths say where each part ends.
    expect(parts.length).toBeGreaterThan(2);
    const larger: IndexPart[] = [];
    for (let i = 0; i < parts.length; i += 2) {
      const pair = parts.slice(i, i + 2);
      larger.push({ text: pair.map((p) => p.text).join('\n'), bytes: Uint8Array.from(pair.flatMap((p) => [...p.bytes])) });
    }
    const fromLarger = await loadParts(larger);
    expect([...fromLarger.saved.manifest]).toEqual([...manifest]);
    expect(await partsOf(fromLarger.copy, manifest)).toEqual(parts);
  });

  it('give the save up with IndexChangedError when the engine changes meanwhile', async () => {
    const engine = engineOf(50, 10);
    const parts = indexParts(engine, new Map(), async () => {
      engine.remove('N3.md');
    });
    await expect(parts.next()).rejects.toBeInstanceOf(IndexChangedError);
  });

  it('of an empty engine are none, and a head of no parts opens to no lines', async () => {
    expect(await partsOf(new LexicalEngine())).toEqual([]);
    const saved = openIndex(headOf([]), readerOf([])) as SavedIndex;
    expect(await collect(saved)).toEqual([]);
  });
});

describe('opening a saved index', () => {
  const path = 'Déjà vu €/𝄞 note.md';
  const record = { path, id: `path:${path}`, title: 'Déjà 𝄞', tags: ['ü'], frontmatter: {} };
  const long = 'x'.repeat(300_000);
  const parts = [JSON.stringify(['M', [[path, 5, 7]]]), JSON.stringify(['R', [record, { ...record, path: long }]])];
  const head = headOf(parts);

  it('reads each part in turn: characters outside ASCII, lines of any length, the manifest filled as it goes, one null per manifest line', async () => {
    const asked: string[] = [];
    const saved = openIndex(head, readerOf(parts, asked)) as SavedIndex;
    expect(saved.generation).toBe('000000001-a');
    expect(asked).toEqual([]);
    expect(await collect(saved)).toEqual([null, { kind: 'R', records: [record, { ...record, path: long }] }]);
    expect([...saved.manifest]).toEqual([[path, [5, 7]]]);
    expect(asked).toEqual(['000000001-a.0', '000000001-a.1']);
  });

  it("asks for a part's bytes only where the head lists some, and hands each term line its own as a view of them", async () => {
    const engine = engineOf(40, 30);
    const saved = await partsOf(engine);
    const asked: string[] = [];
    const opened = openIndex(headOf(saved), readerOf(saved, asked)) as SavedIndex;
    const terms = (await collect(opened)).filter((line) => (line as { kind?: string } | null)?.kind === 'T') as { bytes: Uint8Array }[];
    expect(asked).toEqual(saved.map((part, n) => `000000001-a.${n}${part.bytes.length > 0 ? '+bytes' : ''}`));
    const withBytes = saved.filter((part) => part.bytes.length > 0);
    expect(withBytes.length).toBeGreaterThan(0);
    expect(terms.length).toBeGreaterThan(0);
    for (const line of terms) expect(withBytes.some((part) => part.bytes.buffer === line.bytes.buffer)).toBe(true);
  });

  it.each([
    ['missing', [parts[0], null], /part 2 of 2 is missing/],
    ['short', [parts[0], parts[1].slice(0, -1)], /part 2 of 2 is cut/],
    ['longer', [parts[0] + '\n', parts[1]], /part 1 of 2 is cut/],
    ['changed, its length kept (a letter)', [parts[0], parts[1].replace('Déjà 𝄞', 'Dejà 𝄞')], /part 2 of 2 does not match its checksum/],
    [
      'changed, its length kept (a line break for a space)',
      [parts[0].replace(',', '\n'), parts[1]],
      /part 1 of 2 does not match its checksum/,
    ],
  ])('throws while iterating when a part is %s', async (_what, damaged, message) => {
    const saved = openIndex(head, readerOf(damaged)) as SavedIndex;
    await expect(collect(saved)).rejects.toThrow(message);
  });

  it.each([
    ['garbled', [parts[0], parts[1].replace('["R"', '[{R"')], /JSON/],
    ['of an unknown kind', [parts[0], parts[1].replace('"R"', '"X"')], /unknown kind "X"/],
  ])('throws while iterating when a part is %s, though its head lists it as it is', async (_what, damaged, message) => {
    const saved = openIndex(headOf(damaged), readerOf(damaged)) as SavedIndex;
    await expect(collect(saved)).rejects.toThrow(message);
  });

  it("throws while iterating when a bit of a part's bytes is flipped, whichever bit", async () => {
    const saved = await partsOf(engineOf(40, 30));
    const n = saved.findIndex((part) => part.bytes.length > 0);
    const head = headOf(saved);
    for (const at of [0, 1, Math.floor(saved[n].bytes.length / 2), saved[n].bytes.length - 1]) {
      for (const bit of [0, 3, 7]) {
        const bytes = saved[n].bytes.slice();
        bytes[at] ^= 1 << bit;
        const damaged = saved.map((part, i) => (i === n ? { text: part.text, bytes } : part));
        await expect(collect(openIndex(head, readerOf(damaged)) as SavedIndex)).rejects.toThrow(/does not match its checksum/);
      }
    }
  });

  it('sums a part over its text, then its bytes as 32-bit words, aligned or not, the last 1–3 bytes as one word', () => {
    const bytes = Uint8Array.of(1, 2, 3, 4, 5, 6, 7);
    const shifted = new Uint8Array(9);
    shifted.set(bytes, 1);
    expect(partSum('ab', shifted.subarray(1, 8))).toBe(partSum('ab', bytes));
    expect(partSum('ab', bytes)).not.toBe(partSum('ba', bytes));
    expect(partSum('ab', bytes)).not.toBe(partSum('ab', Uint8Array.of(1, 2, 3, 4, 5, 6, 8)));
    // A surrogate pair across a stretch of 2^18 code units is summed whole: another pair there is another sum.
    const edge = 'a'.repeat((1 << 18) - 1);
    expect(partSum(`${edge}😀b`, bytes)).not.toBe(partSum(`${edge}😃b`, bytes));
    expect(partSum(`${edge}😀b`, bytes)).not.toBe(partSum(`${edge}🙀b`, bytes));
    // FNV-1a's offset basis for nothing, and its value over one word.
    expect(partSum('', new Uint8Array(0))).toBe(0x811c9dc5);
    expect(partSum('', Uint8Array.of(1, 0, 0, 0))).toBe(Math.imul(0x811c9dc5 ^ 1, 0x01000193) >>> 0);
  });

  it("throws while iterating when a part's bytes are missing, or hold bytes no term line names", async () => {
    const withBytes: IndexPart[] = [textPart(parts[0]), { text: parts[1], bytes: Uint8Array.of(1) }];
    const listed = headOf(withBytes);
    await expect(collect(openIndex(listed, readerOf(parts)) as SavedIndex)).rejects.toThrow(/part 2 of 2 is cut/);
    await expect(collect(openIndex(listed, readerOf(withBytes)) as SavedIndex)).rejects.toThrow(
      /bytes no term or phrase filter line names/,
    );
  });

  /**
   * The saved parts of `engine`, with its first line starting with `start` replaced by
   * `damage(line)`, and that part's bytes by `bytes(part bytes, where the line's own begin)`.
   */
  async function withLine(
    engine: LexicalEngine,
    start: string,
    damage: (line: string) => string,
    bytes: (all: Uint8Array, from: number) => Uint8Array = (all) => all,
  ): Promise<IndexPart[]> {
    const saved = await partsOf(engine);
    const at = saved.findIndex((part) => part.text.startsWith(start) || part.text.includes(`\n${start}`));
    const lines = saved[at].text.split('\n');
    const n = lines.findIndex((line) => line.startsWith(start));
    // The line's bytes begin after the bytes of the part's term lines before it.
    const from = lines
      .slice(0, n)
      .filter((line) => line.startsWith('["T",'))
      .reduce((sum, line) => sum + (JSON.parse(line) as [string, [string[], number[]]])[1][1].reduce((a, b) => a + b, 0), 0);
    lines[n] = damage(lines[n]);
    return saved.map((part, i) => (i === at ? { text: lines.join('\n'), bytes: bytes(part.bytes, from) } : part));
  }
  const load = async (saved: IndexPart[]): Promise<LexicalEngine> => (await loadParts(saved)).copy;

  const engine = engineOf(40, 30);

  it.each([
    ["term line: its JSON (terms and sizes), its posting lists in the part's bytes", '["T",', /^\["T",\[\["[^\t]*\],\[[0-9,]+\]\]\]$/],
    [
      "phrase filter line: its JSON (each note's filter's length in words), its words in the part's bytes",
      '["P",',
      /^\["P",\[[0-9,]+\]\]$/,
    ],
  ])('has a %s, read back as saved', async (_what, start, layout) => {
    const line = (await withLine(engine, start, (l) => l))
      .map((part) => part.text)
      .join('\n')
      .split('\n')
      .find((l) => l.startsWith(start)) as string;
    expect(line).toMatch(layout);
    const copy = await load(await withLine(engine, start, (l) => l));
    expect(await partsOf(copy)).toEqual(await partsOf(engine));
  });

  describe('a term line', () => {
    const withTermLine = (damage: (line: string) => string, bytes?: (all: Uint8Array, from: number) => Uint8Array): Promise<IndexPart[]> =>
      withLine(engine, '["T",', damage, bytes);
    /** `all` with byte `at` set to `value`. */
    const setByte = (all: Uint8Array, at: number, value: number): Uint8Array => {
      const copy = all.slice();
      copy[at] = value;
      return copy;
    };

    it.each([
      ['in the old layout (format 9: base64url text after a tab)', (l: string) => `${l}\tAAAA`, undefined, /JSON/],
      ['with its JSON garbled', (l: string) => l.replace('["T",[[', '["T",[{'), undefined, /JSON/],
      ['with a third payload item', (l: string) => l.replace(/\]\]\]$/, '],"x"]]'), undefined, /malformed term line/],
      ['with a size not a whole number', (l: string) => l.replace(/\],\[(\d+)/, '],[$1.5'), undefined, /malformed term line/],
      ['with a negative size', (l: string) => l.replace(/\],\[(\d+)/, '],[-$1'), undefined, /malformed term line/],
      ['with its sizes running past the bytes', (l: string) => l.replace(/\],\[(\d+)/, '],[1$1'), undefined, /truncated posting line/],
      [
        'with its bytes cut',
        (l: string) => l,
        (all: Uint8Array) => all.subarray(0, all.length - 1),
        /truncated posting line|damaged posting list/,
      ],
      [
        'with a varint that never ends',
        (l: string) => l,
        (all: Uint8Array, from: number) => setByte(all, from + 1, 255),
        /damaged posting list/,
      ],
      [
        'with a posting for a document the index does not hold',
        (l: string) => l,
        (all: Uint8Array, from: number) => setByte(all, from, 127),
        /unknown document|damaged/,
      ],
    ])('is damage %s', async (_what, damage, bytes, message) => {
      await expect(load(await withTermLine(damage, bytes))).rejects.toThrow(message);
    });
  });

  describe('a phrase filter line', () => {
    const withPhraseLine = (
      damage: (line: string) => string,
      bytes?: (all: Uint8Array, from: number) => Uint8Array,
    ): Promise<IndexPart[]> => withLine(engine, '["P",', damage, bytes);

    it.each([
      ['in the old layout (format 9: base64url words after a tab)', (l: string) => `${l}\tAAAAAA`, undefined, /JSON/],
      ['in the old layout (format 8)', () => '["P",["AAAAAA"]]', undefined, /malformed phrase filter line/],
      ['with its JSON garbled', (l: string) => l.replace('["P",[', '["P",{'), undefined, /JSON/],
      ['with a size not a whole number', (l: string) => l.replace('["P",[', '["P",[0.5,'), undefined, /malformed phrase filter line/],
      ['with a negative size', (l: string) => l.replace('["P",[', '["P",[-1,'), undefined, /malformed phrase filter line/],
      [
        'with its words running past the bytes',
        (l: string) => l.replace('["P",[', '["P",[1000,'),
        undefined,
        /truncated phrase filter line/,
      ],
      [
        'with its words cut',
        (l: string) => l,
        (all: Uint8Array) => all.subarray(0, all.length - 4),
        /truncated phrase filter line|bytes no term/,
      ],
      [
        'with bytes past its words',
        (l: string) => l,
        (all: Uint8Array) => Uint8Array.from([...all, 0, 0, 0, 0]),
        /bytes no term or phrase filter line names/,
      ],
    ])('is damage %s', async (_what, damage, bytes, message) => {
      await expect(load(await withPhraseLine(damage, bytes))).rejects.toThrow(message);
    });

    it('reads its words as a view of the part where they start at a multiple of 4 bytes, else as a copy, the same either way', async () => {
      const saved = await partsOf(engine);
      const part = saved.find((p) => p.text.startsWith('["P",')) as IndexPart;
      const aligned = (await collect(openIndex(headOf([part]), readerOf([part])) as SavedIndex)) as {
        words: Uint32Array;
      }[];
      expect(aligned[0].words.buffer).toBe(part.bytes.buffer);
      // The same bytes one place further into a buffer: no 32-bit view of them can be made, so they are copied.
      const shifted = new Uint8Array(part.bytes.length + 1);
      shifted.set(part.bytes, 1);
      const odd = { text: part.text, bytes: shifted.subarray(1) };
      const copied = (await collect(openIndex(headOf([odd]), readerOf([odd])) as SavedIndex)) as {
        words: Uint32Array;
      }[];
      expect(copied[0].words.buffer).not.toBe(shifted.buffer);
      expect(copied.map((l) => [...l.words])).toEqual(aligned.map((l) => [...l.words]));
    });
  });

  it('refuses a head of another format, of a bad generation or part list, a format-6 file, or none', () => {
    const other = JSON.stringify({ format: INDEX_FORMAT - 1, generation: '000000001-a', parts: [] });
    expect(openIndex(other, readerOf([]))).toBeNull();
    for (const generation of ['../x', '', 'A-B', 7])
      expect(openIndex(JSON.stringify({ format: INDEX_FORMAT, generation, parts: [] }), readerOf([]))).toBeNull();
    for (const list of [[1.5], ['3'], null])
      expect(
        openIndex(JSON.stringify({ format: INDEX_FORMAT, generation: '000000001-a', parts: list, bytes: [0], sums: [7] }), readerOf([])),
      ).toBeNull();
    // Byte lengths and checksums: one a part, whole numbers; a head without them (format 9's) is none of this format's.
    const headWith = (fields: object): string =>
      JSON.stringify({ format: INDEX_FORMAT, generation: '000000001-a', parts: [3], bytes: [0], sums: [7], ...fields });
    for (const bytes of [[], [0, 0], [1.5], ['3'], null, undefined]) expect(openIndex(headWith({ bytes }), readerOf([]))).toBeNull();
    for (const sums of [[], [7, 7], [1.5], ['7'], null, undefined]) expect(openIndex(headWith({ sums }), readerOf([]))).toBeNull();
    expect(openIndex(headWith({}), readerOf([]))).not.toBeNull();
    expect(openIndex(`{"format":6}\n["M",[]]`, readerOf([]))).toBeNull();
    expect(openIndex('', readerOf([]))).toBeNull();
    expect(openIndex('["M",[]]', readerOf([]))).toBeNull();
  });

  it('tells a head or file of another format version from damage', () => {
    expect(isOtherIndexFormat(`{"format":${INDEX_FORMAT + 1}}\n`)).toBe(true);
    expect(isOtherIndexFormat(`{"format":6}\n["M",[]]`)).toBe(true);
    expect(isOtherIndexFormat(indexHead('000000001-a', [{ chars: 3, bytes: 5 }], [7]))).toBe(false);
    expect(isOtherIndexFormat('garbage')).toBe(false);
  });
});

describe("a part's bytes joined in steps", () => {
  const MB = 1 << 20;
  /** `n` bytes counting up from `start` (mod 251), so a misplaced or dropped byte shows. */
  const counting = (n: number, start: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (start + i) % 251);

  it('copies the chunks in order, whole, pausing after each MB copied and not in between', async () => {
    // A chunk larger than a step, one ending a step mid-way, an empty one, a small tail: 3.5 MB in all.
    const chunks = [counting(1.5 * MB, 0), counting(MB / 4, 7), new Uint8Array(0), counting(1.5 * MB + 3, 11), counting(MB / 4 - 3, 13)];
    const pause = jest.fn(async () => {});
    const joined = await joinedBytes(chunks, pause);
    expect(joined.length).toBe(3.5 * MB);
    let at = 0;
    for (const chunk of chunks) {
      expect(Buffer.from(joined.subarray(at, at + chunk.length)).equals(Buffer.from(chunk))).toBe(true);
      at += chunk.length;
    }
    // One pause per whole MB (3 of 3.5 MB), none for the last half MB.
    expect(pause).toHaveBeenCalledTimes(3);
  });

  it('pauses with exactly one MB more copied each time', async () => {
    const chunks = [counting(2 * MB + 100, 1), counting(MB, 2)];
    const total = chunks[0].length + chunks[1].length;
    // The joined array is not the caller's until the end: the bytes copied by each pause are counted at the copies.
    const seen: number[] = [];
    let copiedSoFar = 0;
    const originalSet = Uint8Array.prototype.set;
    const set = jest.spyOn(Uint8Array.prototype, 'set').mockImplementation(function (
      this: Uint8Array,
      source: ArrayLike<number>,
      offset?: number,
    ) {
      copiedSoFar += source.length;
      return originalSet.call(this, source, offset);
    });
    try {
      await joinedBytes(chunks, async () => {
        seen.push(copiedSoFar);
      });
    } finally {
      set.mockRestore();
    }
    expect(seen).toEqual([MB, 2 * MB, 3 * MB]);
    expect(copiedSoFar).toBe(total);
  });

  it('joins no chunks into an empty array without pausing', async () => {
    const pause = jest.fn(async () => {});
    expect((await joinedBytes([], pause)).length).toBe(0);
    expect(pause).not.toHaveBeenCalled();
  });
});
