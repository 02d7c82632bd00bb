/**
 * The first stage of vector search: each vector kept as its signs only, one bit per dimension
 * packed into 32-bit words (768 dimensions → 24 words, 96 bytes, an eighth of the int8 values).
 * Scoring the query against the signs (see {@link nearestBySigns}) ranks rows nearly as their
 * cosine does (binary quantization, as in sign random projection: a row's signs keep on which
 * side of each axis it lies), so the best rows by that score are a small candidate pool that
 * holds the nearest rows by cosine; vector-store.ts scores only those exactly. One row costs 96
 * table look-ups instead of 768 multiply-adds.
 */
import { kthLargest } from '../engine/ranked/top-k';

/** 32-bit words per row for `dim` dimensions. */
export function signWords(dim: number): number {
  return Math.ceil(dim / 32);
}

/**
 * Writes the sign pattern of `v[from … from + dim)` (bit set where the value is > 0) into
 * `out[at … at + signWords(dim))`.
 * @param v int8 values; `from` and `dim` in elements
 */
export function packSigns(v: Int8Array, from: number, dim: number, out: Uint32Array, at: number): void {
  const words = signWords(dim);
  for (let w = 0; w < words; w++) {
    let bits = 0;
    const base = from + w * 32;
    const end = Math.min(32, dim - w * 32);
    // -v is negative exactly when v > 0: its sign bit is the pattern's bit (no branch per value).
    for (let b = 0; b < end; b++) bits |= (-v[base + b] >>> 31) << b;
    out[at + w] = bits >>> 0;
  }
}

/**
 * The rows of `admitted` whose sign patterns score highest against the float `query`, at most
 * `pool` of them. A row's prefilter score is `Σ q[i]·s[i]` with `s[i] = ±1` its sign bits: the
 * query keeps its full precision (asymmetric, so much closer to the true cosine order than
 * comparing two sign patterns), and it costs one table look-up per 8 dimensions: a table per
 * byte of the pattern holds, for each of the 256 byte values, the sum of the query values whose
 * bits are set (`Σ q·s = 2·that − Σ q`, the same order). Rows tied at the cut-off are taken in
 * row order until the pool is full.
 * @param signs every row's pattern, `words` words per row (see {@link packSigns})
 * @param query the query vector (normalized or not; only the order matters)
 * @param admitted 1 for a row that may be returned, 0 for one that must not (hidden notes: its score is never kept, and two such rows side by side are not scored)
 * @param rows how many rows `signs` and `admitted` hold
 * @returns row numbers, ascending; every admitted row when there are at most `pool`
 */
export function nearestBySigns(
  signs: Uint32Array,
  words: number,
  query: Float32Array,
  admitted: Uint8Array,
  rows: number,
  pool: number,
): Int32Array {
  const bytes = words * 4;
  const table = new Float32Array(bytes * 256);
  for (let j = 0; j < bytes; j++) {
    const at = j * 256;
    for (let bit = 0, step = 1; bit < 8; bit++, step <<= 1) {
      const i = j * 8 + bit;
      const value = i < query.length ? query[i] : 0;
      // The byte values with `bit` as their highest set bit: the one without it, plus this dimension.
      for (let b = step; b < 2 * step; b++) table[at + b] = table[at + b - step] + value;
    }
  }
  const scores = new Float32Array(rows);
  // Two rows per pass: their sums are independent chains the processor overlaps (about a fifth
  // less time than one row per pass at 100k rows; each row's sum is taken in the same order).
  for (let row = 0; row < rows; row += 2) {
    // The last row of an odd count is summed twice, its second sum dropped.
    const next = row + 1 < rows ? 1 : 0;
    if ((admitted[row] | admitted[row + next]) === 0) {
      scores[row] = scores[row + next] = -Infinity;
      continue;
    }
    let first = 0;
    let second = 0;
    for (let w = 0, base = row * words, at = 0; w < words; w++, at += 1024) {
      const x = signs[base + w];
      const y = signs[base + next * words + w];
      first +=
        table[at + (x & 255)] + table[at + 256 + ((x >>> 8) & 255)] + table[at + 512 + ((x >>> 16) & 255)] + table[at + 768 + (x >>> 24)];
      second +=
        table[at + (y & 255)] + table[at + 256 + ((y >>> 8) & 255)] + table[at + 512 + ((y >>> 16) & 255)] + table[at + 768 + (y >>> 24)];
    }
    scores[row + next] = admitted[row + next] === 0 ? -Infinity : second;
    scores[row] = admitted[row] === 0 ? -Infinity : first;
  }
  let count = 0;
  for (let r = 0; r < rows; r++) count += admitted[r];
  const size = Math.min(pool, count);
  if (size <= 0) return new Int32Array(0);
  const cut = kthLargest(scores, size);
  const out = new Int32Array(size);
  let n = 0;
  for (let r = 0; r < rows; r++) if (admitted[r] === 1 && scores[r] > cut) out[n++] = r;
  for (let r = 0; r < rows && n < size; r++) if (admitted[r] === 1 && scores[r] === cut) out[n++] = r;
  return out.sort();
}
