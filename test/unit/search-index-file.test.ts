import { fileChunks } from '../../src/search/engine/index-file';

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
