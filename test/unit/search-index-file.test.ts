import { fileChunks, INDEX_FORMAT, isOtherIndexFormat, openIndex } from '../../src/search/engine/index-file';

describe('saved index file chunks', () => {
  it('concatenate to the lines joined by line breaks, each chunk about 1 MB and ending at a line break', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `["T",["term${i}","${'A'.repeat(100_000 + i)}"]]`);
    const chunks = [...fileChunks(lines)];
    expect(chunks.join('')).toBe(lines.join('\n'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.endsWith('\n')).toBe(true);
      expect(chunk.length).toBeLessThan((1 << 20) + 110_000);
    }
    expect(chunks[chunks.length - 1].endsWith('\n')).toBe(false);
  });

  it('give one chunk for a single line, and none for no lines', () => {
    expect([...fileChunks(['{"format":5}'])]).toEqual(['{"format":5}']);
    expect([...fileChunks([])]).toEqual([]);
  });
});

describe('opening a saved index', () => {
  it('reads each line: characters outside ASCII, lines of any length, the manifest filled as it goes, one null per manifest line', () => {
    const path = 'Déjà vu €/𝄞 note.md';
    const record = { path, id: `path:${path}`, title: 'Déjà 𝄞', tags: ['ü'], frontmatter: {} };
    const long = 'x'.repeat(300_000);
    const text = [
      JSON.stringify({ format: INDEX_FORMAT }),
      JSON.stringify(['M', [[path, 5, 7]]]),
      JSON.stringify(['R', [record, { ...record, path: long }]]),
    ].join('\n');
    const saved = openIndex(text);
    expect(saved).not.toBeNull();
    const lines = [...(saved as NonNullable<typeof saved>).lines()];
    // The manifest line is taken in, and stands as a null among the engine's lines (a caller pauses after it too).
    expect(lines).toEqual([null, { kind: 'R', records: [record, { ...record, path: long }] }]);
    expect([...(saved as NonNullable<typeof saved>).manifest]).toEqual([[path, [5, 7]]]);
  });

  it('refuses a header of another format, one longer than 200 characters, or none; a header alone has no lines', () => {
    expect(openIndex(`{"format":${INDEX_FORMAT - 1}}\n["M",[]]`)).toBeNull();
    expect(openIndex(`{"format":${INDEX_FORMAT},"pad":"${'p'.repeat(200)}"}\n["M",[]]`)).toBeNull();
    expect(openIndex('')).toBeNull();
    expect(openIndex('["M",[]]')).toBeNull();
    const alone = openIndex(`{"format":${INDEX_FORMAT}}`);
    expect(alone === null ? null : [...alone.lines()]).toEqual([]);
  });

  it('tells a file of another format version from damage', () => {
    expect(isOtherIndexFormat(`{"format":${INDEX_FORMAT + 1}}\n`)).toBe(true);
    expect(isOtherIndexFormat(`{"format":${INDEX_FORMAT}}\n`)).toBe(false);
    expect(isOtherIndexFormat('garbage')).toBe(false);
  });
});
