import { Slicer } from '../../../../src/search/engine/slicer';
import { nearestBySigns, packSigns, signWords } from '../../../../src/search/semantic/sign-bits';
import { decodeSemanticIndex, encodeSemanticIndex } from '../../../../src/search/semantic/store-file';
import { AdmittedRowsCache } from '../../../../src/search/semantic/admitted-rows';
import { RERANK_POOL, VectorStore, type ScoredChunk } from '../../../../src/search/semantic/vector-store';
import { seededRandom } from '../../../harness/seeded-random';

const random = seededRandom(20);
const gauss = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const vec = (d: number): Float32Array => Float32Array.from({ length: d }, gauss);
/** `v` plus noise of size `noise` per dimension: a near neighbour of `v`. */
const near = (v: Float32Array, noise: number): Float32Array => v.map((x) => x + noise * gauss());
const record = (path: string) => ({ path, section: '1', heading: 'H', start: 0, hash: `h-${path}` });
const keys = (found: ScoredChunk[]): string[] => found.map((c) => c.path);

/** A store with one chunk per note `n<i>.md`, vectors from `make(i)`. */
function storeOf(count: number, make: (i: number) => Float32Array, model = 'm'): VectorStore {
  const store = new VectorStore(model);
  for (let i = 0; i < count; i++) store.setNote(`n${i}.md`, [{ record: record(`n${i}.md`), vector: make(i) }]);
  return store;
}

describe('sign prefilter', () => {
  it('packs one bit per dimension, set where the value is positive', () => {
    const out = new Uint32Array(2);
    const values = Int8Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 5 : i % 3 === 1 ? -5 : 0));
    packSigns(values, 0, 40, out, 0);
    for (let i = 0; i < 40; i++) expect((out[i >> 5] >>> (i & 31)) & 1).toBe(i % 3 === 0 ? 1 : 0);
    expect(signWords(768)).toBe(24);
    expect(signWords(40)).toBe(2);
  });

  it('keeps the rows scoring best against the query, hidden rows never, ties at the cut-off in row order', () => {
    const dim = 8;
    const rows = [
      [1, 1, 1, 1, 1, 1, 1, 1], // all positive: the best for an all-positive query
      [1, 1, 1, 1, -1, -1, -1, -1],
      [1, 1, 1, 1, 1, 1, 1, 1], // hidden
      [-1, -1, -1, -1, 1, 1, 1, 1], // ties with row 1
      [-1, -1, -1, -1, -1, -1, -1, -1],
    ];
    const signs = new Uint32Array(rows.length);
    rows.forEach((r, i) => packSigns(Int8Array.from(r), 0, dim, signs, i));
    const admitted = Uint8Array.from([1, 1, 0, 1, 1]);
    const query = new Float32Array(dim).fill(1);
    expect([...nearestBySigns(signs, 1, query, admitted, rows.length, 2)]).toEqual([0, 1]);
    expect([...nearestBySigns(signs, 1, query, admitted, rows.length, 3)]).toEqual([0, 1, 3]);
    expect([...nearestBySigns(signs, 1, query, admitted, rows.length, 99)]).toEqual([0, 1, 3, 4]);
    expect([...nearestBySigns(signs, 1, query, admitted, rows.length, 0)]).toEqual([]);
  });

  it('picks the same pool as scoring one row at a time, for odd and even row counts and any hidden rows', () => {
    const dim = 70; // 3 words, the last one partly used
    const words = signWords(dim);
    /** The prefilter score of each admitted row, one row per pass: Σ q[i] for set bits, − Σ q[i] otherwise (same order as 2·that − Σ q). */
    const reference = (signs: Uint32Array, query: Float32Array, admitted: Uint8Array, rows: number, pool: number): number[] => {
      const scored: Array<[number, number]> = [];
      for (let row = 0; row < rows; row++) {
        if (admitted[row] === 0) continue;
        let sum = 0;
        for (let i = 0; i < dim; i++) sum += ((signs[row * words + (i >> 5)] >>> (i & 31)) & 1) === 1 ? query[i] : -query[i];
        scored.push([row, sum]);
      }
      scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      return scored
        .slice(0, pool)
        .map(([row]) => row)
        .sort((a, b) => a - b);
    };
    for (const rows of [1, 2, 7, 64, 65]) {
      const values = Int8Array.from({ length: rows * dim }, () => Math.round(gauss() * 40));
      const signs = new Uint32Array(rows * words);
      for (let row = 0; row < rows; row++) packSigns(values, row * dim, dim, signs, row * words);
      // Query values are multiples of 1/8 with few bits, so both ways of summing are exact and give equal scores and ties.
      const query = Float32Array.from({ length: dim }, () => Math.round(gauss() * 8) / 8);
      for (const hiddenShare of [0, 0.5, 1]) {
        const admitted = Uint8Array.from({ length: rows }, () => (random() < hiddenShare ? 0 : 1));
        for (const pool of [1, 3, rows]) {
          expect([...nearestBySigns(signs, words, query, admitted, rows, pool)]).toEqual(reference(signs, query, admitted, rows, pool));
        }
      }
    }
  });
});

describe('two-stage vector search', () => {
  const dim = 64;

  it('equals the exact scan when the nearest rows stand out, after removals and renames too', () => {
    const q = vec(dim);
    // 10 near neighbours of the query among 990 unrelated vectors.
    const store = storeOf(1000, (i) => (i % 100 === 7 ? near(q, 0.3) : vec(dim)));
    const exact = store.nearest(q, 10, () => true, Infinity);
    expect(store.nearest(q, 10, () => true, 50)).toEqual(exact);
    expect(keys(exact).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `n${i * 100 + 7}.md`).sort());
    // Removing rows moves the last rows into their places; their sign patterns must move along.
    for (let i = 0; i < 1000; i += 3) if (i % 100 !== 7) store.removeNote(`n${i}.md`);
    store.renameNote('n107.md', 'renamed.md');
    const after = store.nearest(q, 10, () => true, Infinity);
    expect(keys(after)).toContain('renamed.md');
    expect(store.nearest(q, 10, () => true, 50)).toEqual(after);
  });

  it('finds at least 95% of the exact top 10 on seeded clustered vectors with a pool of 6% of the rows', () => {
    const mean = vec(dim);
    const centres = Array.from({ length: 100 }, () => vec(dim));
    const draw = (): Float32Array => {
      const c = centres[Math.floor(random() * centres.length)];
      return Float32Array.from({ length: dim }, (_, i) => 0.8 * mean[i] + c[i] + 0.9 * gauss());
    };
    const store = storeOf(5000, draw);
    let found = 0;
    const queries = 30;
    for (let n = 0; n < queries; n++) {
      const q = draw();
      const truth = new Set(keys(store.nearest(q, 10, () => true, Infinity)));
      found += store.nearest(q, 10, () => true, 300).filter((c) => truth.has(c.path)).length;
    }
    expect(found / (10 * queries)).toBeGreaterThanOrEqual(0.95);
  });

  it("never returns a hidden note's chunks, and hidden chunks do not change what a caller sees", () => {
    const q = vec(dim);
    const visible = Array.from({ length: 800 }, () => vec(dim));
    // The hidden notes are the query's nearest neighbours: they would take every place if seen.
    const hidden = Array.from({ length: 200 }, () => near(q, 0.2));
    const all = new VectorStore('m');
    const only = new VectorStore('m');
    visible.forEach((v, i) => {
      all.setNote(`v${i}.md`, [{ record: record(`v${i}.md`), vector: v }]);
      only.setNote(`v${i}.md`, [{ record: record(`v${i}.md`), vector: v }]);
      if (i < hidden.length) all.setNote(`private/h${i}.md`, [{ record: record(`private/h${i}.md`), vector: hidden[i] }]);
    });
    const canSee = (path: string): boolean => !path.startsWith('private/');
    for (const pool of [50, RERANK_POOL, Infinity]) {
      const seen = all.nearest(q, 20, canSee, pool);
      expect(seen).toHaveLength(20);
      expect(seen.every((c) => canSee(c.path))).toBe(true);
      expect(seen).toEqual(only.nearest(q, 20, () => true, pool));
    }
    expect(all.nearest(q, 20, () => true, 50).every((c) => c.path.startsWith('private/'))).toBe(true);
  });

  it('returns nothing for a query of another length, k ≤ 0 or an empty store', () => {
    const store = storeOf(10, () => vec(dim));
    expect(store.nearest(vec(dim + 1), 5, () => true)).toEqual([]);
    expect(store.nearest(vec(dim), 0, () => true)).toEqual([]);
    expect(new VectorStore('m').nearest(vec(dim), 5, () => true)).toEqual([]);
  });
});

describe('the semantic index file, saved and loaded in slices', () => {
  const dim = 32;
  /** A slicer that yields at every pause: every step of a save or load runs on its own event-loop turn. */
  const everyTurn = (): Slicer => new Slicer(0);
  /**
   * {@link everyTurn} that first runs `atPause` with the pause's number at each pause: the store changes while a save is
   * under way at a known step (a timer raced the save's turns, and a quick save finished before it fired).
   */
  const changingAt = (atPause: (n: number) => void): Slicer => {
    const slicer = everyTurn();
    const pause = slicer.pause.bind(slicer);
    let n = 0;
    slicer.pause = async () => {
      atPause(n++);
      return pause();
    };
    return slicer;
  };

  it('round-trips across many event-loop turns: records, stamps, vectors and the sign prefilter', async () => {
    const store = new VectorStore('nomic-embed-text');
    const stamps = new Map<string, [number, number]>();
    for (let i = 0; i < 5000; i++) {
      const path = `folder ${i % 7}/é ${i}.md`;
      store.setNote(path, [
        { record: { path, section: '1', heading: 'Intro "quoted"', start: 3, hash: `a${i}` }, vector: vec(dim) },
        { record: { path, section: null, heading: null, start: 0, hash: `b${i}` }, vector: vec(dim) },
      ]);
      stamps.set(path, [i, i * 2]);
    }
    const saving = everyTurn();
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const bytes = await encodeSemanticIndex(store, stamps, saving);
    const back = (await decodeSemanticIndex(bytes, everyTurn()))!;
    clearInterval(counting);
    expect(turns).toBeGreaterThan(2);
    expect(back.store.model).toBe('nomic-embed-text');
    expect(back.store.size).toBe(10_000);
    expect(back.stamps).toEqual(stamps);
    expect(back.store.vectorsOf('folder 3/é 3.md')).toEqual(store.vectorsOf('folder 3/é 3.md'));
    for (let n = 0; n < 5; n++) {
      const q = vec(dim);
      expect(back.store.nearest(q, 10, () => true, 200)).toEqual(store.nearest(q, 10, () => true, 200));
    }
    // The loaded store takes new notes (its arrays grow past the file's).
    back.store.setNote('new.md', [{ record: record('new.md'), vector: vec(dim) }]);
    expect(back.store.size).toBe(10_001);
  });

  it('saves the state the store reached when it changed during the save', async () => {
    const store = storeOf(3000, () => vec(dim));
    const saving = encodeSemanticIndex(
      store,
      new Map(),
      changingAt((n) => n === 0 && store.removeNote('n5.md')),
    );
    const back = (await decodeSemanticIndex(await saving))!;
    expect(back.store.size).toBe(2999);
    expect(back.store.has('n5.md')).toBe(false);
    const q = vec(dim);
    expect(back.store.nearest(q, 5, () => true)).toEqual(store.nearest(q, 5, () => true));
  });

  it('gives up with a clear error when the store changes during every try', async () => {
    const store = storeOf(3000, () => vec(dim));
    const churn = changingAt((n) => store.setNote(`churn${n}.md`, [{ record: record('c.md'), vector: vec(dim) }]));
    await expect(encodeSemanticIndex(store, new Map(), churn)).rejects.toThrow(/changed during 3 saves in a row/);
  });

  it('reads an old-format, damaged or foreign file as null so the index is rebuilt', async () => {
    const store = storeOf(50, () => vec(dim));
    const bytes = await encodeSemanticIndex(store, new Map([['n1.md', [1, 2]]]));
    expect(await decodeSemanticIndex(bytes)).not.toBeNull();
    // Format 1: the same magic, one JSON header holding every row, then the vectors.
    const header = new TextEncoder().encode(
      JSON.stringify({ model: 'm', dim, paths: ['n0.md'], stamps: [], rows: [[0, '1', 'H', 0, 'h']] }),
    );
    const padded = Math.ceil(header.length / 4) * 4;
    const old = new ArrayBuffer(12 + padded + 4 + dim);
    new DataView(old).setUint32(0, 0x564d5345, true);
    new DataView(old).setUint32(4, 1, true);
    new DataView(old).setUint32(8, header.length, true);
    new Uint8Array(old, 12).set(header);
    expect(await decodeSemanticIndex(old)).toBeNull();
    expect(await decodeSemanticIndex(bytes.slice(0, bytes.byteLength - 1))).toBeNull();
    expect(await decodeSemanticIndex(new TextEncoder().encode('{"not":"ours"}').buffer)).toBeNull();
    expect(await decodeSemanticIndex(new ArrayBuffer(0))).toBeNull();
    // A byte of the text parts flipped: bad JSON or bad UTF-8, never a misread store.
    const text = new Uint8Array(bytes.slice(0));
    const headerLength = new DataView(bytes).getUint32(8, true);
    text[12 + headerLength + 3] = 0xff;
    expect(await decodeSemanticIndex(text.buffer)).toBeNull();
    // A header whose parts do not add up to the file.
    const lying = new Uint8Array(bytes.slice(0));
    const json = new TextDecoder().decode(lying.subarray(12, 12 + headerLength)).replace('"rows":50', '"rows":51');
    lying.set(new TextEncoder().encode(json), 12);
    expect(await decodeSemanticIndex(lying.buffer)).toBeNull();
  });
});

describe('admitted rows', () => {
  const dim = 16;

  it('answers as the path filter does, and refuses rows of an earlier revision', () => {
    const store = storeOf(50, () => vec(dim));
    const q = vec(dim);
    const even = (path: string): boolean => Number(/\d+/.exec(path)![0]) % 2 === 0;
    const rows = store.admittedRows(even);
    expect(rows.count).toBe(25);
    expect(store.nearest(q, 10, rows)).toEqual(store.nearest(q, 10, even));
    expect(store.nearest(q, 10, rows, 5)).toEqual(store.nearest(q, 10, even, 5));
    store.removeNote('n3.md');
    expect(() => store.nearest(q, 10, rows)).toThrow(/revision .* build them again/);
  });

  it('are kept per scope until the store or the access changes, then built again', () => {
    const store = storeOf(20, () => vec(dim));
    const cache = new AdmittedRowsCache();
    let asked = 0;
    const all = (): boolean => (asked++, true);
    const first = cache.rowsFor(store, 'a', all);
    expect(asked).toBe(20);
    expect(cache.rowsFor(store, 'a', all)).toBe(first);
    expect(asked).toBe(20);
    expect(cache.rowsFor(store, 'b', all)).not.toBe(first);
    cache.accessChanged();
    expect(cache.rowsFor(store, 'a', all)).not.toBe(first);
    expect(asked).toBe(60);
    store.removeNote('n1.md');
    expect(cache.rowsFor(store, 'a', all).count).toBe(19);
    const other = storeOf(3, () => vec(dim));
    expect(cache.rowsFor(other, 'a', all).count).toBe(3);
    // At most 8 scopes are kept: the least recently used goes first.
    for (let i = 0; i < 8; i++) cache.rowsFor(other, `s${i}`, all);
    const before = asked;
    cache.rowsFor(other, 'a', all);
    expect(asked).toBe(before + 3);
  });
});
