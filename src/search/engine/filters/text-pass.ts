import type { EngineMatch } from '../engine-match';
import { FirstInOrder } from '../ranked/top-k';

/**
 * The text pass of a filter query (phrases, regexes, text operators): which candidate notes
 * are read and tested, in what order, and what the query's `total` is then.
 *
 * A query that asks for its best `ranked` matches only (a result page) has its candidates
 * read best bound first: each candidate's score once read is at most its bound (`scoreBound`,
 * query-eval.ts), so once `ranked` matches are found and the `ranked`-th best of them ranks
 * before the best bound still unread, no unread note can enter the page, and reading stops.
 * That is the same first `ranked` matches, in the same order, as reading every candidate; at
 * 100k notes a phrase of two common words had tens of thousands of candidates to read.
 *
 * The total is then exact only when every candidate was decided; otherwise it is estimated
 * from an evenly spread sample of the unread candidates, taken until it holds
 * {@link ESTIMATE_SAMPLE} matches (by default; or until its reading budget is spent), rounded
 * to two significant digits and kept between the matches known and the candidates left, and
 * the result says so (`estimated`). A query with at most `exactUpTo`
 * candidates is decided whole, as is one asking for all its matches.
 */

/** Matches the sample an estimated total is read from aims to hold by default (relative error about 1/√ of it: 10 %). */
export const ESTIMATE_SAMPLE = 100;
/** The sample reads at most this many candidates' text per match it aims to hold; with no more unread than that, all are read (exact). */
const READS_PER_HIT = 8;
/** The sample judges at most this many candidates per match it aims to hold. */
const JUDGED_PER_HIT = 40;
/** The golden ratio's fractional part: the step of the sample's evenly spread order. */
const GOLDEN = (Math.sqrt(5) - 1) / 2;

/**
 * The candidates of a filter query after the index pass (the notes holding its required words),
 * and how one is judged. Judging without the text (phrase filters, note filters, decided words)
 * is deferred until a candidate comes up: at 100k notes tens of thousands of candidates each
 * cost a query-tree walk and a phrase-filter check, and a page needs a few dozen.
 */
export interface TextCandidates {
  /** Doc ids of the candidates (typed arrays do: tens of thousands of candidates at 100k notes). */
  docs: ArrayLike<number>;
  /** The highest score reading each candidate can give it (`scoreBound`), by position in `docs`. */
  bounds: ArrayLike<number>;
  /** A candidate's path (candidates of one bound come by path ascending, the engine's order). */
  path(doc: number): string;
  /** The verdict without the text: null when the note cannot match, its match when it matches at its bound, undefined when the text decides. */
  judge(doc: number): EngineMatch | null | undefined;
}

/** Reads and tests a batch of candidates by doc id: one match (or null for none) per doc, in order. */
export type VerifyBatch = (docs: readonly number[]) => Promise<(EngineMatch | null)[]>;

/** What the text pass found. */
export interface TextPassResult {
  /** The matches found: with `ranked` finite, they hold the best `ranked` matches of the query, in no particular order. */
  matches: EngineMatch[];
  /** Number of matches in all: exact, or an estimate when `estimated`. */
  total: number;
  estimated: boolean;
}

/** How the text pass runs. */
export interface TextPassOptions {
  /** How many of the best matches must be found (Infinity: every match, and an exact total). */
  ranked: number;
  /** Candidates read at once. */
  batch: number;
  /** Judge and read every candidate (exact total) when there are at most this many. */
  exactUpTo: number;
  /** Matches the sample of unread candidates an estimated total is read from aims to hold (≥ 1); with few unread (8 × this), all are read. */
  sample: number;
}

/**
 * Runs the text pass (see the comment at the top of this file) over `candidates`.
 * @param verify reads and tests a batch (its rejections propagate: a regex over its time budget)
 * @returns the matches found and the total
 * @throws Error when `ranked` is not a whole number ≥ 0 or Infinity, or `batch` or `sample` is not a whole number ≥ 1 (a bug in the caller)
 */
export async function textPass(candidates: TextCandidates, verify: VerifyBatch, options: TextPassOptions): Promise<TextPassResult> {
  const { ranked, batch, sample: size } = options;
  if (!(ranked === Infinity || (Number.isInteger(ranked) && ranked >= 0)))
    throw new Error(`textPass: ranked must be a whole number ≥ 0 or Infinity, got ${ranked}`);
  if (!(Number.isInteger(batch) && batch >= 1)) throw new Error(`textPass: batch must be a whole number ≥ 1, got ${batch}`);
  if (!(Number.isInteger(size) && size >= 1)) throw new Error(`textPass: sample must be a whole number ≥ 1, got ${size}`);
  const { docs, bounds } = candidates;
  const n = docs.length;
  if (ranked === Infinity || n <= options.exactUpTo) {
    const matches = await readAll(candidates, docs, verify, batch);
    return { matches, total: matches.length, estimated: false };
  }
  const order = new CandidateHeap(candidates);
  const best = new BestMatches(ranked);
  const found: EngineMatch[] = [];
  const add = (m: EngineMatch): void => {
    found.push(m);
    best.offer(m);
  };
  // Settled: more than `ranked` matches known (so the page knows a next one exists), and no unread candidate can rank among the first `ranked`.
  const settled = (): boolean => {
    if (found.length <= ranked) return false;
    if (order.size === 0) return true;
    const next = order.peek();
    return best.ranksBefore(bounds[next], candidates.path(docs[next]));
  };
  const taken = new Uint8Array(n);
  let takenCount = 0;
  while (order.size > 0 && !settled()) {
    const pending: number[] = [];
    while (order.size > 0 && pending.length < batch && !settled()) {
      const k = order.pop();
      taken[k] = 1;
      takenCount++;
      const verdict = candidates.judge(docs[k]);
      if (verdict === undefined) pending.push(docs[k]);
      else if (verdict !== null) add(verdict);
    }
    if (pending.length > 0) for (const m of await verify(pending)) if (m !== null) add(m);
  }
  const unread = new Int32Array(n - takenCount);
  for (let k = 0, at = 0; k < n; k++) if (taken[k] === 0) unread[at++] = docs[k];
  if (unread.length <= size * READS_PER_HIT) {
    const rest = await readAll(candidates, unread, verify, batch);
    return { matches: found.concat(rest), total: found.length + rest.length, estimated: false };
  }
  const { judged, hits } = await sampleMatches(candidates, unread, verify, batch, size);
  const known = found.length;
  const estimate = roundSignificant(known + (unread.length * hits) / judged, 2);
  // Between the matches known (the sample's included) and all but the sample's non-matches.
  const total = Math.min(known + unread.length - (judged - hits), Math.max(known + hits, estimate));
  return { matches: found, total, estimated: true };
}

/**
 * Judges (and reads where needed) unread candidates in an evenly spread order (the golden
 * ratio's additive sequence over their positions: every prefix of it is spread over them all)
 * until `hits` matches are seen, or `hits` × {@link READS_PER_HIT} candidates were read, or
 * `hits` × {@link JUDGED_PER_HIT} judged.
 * @param unread the unread candidates' doc ids, more than `hits` × READS_PER_HIT of them
 * @returns how many were judged and how many of those match
 */
async function sampleMatches(
  candidates: TextCandidates,
  unread: ArrayLike<number>,
  verify: VerifyBatch,
  batch: number,
  hits: number,
): Promise<{ judged: number; hits: number }> {
  const n = unread.length;
  const seen = new Uint8Array(n);
  let x = 0;
  let judged = 0;
  let found = 0;
  let reads = 0;
  let pending: number[] = [];
  const flush = async (): Promise<void> => {
    for (const m of await verify(pending)) if (m !== null) found++;
    reads += pending.length;
    pending = [];
  };
  while (judged < n && found < hits && reads + pending.length < hits * READS_PER_HIT && judged < hits * JUDGED_PER_HIT) {
    x = (x + GOLDEN) % 1;
    let k = Math.floor(x * n);
    while (seen[k] === 1) k = (k + 1) % n;
    seen[k] = 1;
    judged++;
    const verdict = candidates.judge(unread[k]);
    if (verdict === undefined) {
      pending.push(unread[k]);
      if (pending.length === batch) await flush();
    } else if (verdict !== null) found++;
  }
  if (pending.length > 0) await flush();
  return { judged, hits: found };
}

/** The matches among the candidates `docs`: each judged, those the text decides read `batch` at a time, in order. */
async function readAll(candidates: TextCandidates, docs: ArrayLike<number>, verify: VerifyBatch, batch: number): Promise<EngineMatch[]> {
  const out: EngineMatch[] = [];
  let pending: number[] = [];
  const flush = async (): Promise<void> => {
    for (const m of await verify(pending)) if (m !== null) out.push(m);
    pending = [];
  };
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k];
    const verdict = candidates.judge(doc);
    if (verdict === undefined) {
      pending.push(doc);
      if (pending.length === batch) await flush();
    } else if (verdict !== null) out.push(verdict);
  }
  if (pending.length > 0) await flush();
  return out;
}

/** `x` rounded to `digits` significant decimal digits (0 stays 0). */
function roundSignificant(x: number, digits: number): number {
  if (x <= 0) return 0;
  const unit = Math.pow(10, Math.max(0, Math.floor(Math.log10(x)) + 1 - digits));
  return Math.round(x / unit) * unit;
}

/** Rank order of two matches (the engine's): negative when `a` comes first (score descending, then path ascending). */
export function byRank(a: EngineMatch, b: EngineMatch): number {
  return b.score - a.score || (a.note.path < b.note.path ? -1 : a.note.path > b.note.path ? 1 : 0);
}

/** Candidates the bounds are sampled at to choose {@link CandidateHeap}'s first tier. */
const TIER_SAMPLE = 1024;
/** The part of the candidates {@link CandidateHeap}'s first tier aims to hold (and no fewer than {@link TIER_SAMPLE}). */
const TIER_SHARE = 1 / 16;

/**
 * The candidates' positions in a binary heap, best bound first (ties by path ascending), each
 * pop O(log n). A page is usually settled after a few hundred pops of tens of thousands of
 * candidates (a common phrase at 100k notes: about 400 of 70k), so the heap is built in two
 * tiers: first the candidates whose bound is at least a threshold chosen from an evenly
 * spread sample of the bounds (about {@link TIER_SHARE} of them), then, only if those run out,
 * the rest. Every candidate of the first tier comes before every one of the second, so the
 * pops come in the order one heap of all gives.
 */
class CandidateHeap {
  private heap: Int32Array;
  /** Positions below the first tier's threshold, heaped when the first tier runs out (null: none left). */
  private rest: Int32Array | null = null;
  private count: number;
  /** Candidates left in both tiers. */
  size: number;

  constructor(private readonly candidates: TextCandidates) {
    const { bounds } = candidates;
    const n = bounds.length;
    this.size = n;
    const first = Math.max(TIER_SAMPLE, Math.ceil(n * TIER_SHARE));
    if (n <= 2 * first) {
      this.heap = new Int32Array(n);
      for (let i = 0; i < n; i++) this.heap[i] = i;
    } else {
      const sample = new Float64Array(TIER_SAMPLE);
      for (let i = 0; i < TIER_SAMPLE; i++) sample[i] = bounds[Math.floor((i * n) / TIER_SAMPLE)];
      sample.sort();
      // About `first` of the n bounds are at least the sample's value of that rank from the top.
      const threshold = sample[TIER_SAMPLE - Math.ceil((first * TIER_SAMPLE) / n)];
      // One pass: the first tier from the front of one array, the rest from its back (their order in it does not matter:
      // bound, then path, orders every candidate, so the pops come in one order however the heap was filled).
      const positions = new Int32Array(n);
      let above = 0;
      for (let i = 0, below = n; i < n; i++) {
        if (bounds[i] >= threshold) positions[above++] = i;
        else positions[--below] = i;
      }
      this.heap = positions.subarray(0, above);
      if (above < n) this.rest = positions.subarray(above);
    }
    this.count = this.heap.length;
    this.heapify();
  }

  /** Position of the best candidate left (size > 0). */
  peek(): number {
    if (this.count === 0) this.nextTier();
    return this.heap[0];
  }

  /** Removes and returns the position of the best candidate left (size > 0). */
  pop(): number {
    if (this.count === 0) this.nextTier();
    const top = this.heap[0];
    this.heap[0] = this.heap[--this.count];
    this.size--;
    this.sift(0);
    return top;
  }

  /** Heaps the second tier once the first has run out. */
  private nextTier(): void {
    this.heap = this.rest as Int32Array;
    this.rest = null;
    this.count = this.heap.length;
    this.heapify();
  }

  private heapify(): void {
    for (let i = (this.count >>> 1) - 1; i >= 0; i--) this.sift(i);
  }

  /** True when the candidate at position `a` comes before the one at `b`. */
  private before(a: number, b: number): boolean {
    const { bounds, docs } = this.candidates;
    const x = bounds[a];
    const y = bounds[b];
    return x > y || (x === y && this.candidates.path(docs[a]) < this.candidates.path(docs[b]));
  }

  private sift(from: number): void {
    const { heap, count } = this;
    const item = heap[from];
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= count) break;
      const right = left + 1;
      const child = right < count && this.before(heap[right], heap[left]) ? right : left;
      if (!this.before(heap[child], item)) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = item;
  }
}

/** The best `k` matches offered ({@link FirstInOrder} in {@link byRank}). */
class BestMatches {
  private readonly heap: FirstInOrder<EngineMatch>;

  constructor(private readonly k: number) {
    this.heap = new FirstInOrder(k, byRank);
  }

  /** Keeps `m` when fewer than k are kept or it ranks before the k-th best. */
  offer(m: EngineMatch): void {
    this.heap.offer(m);
  }

  /** True when k matches are kept and the k-th best ranks before a candidate at `bound` with `path` (k = 0: always). */
  ranksBefore(bound: number, path: string): boolean {
    if (this.k === 0) return true;
    if (this.heap.size < this.k) return false;
    const m = this.heap.last() as EngineMatch;
    return m.score > bound || (m.score === bound && m.note.path < path);
  }
}
