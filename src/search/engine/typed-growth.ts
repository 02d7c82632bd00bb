/** Growing typed arrays by doubling, and searching sorted posting pairs: shared by the index's array structures. */

/** A copy of `a` with room for at least `min` elements (capacity doubled). */
export function grow(a: Uint32Array, min: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(Math.max(min, a.length * 2, 4));
  out.set(a);
  return out;
}

/** A copy of `a` with room for at least `min` bytes (capacity doubled). */
export function growBytes(a: Uint8Array, min: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.max(min, a.length * 2));
  out.set(a);
  return out;
}

/** First even index `i` < `len` with `list[i] >= doc` (else `len`), by binary search over the pairs `[doc, code]` sorted by doc. */
export function lowerBound(list: Uint32Array, len: number, doc: number): number {
  let lo = 0;
  let hi = len >>> 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid * 2] < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2;
}
