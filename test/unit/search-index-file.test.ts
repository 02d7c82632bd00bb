import {
  indexHead,
  indexParts,
  IndexChangedError,
  INDEX_FORMAT,
  isOtherIndexFormat,
  openIndex,
  PART_CHARS,
  PHRASE_PART_CHARS,
  type PartReader,
  type SavedIndex,
} from '../../src/search/engine/index-file';
import { LexicalEngine } from '../../src/search/engine/lexical-engine';

/** A reader of the parts in `parts` (null for a missing one) that records what it was asked. */
function readerOf(parts: (string | null)[], asked: string[] = []): (generation: string) => PartReader {
  return (generation) => ({
    read: async (n) => {
      asked.push(`${generation}.${n}`);
      return parts[n] ?? null;
    },
    wait: (pending) => pending,
  });
}

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

async function partsOf(engine: LexicalEngine, manifest = new Map<string, [number, number]>()): Promise<string[]> {
  const parts: string[] = [];
  for await (const part of indexParts(engine, manifest, async () => undefined)) parts.push(part);
  return parts;
}

/** Opens `parts` as one save of generation 000000001-a and loads them into a new engine (throws as LexicalEngine.load does on damage). */
async function loadParts(parts: string[]): Promise<{ saved: SavedIndex; copy: LexicalEngine }> {
  const saved = openIndex(
    indexHead(
      '000000001-a',
      parts.map((p) => p.length),
    ),
    readerOf(parts),
  ) as SavedIndex;
  const copy = new LexicalEngine();
  await copy.load(saved.lines(), async () => undefined);
  return { saved, copy };
}

describe('saved index parts', () => {
  it('are whole lines, none over PART_CHARS (PHRASE_PART_CHARS once it holds a phrase filter line) unless one line alone, and load back to the same engine', async () => {
    const engine = engineOf(3000, 400);
    const manifest = new Map<string, [number, number]>(engine.paths().map((p, i) => [p, [i, 10 * i]]));
    const parts = await partsOf(engine, manifest);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      const size = part.split('\n').some((line) => line.startsWith('["P",')) ? PHRASE_PART_CHARS : PART_CHARS;
      expect(part.length <= size || !part.includes('\n')).toBe(true);
      // JSON lines, but for term and phrase filter lines: their JSON, a tab, their text (base64url).
      for (const line of part.split('\n')) {
        const json = line.startsWith('["T",') || line.startsWith('["P",') ? line.slice(0, line.indexOf('\t')) : line;
        expect(() => JSON.parse(json) as unknown).not.toThrow();
        if (json !== line) expect(line.slice(json.length + 1)).toMatch(/^[A-Za-z0-9_-]+$/);
      }
    }
    const { saved, copy } = await loadParts(parts);
    expect([...saved.manifest]).toEqual([...manifest]);
    expect(await partsOf(copy, saved.manifest)).toEqual(parts);
    // The phrase filter lines come in parts of their own smaller size.
    expect(parts.filter((part) => part.startsWith('["P",')).length).toBeGreaterThan(1);
    // A save of other part sizes (4 MB for every line before session 19) loads the same: the head's lengths say where each part ends.
    expect(parts.length).toBeGreaterThan(2);
    const larger: string[] = [];
    for (let i = 0; i < parts.length; i += 2) larger.push(parts.slice(i, i + 2).join('\n'));
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
    const saved = openIndex(indexHead('000000001-a', []), readerOf([])) as SavedIndex;
    expect(await collect(saved)).toEqual([]);
  });
});

describe('opening a saved index', () => {
  const path = 'Déjà vu €/𝄞 note.md';
  const record = { path, id: `path:${path}`, title: 'Déjà 𝄞', tags: ['ü'], frontmatter: {} };
  const long = 'x'.repeat(300_000);
  const parts = [JSON.stringify(['M', [[path, 5, 7]]]), JSON.stringify(['R', [record, { ...record, path: long }]])];
  const head = indexHead(
    '000000001-a',
    parts.map((p) => p.length),
  );

  it('reads each part in turn: characters outside ASCII, lines of any length, the manifest filled as it goes, one null per manifest line', async () => {
    const asked: string[] = [];
    const saved = openIndex(head, readerOf(parts, asked)) as SavedIndex;
    expect(saved.generation).toBe('000000001-a');
    expect(asked).toEqual([]);
    expect(await collect(saved)).toEqual([null, { kind: 'R', records: [record, { ...record, path: long }] }]);
    expect([...saved.manifest]).toEqual([[path, [5, 7]]]);
    expect(asked).toEqual(['000000001-a.0', '000000001-a.1']);
  });

  it.each([
    ['missing', [parts[0], null], /part 2 of 2 is missing/],
    ['short', [parts[0], parts[1].slice(0, -1)], /part 2 of 2 is cut/],
    ['longer', [parts[0] + '\n', parts[1]], /part 1 of 2 is cut/],
    ['garbled', [parts[0], parts[1].replace('["R"', '[{R"')], /JSON/],
    ['of an unknown kind', [parts[0], parts[1].replace('"R"', '"X"')], /unknown kind "X"/],
  ])('throws while iterating when a part is %s', async (_what, damaged, message) => {
    const saved = openIndex(head, readerOf(damaged)) as SavedIndex;
    await expect(collect(saved)).rejects.toThrow(message);
  });

  /** The saved parts of `engine`, with its first line starting with `start` replaced by `damage(line)`. */
  async function withLine(engine: LexicalEngine, start: string, damage: (line: string) => string): Promise<string[]> {
    const saved = await partsOf(engine);
    const at = saved.findIndex((part) => part.includes(`\n${start}`));
    const lines = saved[at].split('\n');
    const n = lines.findIndex((line) => line.startsWith(start));
    lines[n] = damage(lines[n]);
    return saved.map((part, i) => (i === at ? lines.join('\n') : part));
  }
  const load = async (saved: string[]): Promise<LexicalEngine> => (await loadParts(saved)).copy;

  const engine = engineOf(40, 30);

  it.each([
    [
      'term line: its JSON (terms and sizes), a tab, then its posting text',
      '["T",',
      /^\["T",\[\["[^\t]*\],\[[0-9,]+\]\]\]\t[A-Za-z0-9_-]+$/,
    ],
    [
      "phrase filter line: its JSON (each note's filter's length in words), a tab, then the words",
      '["P",',
      /^\["P",\[[0-9,]+\]\]\t[A-Za-z0-9_-]+$/,
    ],
  ])('has a %s, read back as saved', async (_what, start, layout) => {
    const line = (await withLine(engine, start, (l) => l))
      .join('\n')
      .split('\n')
      .find((l) => l.startsWith(start)) as string;
    expect(line).toMatch(layout);
    const copy = await load(await withLine(engine, start, (l) => l));
    expect(await partsOf(copy)).toEqual(await partsOf(engine));
  });

  describe('a term line', () => {
    const withTermLine = (damage: (line: string) => string): Promise<string[]> => withLine(engine, '["T",', damage);

    it.each([
      ['without its tab', (l: string) => l.replace('\t', ''), /term line without its postings/],
      ['in the old layout (format 7)', (l: string) => `${l.slice(0, l.indexOf('\t') - 2)},"${l.slice(l.indexOf('\t') + 1)}"]]`, /without/],
      ['with its JSON garbled', (l: string) => l.replace('["T",[[', '["T",[{'), /JSON/],
      ['with its JSON cut at a tab', (l: string) => l.replace('","', '"\t,"'), /JSON/],
      ['with a third payload item', (l: string) => l.replace(']]]\t', '],"x"]]\t'), /malformed term line/],
      ['with its posting text cut', (l: string) => l.slice(0, -1), /truncated posting line/],
      ['with its posting text longer', (l: string) => `${l}A`, /truncated posting line/],
      ['with a character outside base64url in its text', (l: string) => `${l.slice(0, -2)}=${l.slice(-1)}`, /damaged posting line/],
      ['with a tab in its text', (l: string) => `${l.slice(0, -2)}\t${l.slice(-1)}`, /damaged posting line/],
      ['with a line break in its text', (l: string) => `${l.slice(0, -2)}\n${l.slice(-1)}`, /truncated posting line/],
    ])('is damage %s', async (_what, damage, message) => {
      await expect(load(await withTermLine(damage))).rejects.toThrow(message);
    });
  });

  describe('a phrase filter line', () => {
    const withPhraseLine = (damage: (line: string) => string): Promise<string[]> => withLine(engine, '["P",', damage);

    it.each([
      ['without its tab', (l: string) => l.replace('\t', ''), /phrase filter line without its filters/],
      ['in the old layout (format 8)', (l: string) => `["P",["${l.slice(l.indexOf('\t') + 1)}"]]`, /without/],
      ['with its JSON garbled', (l: string) => l.replace('["P",[', '["P",{'), /JSON/],
      ['with a third item', (l: string) => l.replace(']]\t', '],"x"]\t'), /malformed phrase filter line/],
      ['with a size not a whole number', (l: string) => l.replace('["P",[', '["P",[0.5,'), /malformed phrase filter line/],
      ['with its words cut', (l: string) => l.slice(0, -1), /truncated phrase filter line/],
      ['with its words longer', (l: string) => `${l}A`, /truncated phrase filter line/],
      ['with a character outside base64url in its words', (l: string) => `${l.slice(0, -2)}=${l.slice(-1)}`, /damaged phrase filter/],
      ['with a character outside ASCII in its words', (l: string) => `${l.slice(0, -2)}\u00e9${l.slice(-1)}`, /damaged phrase filter/],
      ['with a line break in its words', (l: string) => `${l.slice(0, -2)}\n${l.slice(-1)}`, /truncated phrase filter line/],
    ])('is damage %s', async (_what, damage, message) => {
      await expect(load(await withPhraseLine(damage))).rejects.toThrow(message);
    });
  });

  it('refuses a head of another format, of a bad generation or part list, a format-6 file, or none', () => {
    const other = JSON.stringify({ format: INDEX_FORMAT - 1, generation: '000000001-a', parts: [] });
    expect(openIndex(other, readerOf([]))).toBeNull();
    for (const generation of ['../x', '', 'A-B', 7])
      expect(openIndex(JSON.stringify({ format: INDEX_FORMAT, generation, parts: [] }), readerOf([]))).toBeNull();
    for (const list of [[1.5], ['3'], null])
      expect(openIndex(JSON.stringify({ format: INDEX_FORMAT, generation: '000000001-a', parts: list }), readerOf([]))).toBeNull();
    expect(openIndex(`{"format":6}\n["M",[]]`, readerOf([]))).toBeNull();
    expect(openIndex('', readerOf([]))).toBeNull();
    expect(openIndex('["M",[]]', readerOf([]))).toBeNull();
  });

  it('tells a head or file of another format version from damage', () => {
    expect(isOtherIndexFormat(`{"format":${INDEX_FORMAT + 1}}\n`)).toBe(true);
    expect(isOtherIndexFormat(`{"format":6}\n["M",[]]`)).toBe(true);
    expect(isOtherIndexFormat(indexHead('000000001-a', [3]))).toBe(false);
    expect(isOtherIndexFormat('garbage')).toBe(false);
  });
});
