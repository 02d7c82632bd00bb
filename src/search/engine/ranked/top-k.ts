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
 * high are sorted, and when many of them tie (a filter whose matches all score 0, such as a
 * tag: thousands of notes ordered by path alone) the best k of those come from a k-slot heap.
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
  const best = top.length > k * 2 ? firstInOrder(top, k, order, rest) : top;
  best.sort(order);
  for (const item of rest) best.push(item);
  return best;
}

/**
 * The first `k` of `items` in `order` (unsorted), by a {@link FirstInOrder} heap; every other
 * item is pushed onto `others`.
 */
function firstInOrder<T>(items: readonly T[], k: number, order: (a: T, b: T) => number, others: T[]): T[] {
  const heap = new FirstInOrder(k, order);
  for (const item of items) {
    const out = heap.offer(item);
    if (out !== undefined) others.push(out);
  }
  return heap.items();
}

/**
 * The first `k` items offered in `order` (a negative answer puts its first argument first),
 * kept in a binary heap of `k` slots whose root is the last of them: offering n items costs
 * O(n log k), with no copy of the stream.
 */
export class FirstInOrder<T> {
  private readonly heap: T[] = [];

  /** @param k how many to keep (0: none) @param order the full comparison among items */
  constructor(
    private readonly k: number,
    private readonly order: (a: T, b: T) => number,
  ) {}

  /** Number of items kept (at most k). */
  get size(): number {
    return this.heap.length;
  }

  /** The last of the items kept (the k-th once k are kept), or undefined when none is. */
  last(): T | undefined {
    return this.heap[0];
  }

  /** The items kept, in no particular order (the heap's own array: read, do not change). */
  items(): T[] {
    return this.heap;
  }

  /**
   * Keeps `item` when fewer than k are kept or it comes before the last kept one.
   * @returns the item no longer kept (the displaced last one, or `item` itself), or undefined when none was dropped
   */
  offer(item: T): T | undefined {
    const { heap, order } = this;
    if (heap.length < this.k) {
      let i = heap.length;
      heap.push(item);
      while (i > 0) {
        const parent = (i - 1) >>> 1;
        if (order(heap[parent], item) >= 0) break;
        heap[i] = heap[parent];
        i = parent;
      }
      heap[i] = item;
      return undefined;
    }
    if (heap.length === 0 || order(item, heap[0]) >= 0) return item;
    const dropped = heap[0];
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && order(heap[right], heap[left]) > 0 ? right : left;
      if (order(heap[child], item) <= 0) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = item;
    return dropped;
  }
}

/**
 * The `k` largest of a stream of numbers, kept in a binary min-heap of `k` slots: offering n
 * values costs O(n log k) at worst and O(n) when most fall below the kept ones, with no copy
 * of the stream (a ranked query offers one value per matching note, and k is one page).
 */
export class LargestValues {
  private readonly heap: Float64Array;
  private size = 0;

  /**
   * @param k how many of the largest values to keep, ≥ 1
   * @throws Error when k is not a whole number ≥ 1 (a bug in the caller)
   */
  constructor(readonly k: number) {
    if (!Number.isInteger(k) || k < 1) throw new Error(`LargestValues: k must be a whole number ≥ 1, got ${k}`);
    this.heap = new Float64Array(k);
  }

  /** Offers one value: kept when fewer than k are kept or it is larger than the smallest kept. */
  offer(value: number): void {
    const heap = this.heap;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >>> 1;
        if (heap[parent] <= value) break;
        heap[i] = heap[parent];
        i = parent;
      }
      heap[i] = value;
      return;
    }
    if (value <= heap[0]) return;
    let i = 0;
    const n = this.size;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && heap[right] < heap[left] ? right : left;
      if (heap[child] >= value) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = value;
  }

  /** True when {@link offer} would keep `value`, or it ties the smallest kept: fewer than k are kept, or it is at least the smallest kept. */
  admits(value: number): boolean {
    return this.size < this.k || value >= this.heap[0];
  }

  /**
   * The `j`-th largest value offered, or -Infinity while fewer than j were offered.
   * @param j 1-based rank, 1 ≤ j ≤ k (the kept values are the k largest, so they hold it)
   * @throws Error when j is outside 1…k (a bug in the caller)
   */
  nth(j: number): number {
    if (!(Number.isInteger(j) && j >= 1 && j <= this.k))
      throw new Error(`LargestValues.nth: j must be a whole number from 1 to ${this.k}, got ${j}`);
    if (this.size < j) return -Infinity;
    return j === this.k ? this.heap[0] : this.heap.slice(0, this.size).sort()[this.size - j];
  }
}

/**
 * The items that may be among the `k` of largest value in a stream of (item, value) pairs,
 * found in the one pass that offers them: an item is kept as a candidate when fewer than k
 * values were kept or its value is at least the smallest kept one (LargestValues), which only
 * grows, so every item valued at least the final j-th largest (j ≤ k) is a candidate, ties
 * included. With the values in random order about k · ln(n / k) of n items are candidates; a
 * ranked query, which offers one item per matching note, then looks at those alone.
 */
export class TopCandidates {
  /** The candidate items, in the order offered. */
  readonly items: number[] = [];
  private offered = 0;
  private readonly largest: LargestValues | null;

  /**
   * @param k how many of the largest values are wanted, a whole number ≥ 1; Infinity keeps
   *   every item (then only {@link floor} for all of them may be asked)
   * @throws Error when k is neither Infinity nor a whole number ≥ 1 (a bug in the caller)
   */
  constructor(k: number) {
    this.largest = k === Infinity ? null : new LargestValues(k);
  }

  /** Offers `item` valued `value`. */
  offer(item: number, value: number): void {
    this.offered++;
    const largest = this.largest;
    if (largest !== null) {
      if (!largest.admits(value)) return;
      largest.offer(value);
    }
    this.items.push(item);
  }

  /**
   * The least value an item must have to be among the `j` largest: the j-th largest value
   * offered, or -Infinity when no more than j were offered (all of them are).
   * @param j 1 ≤ j ≤ k
   * @throws Error when j is below the number offered while k is Infinity, or outside 1…k
   */
  floor(j: number): number {
    if (j >= this.offered) return -Infinity;
    if (this.largest === null) throw new Error(`TopCandidates.floor: k is Infinity, asked for ${j} of ${this.offered}`);
    return this.largest.nth(j);
  }
}
