/**
 * Choosing the best few of many scored matches without sorting them all: a search over a
 * 14k-note vault can match most notes, and only one page of them is ever shown.
 */

/**
 * The `k`-th largest value of `values` (Hoare's quickselect, expected O(n)), or -Infinity
 * when `k` exceeds the count; `values` is not changed.
 * @param k 1-based rank (1 = the largest)
 */
export function kthLargest(values: ArrayLike<number>, k: number): number {
  const n = values.length;
  if (k > n || k < 1) return -Infinity;
  const a = Float64Array.from(values);
  const target = n - k;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return a[target];
  }
  return a[target];
}

/**
 * `items` with the best `k` first, in `order`, and the others after them in no particular
 * order; the k-th best key is found by {@link kthLargest} and only items keyed at least that
 * high are sorted.
 * @param key a number that is larger for a better item, consistent with `order`
 * @param order the full comparison (ties included) among the best
 */
export function bestFirst<T>(items: T[], k: number, key: (item: T) => number, order: (a: T, b: T) => number): T[] {
  if (items.length <= k * 2) return items.sort(order);
  const keys = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) keys[i] = key(items[i]);
  const threshold = kthLargest(keys, k);
  const top: T[] = [];
  const rest: T[] = [];
  for (let i = 0; i < items.length; i++) (keys[i] >= threshold ? top : rest).push(items[i]);
  top.sort(order);
  for (const item of rest) top.push(item);
  return top;
}
