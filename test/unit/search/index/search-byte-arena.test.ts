import fc from 'fast-check';
import { ByteArena } from '../../../../src/search/engine/postings/byte-arena';

describe('ByteArena', () => {
  it('keeps every list whole through growths in any order, in regions of 2^k bytes that no two lists share', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(7), fc.integer({ min: 1, max: 3_000 })), { minLength: 1, maxLength: 40 }), (growths) => {
        const arena = new ByteArena();
        const lists: { bytes: Uint8Array; used: number }[] = Array.from({ length: 8 }, () => ({ bytes: new Uint8Array(0), used: 0 }));
        growths.forEach(([k, more], step) => {
          const list = lists[k];
          list.bytes = arena.grow(list.bytes, list.used + more);
          // Write this step's mark into the bytes the list now holds beyond its old length.
          list.bytes.fill(step % 251, list.used, list.used + more);
          list.used += more;
          expect(Math.log2(list.bytes.length) % 1).toBe(0);
          expect(list.bytes.length).toBeGreaterThanOrEqual(list.used);
          for (const other of lists) {
            if (other === list || other.bytes.length === 0 || other.bytes.buffer !== list.bytes.buffer) continue;
            const apart =
              other.bytes.byteOffset + other.bytes.length <= list.bytes.byteOffset ||
              list.bytes.byteOffset + list.bytes.length <= other.bytes.byteOffset;
            expect(apart).toBe(true);
          }
        });
        // Each list still holds its own marks in order: the first byte that differs, if any, is reported.
        const at = lists.map(() => 0);
        const wrong: string[] = [];
        growths.forEach(([k, more], step) => {
          for (let i = 0; i < more; i++)
            if (lists[k].bytes[at[k] + i] !== step % 251 && wrong.length === 0) wrong.push(`list ${k} byte ${at[k] + i}`);
          at[k] += more;
        });
        expect(wrong).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('hands a freed region to the next list of its size, and gives lists above 256 KB arrays of their own', () => {
    const arena = new ByteArena();
    const first = arena.grow(new Uint8Array(0), 100);
    expect(first.length).toBe(128);
    expect(arena.holds(first)).toBe(true);
    const grown = arena.grow(first, 129);
    expect(grown.length).toBe(256);
    expect(arena.grow(new Uint8Array(0), 128)).toBe(first);
    const big = arena.grow(new Uint8Array(0), (1 << 18) + 1);
    expect(big.length).toBe(1 << 19);
    expect(arena.holds(big)).toBe(false);
    expect(arena.holds(new Uint8Array(16))).toBe(false);
  });

  it('carves regions past a page without overlap, the rest of a full page reused in smaller pieces', () => {
    const arena = new ByteArena();
    // 48 KB regions then 300 KB would not fit after 21 of them: the page's rest is split, later small lists take it.
    const regions = [
      ...Array.from({ length: 21 }, () => arena.grow(new Uint8Array(0), 48 * 1024)),
      arena.grow(new Uint8Array(0), 200 * 1024),
      ...Array.from({ length: 40 }, () => arena.grow(new Uint8Array(0), 5000)),
    ];
    regions.forEach((r, k) => r.fill(k));
    regions.forEach((r, k) => expect(r.every((b) => b === k)).toBe(true));
    expect(new Set(regions.map((r) => r.buffer)).size).toBeGreaterThan(1);
  });
});
