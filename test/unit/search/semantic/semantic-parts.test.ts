import { chunkNote, CHARS_PER_TOKEN } from '../../../../src/search/semantic/chunker';
import { VectorStore } from '../../../../src/search/semantic/vector-store';
import { decodeSemanticIndex, encodeSemanticIndex } from '../../../../src/search/semantic/store-file';
import { fuseByRank, RRF_K } from '../../../../src/search/hybrid/fusion';
import { fallbackNote, unusableReason } from '../../../../src/search/hybrid/mode-search';
import { semanticStatusText } from '../../../../src/ui/semantic-status-bar';
import { buildOutline, withPreamble } from '../../../../src/vault/content/sections';
import { seededRandom } from '../../../harness/seeded-random';
import { PluginFile } from '../../../../src/vault/plugin-files/plugin-file';
import { SEMANTIC_INDEX_FILE } from '../../../../src/search/semantic/store-file';
import { migrateSettings } from '../../../../src/settings/migrate-settings';
import { openDemoVault } from '../../../harness/vault-fixture';

/** The outline of `text` as the metadata cache would give it (ATX headings only). */
function sectionsOf(text: string) {
  const headings = [...text.matchAll(/^(#{1,6}) (.*)$/gm)].map((m) => ({
    heading: m[2],
    level: m[1].length,
    position: { start: { line: 0, col: 0, offset: m.index! }, end: { line: 0, col: 0, offset: m.index! + m[0].length } },
  }));
  return withPreamble(buildOutline(headings, text.length), text);
}

describe('chunkNote', () => {
  const text =
    '---\ntags: [x]\n---\nIntro line.\n\n# Guide\n\nTop text.\n\n## Setup\n\nInstall it.\n\n### Linux\n\nUse apt.\n\n## Empty\n\n## Use\n\nRun it.\n';

  it('gives one chunk per non-empty section with title and heading path, skipping frontmatter', () => {
    const chunks = chunkNote({ title: 'Tool', text, sections: sectionsOf(text) })!;
    expect(chunks.map((c) => [c.section, c.heading])).toEqual([
      ['0', '(preamble)'],
      ['1', 'Guide'],
      ['1.1', 'Setup'],
      ['1.1.1', 'Linux'],
      ['1.2', 'Empty'],
      ['1.3', 'Use'],
    ]);
    expect(chunks[0].input).toBe('Tool\n\nIntro line.');
    expect(chunks[3].input).toBe('Tool\nGuide > Setup > Linux\n\n### Linux\n\nUse apt.');
    expect(text.slice(chunks[3].start).startsWith('### Linux')).toBe(true);
    expect(chunks.every((c) => !c.input.includes('tags: [x]'))).toBe(true);
    expect(new Set(chunks.map((c) => c.hash)).size).toBe(chunks.length);
  });

  it('says the title once when the top heading repeats it', () => {
    const t = '# Tool\n\n## Setup\n\nInstall.\n';
    expect(chunkNote({ title: 'Tool', text: t, sections: sectionsOf(t) })![1].input).toBe('Tool\nSetup\n\n## Setup\n\nInstall.');
  });

  it('splits a long section at paragraph boundaries within the token bound (chars / 4)', () => {
    const para = (i: number) => `Paragraph ${i} ` + 'word '.repeat(60).trim();
    const long = `# Long\n\n${Array.from({ length: 12 }, (_, i) => para(i)).join('\n\n')}\n`;
    const chunks = chunkNote({ title: 'L', text: long, sections: sectionsOf(long) }, 128)!;
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.input.length).toBeLessThanOrEqual(128 * CHARS_PER_TOKEN);
      expect(c.section).toBe('1');
      expect(c.input.startsWith('L\nLong\n\n')).toBe(true);
    }
    expect(chunks[1].input.slice('L\nLong\n\n'.length)).toMatch(/^Paragraph \d+ word/);
  });

  it('a section with no space to cut at is cut between grapheme clusters: no chunk holds a lone surrogate or half an emoji', () => {
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    // 𠮷 is two UTF-16 units; 👩‍💻 five: the raw char bound falls inside them at many offsets.
    for (const run of ['𠮷野家'.repeat(400), '😀👩‍💻'.repeat(300), 'é'.normalize('NFD').repeat(700)]) {
      const text = `# Run\n\n${run}\n`;
      const chunks = chunkNote({ title: 'R', text, sections: sectionsOf(text) }, 128)!;
      expect(chunks.length).toBeGreaterThan(2);
      const bodies = chunks.map((c) => c.input.slice('R\nRun\n\n'.length));
      for (const body of bodies) {
        expect(body).not.toMatch(lone);
        expect(body).not.toMatch(/^[\u0301\u200d]/);
        expect(body).not.toMatch(/\u200d$/);
      }
      expect(bodies.join('').replace(/^# Run\s*/, '')).toBe(run);
    }
  });

  it('a note without body text is one title-only chunk; an outline that does not fit the text is null', () => {
    expect(chunkNote({ title: 'Empty', text: '', sections: [] })).toEqual([
      { section: null, heading: null, input: 'Empty', start: 0, hash: expect.any(String) },
    ]);
    const stale = sectionsOf('# A\n\ntext\n\n## B\n\nmore\n');
    expect(chunkNote({ title: 'A', text: 'changed text without those headings at those offsets', sections: stale })).toBeNull();
  });
});

describe('VectorStore', () => {
  const random = seededRandom(7);
  const vec = (d: number) => Float32Array.from({ length: d }, () => random() * 2 - 1);
  const cosine = (a: Float32Array, b: Float32Array) => {
    let dot = 0,
      na = 0,
      nb = 0;
    for (let i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  };
  const record = (path: string, i: number) => ({ path, section: String(i), heading: `H${i}`, start: i * 10, hash: `h${path}${i}` });

  it('exact cosine search over int8 vectors agrees with float cosine, filtered by path', () => {
    const store = new VectorStore('m');
    const vectors = new Map<string, Float32Array>();
    for (let n = 0; n < 50; n++) {
      const path = `n${n}.md`;
      const entries = [0, 1].map((i) => {
        const v = vec(64);
        vectors.set(`${path}#${i}`, v);
        return { record: record(path, i), vector: v };
      });
      store.setNote(path, entries);
    }
    const q = vec(64);
    const exact = [...vectors].map(([k, v]) => ({ k, s: cosine(q, v) })).sort((a, b) => b.s - a.s);
    const found = store.nearest(q, 5, () => true);
    expect(found).toHaveLength(5);
    expect(`${found[0].path}#${found[0].section}`).toBe(exact[0].k);
    for (const f of found) expect(f.score).toBeCloseTo(cosine(q, vectors.get(`${f.path}#${f.section}`)!), 1);
    const odd = store.nearest(q, 100, (p) => Number(p.slice(1, -3)) % 2 === 1);
    expect(odd.every((f) => Number(f.path.slice(1, -3)) % 2 === 1)).toBe(true);
    expect(odd).toHaveLength(50);
  });

  it("replaces, removes and renames a note's rows, reuses stored vectors, and refuses another dimension", () => {
    const store = new VectorStore('m');
    store.setNote('a.md', [
      { record: record('a.md', 0), vector: vec(8) },
      { record: record('a.md', 1), vector: vec(8) },
    ]);
    store.setNote('b.md', [{ record: record('b.md', 0), vector: vec(8) }]);
    const kept = store.vectorsOf('a.md');
    store.removeNote('a.md');
    expect(store.size).toBe(1);
    store.setNote(
      'c.md',
      [...kept.values()].map((v, i) => ({ record: { ...record('c.md', i), hash: v.hash }, vector: v })),
    );
    store.renameNote('b.md', 'd.md');
    expect([...store.paths()].sort()).toEqual(['c.md', 'd.md']);
    expect(
      store
        .nearest(vec(8), 10, () => true)
        .map((f) => f.path)
        .sort(),
    ).toEqual(['c.md', 'c.md', 'd.md']);
    expect(() => store.setNote('e.md', [{ record: record('e.md', 0), vector: vec(9) }])).toThrow(/dimension 8/);
  });

  it('round-trips through the binary file; damaged or foreign bytes are null', async () => {
    const store = new VectorStore('nomic-embed-text');
    store.setNote('x/é.md', [
      { record: record('x/é.md', 0), vector: vec(16) },
      { record: { ...record('x/é.md', 1), section: null, heading: null }, vector: vec(16) },
    ]);
    const stamps = new Map([['x/é.md', [123, 456] as [number, number]]]);
    const bytes = await encodeSemanticIndex(store, stamps);
    const back = (await decodeSemanticIndex(bytes))!;
    expect(back.store.model).toBe('nomic-embed-text');
    expect(back.store.dim).toBe(16);
    expect(back.stamps).toEqual(stamps);
    const q = vec(16);
    expect(back.store.nearest(q, 2, () => true)).toEqual(store.nearest(q, 2, () => true));
    expect(await decodeSemanticIndex(bytes.slice(0, bytes.byteLength - 1))).toBeNull();
    expect(await decodeSemanticIndex(new TextEncoder().encode('{"not":"ours"}').buffer)).toBeNull();
  });
});

describe('hybrid fusion and fallback wording', () => {
  it('fuses by reciprocal rank and remembers which lists held each key', () => {
    const fused = fuseByRank([
      ['a', 'b', 'c'],
      ['c', 'd', 'a'],
    ]);
    expect(fused.map((f) => f.key)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]).toEqual({ key: 'a', score: 1 / (RRF_K + 1) + 1 / (RRF_K + 3), lists: [0, 1] });
    expect(fused.find((f) => f.key === 'd')!.lists).toEqual([1]);
  });

  it('names the reason: off, building with its percentage, paused', () => {
    expect(unusableReason(null)).toMatch(/turn on "Index for semantic search"/);
    expect(unusableReason({ state: 'building', indexed: 40, total: 100 })).toBe('the semantic index is being built (40 %)');
    expect(unusableReason({ state: 'paused', reason: 'the embedding provider is unreachable', indexed: 1, total: 2 })).toBe(
      'the embedding provider is unreachable',
    );
    expect(unusableReason({ state: 'ready', notes: 1, chunks: 2 })).toBeNull();
    expect(fallbackNote('x')).toBe('Semantic ranking unavailable (x); lexical results only.');
    expect(semanticStatusText({ state: 'building', indexed: 2, total: 5 })).toBe('Semantic index 40 %');
    expect(semanticStatusText({ state: 'ready', notes: 1, chunks: 1 })).toBe('');
  });
});

describe('binary plugin file and settings migration', () => {
  it('writes bytes through a temp copy and finishes an interrupted swap on read', async () => {
    const vault = await openDemoVault();
    try {
      const file = new PluginFile(vault.app.vault.adapter, '.obsidian/plugins/vault-mcp', SEMANTIC_INDEX_FILE);
      expect(await file.readBinary()).toBeNull();
      await file.writeBinary(Uint8Array.from([1, 2, 3]).buffer);
      expect(Array.from(new Uint8Array((await file.readBinary())!))).toEqual([1, 2, 3]);
      // A crash after the old file was removed but before the temp copy was renamed: the temp copy is the file.
      await vault.app.vault.adapter.writeBinary(`${file.path}.tmp`, Uint8Array.from([9]).buffer);
      await vault.app.vault.adapter.remove(file.path);
      expect(Array.from(new Uint8Array((await file.readBinary())!))).toEqual([9]);
    } finally {
      await vault.close();
    }
  });

  it('fills the new AI fields of an older data.json and repairs wrong types', () => {
    const old = migrateSettings({ schemaVersion: 1, ai: { enabled: true, model: 'llama3.2', usage: { inputTokens: 3, outputTokens: 4 } } });
    expect(old.ai).toMatchObject({
      enabled: true,
      model: 'llama3.2',
      embeddingModel: '',
      semanticIndex: false,
      usage: { inputTokens: 3, outputTokens: 4 },
    });
    const bad = migrateSettings({ ai: { embeddingModel: 42, semanticIndex: 'yes' } });
    expect(bad.ai).toMatchObject({ embeddingModel: '', semanticIndex: false });
  });
});
