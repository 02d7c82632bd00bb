/** Growing typed arrays by doubling: shared by the index's array structures. */

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
