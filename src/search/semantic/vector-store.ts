/**
 * The embedding vectors of the semantic index, int8-quantized in one growing typed array:
 * each vector is L2-normalized, then stored as `round(x / scale)` with its own
 * `scale = max|x| / 127`, so cosine similarity with a normalized query `q` is
 * `scale · Σ q[i]·v[i]` (one pass over 1 byte per dimension, a quarter of Float32's memory;
 * rank changes from the rounding are rare and only between near-equal scores).
 *
 * Search is two-stage once more rows are admitted than the pool holds (the larger of
 * {@link RERANK_POOL} and 16 × k): every row's sign pattern (sign-bits.ts, 1 bit per dimension)
 * is scored against the float query by table look-ups, and only the best rows by that score,
 * the pool, are scored exactly on their int8 values. The pool is large enough that the exact
 * top 10 is nearly always inside it (recall@10 against exact search is printed by `npm run
 * bench`); smaller stores are scanned exactly. Rows a caller may not see are in neither stage,
 * so they never change what it gets.
 */
import { nearestBySigns, packSigns, signWords } from './sign-bits';

/** What a stored vector belongs to. */
export interface ChunkRecord {
  path: string;
  /** Outline path of the chunk's section; null for a title-only chunk. */
  section: string | null;
  heading: string | null;
  /** Offset of the chunk's text in the note (for the snippet). */
  start: number;
  /** Content hash of the embedded input (chunker.ts), shortened to 16 hex chars. */
  hash: string;
}

/** One scored chunk from {@link VectorStore.nearest}. */
export interface ScoredChunk extends ChunkRecord {
  /** Cosine similarity, −1…1. */
  score: number;
}

/** The rows of a {@link VectorStore} one caller may see (see VectorStore.admittedRows). */
export interface AdmittedRows {
  /** 1 for each row that may be returned, by row number. */
  mask: Uint8Array;
  /** How many rows `mask` admits. */
  count: number;
  /** The store's {@link VectorStore.revision} they were built at. */
  revision: number;
}

/** A vector of a row, to re-insert without embedding again (see {@link VectorStore.vectorsOf}). */
export interface StoredVector {
  hash: string;
  scale: number;
  values: Int8Array;
}

const INITIAL_ROWS = 256;
/**
 * Rows scored exactly after the sign prefilter (at least; `k × 16` when that is more). Measured
 * with `npm run bench` on clustered vectors at 100k × 768: see the vector-scale section there.
 */
export const RERANK_POOL = 3000;

/** In-memory vectors with their chunk records; rows of one note are replaced together. */
export class VectorStore {
  private records: ChunkRecord[] = [];
  private scales = new Float32Array(INITIAL_ROWS);
  private values = new Int8Array(0);
  /** Sign pattern per row, {@link signWords}(dim) words each. */
  private signs = new Uint32Array(0);
  /** Counts every change of rows, so a save spread over several event-loop turns can tell it saw one state. */
  private changes = 0;
  /** Row numbers per note path. */
  private readonly rowsByPath = new Map<string, number[]>();
  private dimension = 0;

  /** @param model the embedding model the vectors came from */
  constructor(readonly model: string) {}

  /** Vector length; 0 while empty. */
  get dim(): number {
    return this.dimension;
  }

  /** Stored chunks. */
  get size(): number {
    return this.records.length;
  }

  /** Changes of rows so far (any setNote, removeNote, renameNote or restore adds one). */
  get revision(): number {
    return this.changes;
  }

  /** Paths of the notes with stored chunks. */
  paths(): IterableIterator<string> {
    return this.rowsByPath.keys();
  }

  /** True when the note has stored chunks. */
  has(path: string): boolean {
    return this.rowsByPath.has(path);
  }

  /** The quantized vectors of a note's chunks, by content hash, to reuse when it is re-chunked. */
  vectorsOf(path: string): Map<string, StoredVector> {
    const out = new Map<string, StoredVector>();
    for (const row of this.rowsByPath.get(path) ?? []) {
      const d = this.dimension;
      out.set(this.records[row].hash, {
        hash: this.records[row].hash,
        scale: this.scales[row],
        values: this.values.slice(row * d, (row + 1) * d),
      });
    }
    return out;
  }

  /**
   * Replaces a note's chunks. Each entry brings a float vector (quantized here) or an already
   * stored one from {@link vectorsOf}.
   * @throws Error when a vector's length differs from the stored ones (a model change the caller must handle by rebuilding)
   */
  setNote(path: string, chunks: ReadonlyArray<{ record: ChunkRecord; vector: Float32Array | StoredVector }>): void {
    this.removeNote(path);
    this.changes++;
    for (const { record, vector } of chunks) {
      const length = vector instanceof Float32Array ? vector.length : vector.values.length;
      if (this.dimension === 0) this.dimension = length;
      if (length !== this.dimension) throw new Error(`vector of length ${length} in a store of dimension ${this.dimension}`);
      const row = this.records.length;
      this.ensureRows(row + 1);
      this.records.push({ ...record, path });
      if (vector instanceof Float32Array) this.scales[row] = quantizeInto(vector, this.values, row * this.dimension);
      else {
        this.scales[row] = vector.scale;
        this.values.set(vector.values, row * this.dimension);
      }
      packSigns(this.values, row * this.dimension, this.dimension, this.signs, row * signWords(this.dimension));
      const rows = this.rowsByPath.get(path);
      if (rows) rows.push(row);
      else this.rowsByPath.set(path, [row]);
    }
  }

  /** Drops a note's chunks (the last rows move into the freed places). */
  removeNote(path: string): void {
    const rows = this.rowsByPath.get(path);
    if (!rows) return;
    this.changes++;
    this.rowsByPath.delete(path);
    for (const row of [...rows].sort((a, b) => b - a)) this.removeRow(row);
  }

  /** Gives a note's chunks a new path (after a rename). */
  renameNote(from: string, to: string): void {
    const rows = this.rowsByPath.get(from);
    if (!rows || from === to) return;
    this.removeNote(to);
    this.changes++;
    this.rowsByPath.delete(from);
    this.rowsByPath.set(to, rows);
    for (const row of rows) this.records[row] = { ...this.records[row], path: to };
  }

  /**
   * The rows of the notes `allowed` admits, for {@link nearest}: valid while {@link revision}
   * stays what it was when they were built (rows move when a note's chunks are removed).
   * @param allowed path filter, asked once per note
   */
  admittedRows(allowed: (path: string) => boolean): AdmittedRows {
    const mask = new Uint8Array(this.records.length);
    let count = 0;
    for (const [path, rows] of this.rowsByPath) {
      if (!allowed(path)) continue;
      for (const row of rows) mask[row] = 1;
      count += rows.length;
    }
    return { mask, count, revision: this.changes };
  }

  /**
   * Cosine search: the chunks of notes `allowed` admits nearest to `query`. Exact while the
   * admitted rows fit in the pool; above, the sign prefilter picks the pool and the pool is
   * scored exactly (see the module comment; `pool` overrides the pool size, for tests and the bench).
   * @param query the query embedding (any length-`dim` vector; normalized here)
   * @param k how many chunks to return at most
   * @param allowed path filter, asked once per note, or rows {@link admittedRows} built at this revision
   * @param pool rows to score exactly after the prefilter; Infinity for an exact scan of every admitted row
   * @returns the `k` best chunks, best first, with their exact int8 cosine
   * @throws Error when `allowed` holds rows of another revision (the store changed since they were built)
   */
  nearest(
    query: Float32Array,
    k: number,
    allowed: ((path: string) => boolean) | AdmittedRows,
    pool = Math.max(RERANK_POOL, k * 16),
  ): ScoredChunk[] {
    const { mask: admitted, count, revision } = typeof allowed === 'function' ? this.admittedRows(allowed) : allowed;
    if (revision !== this.changes)
      throw new Error(`nearest: the admitted rows are of revision ${revision}, the store is at ${this.changes}; build them again`);
    const d = this.dimension;
    if (d === 0 || query.length !== d || k <= 0) return [];
    const q = normalized(query);
    const n = this.records.length;
    const heap = new TopK(k);
    if (count <= Math.max(pool, k)) {
      for (let row = 0; row < n; row++) if (admitted[row] === 1) heap.offer(row, this.score(q, row));
    } else {
      for (const row of nearestBySigns(this.signs, signWords(d), q, admitted, n, Math.max(pool, k))) heap.offer(row, this.score(q, row));
    }
    return heap.best().map(({ row, score }) => ({ ...this.records[row], score }));
  }

  /** Cosine of the normalized query `q` with a row: its int8 dot product (4 sums, so the loop pipelines) times the row's scale. */
  private score(q: Float32Array, row: number): number {
    const d = this.dimension;
    const values = this.values;
    const base = row * d;
    const tail = d - (d % 4);
    let a = 0;
    let b = 0;
    let c = 0;
    let e = 0;
    let i = 0;
    for (; i < tail; i += 4) {
      a += q[i] * values[base + i];
      b += q[i + 1] * values[base + i + 1];
      c += q[i + 2] * values[base + i + 2];
      e += q[i + 3] * values[base + i + 3];
    }
    for (; i < d; i++) a += q[i] * values[base + i];
    return (a + b + c + e) * this.scales[row];
  }

  /**
   * Every row's record (a copy of the list), scale and quantized values (views of the live
   * arrays, valid while {@link revision} stays `revision`), for saving (store-file.ts).
   */
  snapshot(): { records: readonly ChunkRecord[]; scales: Float32Array; values: Int8Array; revision: number } {
    const n = this.records.length;
    return {
      records: this.records.slice(),
      scales: this.scales.subarray(0, n),
      values: this.values.subarray(0, n * this.dimension),
      revision: this.changes,
    };
  }

  /**
   * Fills an empty store from a saved snapshot, keeping `scales` and `values` as they are (not
   * copied) and deriving the sign patterns row by row, awaiting `pause` between rows so a
   * caller can spread the work over event-loop turns (store-file.ts passes a Slicer's pause).
   * @param dim vector length; `values` holds `records.length × dim` of them
   * @throws Error when the arrays do not fit the records and dimension
   */
  async restore(
    dim: number,
    records: ChunkRecord[],
    scales: Float32Array<ArrayBuffer>,
    values: Int8Array<ArrayBuffer>,
    pause: () => Promise<void>,
  ): Promise<void> {
    if (scales.length !== records.length || values.length !== records.length * dim)
      throw new Error('saved vectors do not match their records');
    this.changes++;
    this.dimension = records.length === 0 ? 0 : dim;
    this.records = records;
    this.scales = scales;
    this.values = values;
    const words = signWords(dim);
    this.signs = new Uint32Array(records.length * words);
    this.rowsByPath.clear();
    for (let row = 0; row < records.length; row++) {
      if (row % 256 === 0) await pause();
      packSigns(values, row * dim, dim, this.signs, row * words);
      const rows = this.rowsByPath.get(records[row].path);
      if (rows) rows.push(row);
      else this.rowsByPath.set(records[row].path, [row]);
    }
  }

  private removeRow(row: number): void {
    const last = this.records.length - 1;
    if (row !== last) {
      const moved = this.records[last];
      this.records[row] = moved;
      this.scales[row] = this.scales[last];
      const d = this.dimension;
      this.values.copyWithin(row * d, last * d, (last + 1) * d);
      const words = signWords(d);
      this.signs.copyWithin(row * words, last * words, (last + 1) * words);
      const rows = this.rowsByPath.get(moved.path)!;
      rows[rows.indexOf(last)] = row;
    }
    this.records.pop();
  }

  private ensureRows(rows: number): void {
    const needed = rows * this.dimension;
    const words = signWords(this.dimension);
    if (this.scales.length >= rows && this.values.length >= needed && this.signs.length >= rows * words) return;
    const capacity = Math.max(INITIAL_ROWS, rows, this.scales.length * 2);
    const scales = new Float32Array(capacity);
    scales.set(this.scales.subarray(0, this.records.length));
    const values = new Int8Array(capacity * this.dimension);
    values.set(this.values.subarray(0, this.records.length * this.dimension));
    const signs = new Uint32Array(capacity * words);
    signs.set(this.signs.subarray(0, this.records.length * words));
    this.scales = scales;
    this.values = values;
    this.signs = signs;
  }
}

/** A normalized copy of `v` (a zero vector stays zero). */
function normalized(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const norm = Math.sqrt(sum) || 1;
  return v.map((x) => x / norm);
}

/** Normalizes `v`, writes its int8 form at `out[offset…]`, returns the scale. */
function quantizeInto(v: Float32Array, out: Int8Array, offset: number): number {
  const n = normalized(v);
  let max = 0;
  for (let i = 0; i < n.length; i++) max = Math.max(max, Math.abs(n[i]));
  const scale = max / 127 || 1;
  for (let i = 0; i < n.length; i++) out[offset + i] = Math.round(n[i] / scale);
  return scale;
}

/** The `k` highest scores seen, kept in a binary min-heap (the weakest on top, replaced by better ones). */
class TopK {
  private readonly rows: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  offer(row: number, score: number): void {
    const { rows, scores } = this;
    if (scores.length < this.k) {
      rows.push(row);
      scores.push(score);
      let i = scores.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (scores[parent] <= scores[i]) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    if (score <= scores[0]) return;
    rows[0] = row;
    scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < scores.length && scores[l] < scores[smallest]) smallest = l;
      if (r < scores.length && scores[r] < scores[smallest]) smallest = r;
      if (smallest === i) break;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  /** The kept rows, best score first. */
  best(): Array<{ row: number; score: number }> {
    return this.rows.map((row, i) => ({ row, score: this.scores[i] })).sort((x, y) => y.score - x.score);
  }

  private swap(i: number, j: number): void {
    [this.rows[i], this.rows[j]] = [this.rows[j], this.rows[i]];
    [this.scores[i], this.scores[j]] = [this.scores[j], this.scores[i]];
  }
}
