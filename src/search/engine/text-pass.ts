import type { NoteRecord } from '../query/note-filters';
import type { EngineMatch } from './engine-match';

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
 * from an evenly spread sample of the unread candidates ({@link ESTIMATE_SAMPLE} of them by default),
 * rounded to two significant digits and kept between the matches known and the candidates
 * left, and the result says so (`estimated`). A query with at most `exactUpTo` candidates to
 * read is read whole, as is one asking for all its matches.
 */

/** Candidates the unread remainder's sample holds by default (the total's estimate is read from it). */
export const ESTIMATE_SAMPLE = 200;

/** One candidate note of a filter query after the index pass. */
export interface TextCandidate {
  doc: number;
  note: NoteRecord;
  /** The highest score reading the note can give it (`scoreBound`). */
  bound: number;
  /** The match itself when the index pass already decided the note matches at its bound (nothing to read); else null. */
  decided: EngineMatch | null;
}

/** Reads and tests a batch of candidates: one match (or null for none) per candidate, in order. */
export type VerifyBatch = (batch: readonly TextCandidate[]) => Promise<(EngineMatch | null)[]>;

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
  /** Read every candidate (exact total) when at most this many need reading. */
  exactUpTo: number;
  /** Size of the sample of unread candidates the total is estimated from (≥ 1); with fewer unread than this, all are read. */
  sample: number;
}

/**
 * Runs the text pass (see the comment at the top of this file) over `candidates`.
 * @param candidates the index pass's candidates, in doc order
 * @param verify reads and tests a batch (its rejections propagate: a regex over its time budget)
 * @returns the matches found and the total
 * @throws Error when `ranked` is not a whole number ≥ 0 or Infinity, or `batch` < 1 (a bug in the caller)
 */
export async function textPass(candidates: readonly TextCandidate[], verify: VerifyBatch, options: TextPassOptions): Promise<TextPassResult> {
  const { ranked, batch, sample: size } = options;
  if (!(ranked === Infinity || (Number.isInteger(ranked) && ranked >= 0))) throw new Error(`textPass: ranked must be a whole number ≥ 0 or Infinity, got ${ranked}`);
  if (!(Number.isInteger(batch) && batch >= 1)) throw new Error(`textPass: batch must be a whole number ≥ 1, got ${batch}`);
  if (!(Number.isInteger(size) && size >= 1)) throw new Error(`textPass: sample must be a whole number ≥ 1, got ${size}`);
  let toRead = 0;
  for (const c of candidates) if (c.decided === null) toRead++;
  if (ranked === Infinity || toRead <= options.exactUpTo) {
    const matches = await readAll(candidates, verify, batch);
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
  const settled = (): boolean => found.length > ranked && (order.size === 0 || best.ranksBefore(candidates[order.peek()]));
  const read = new Uint8Array(candidates.length);
  while (order.size > 0 && !settled()) {
    const pending: TextCandidate[] = [];
    while (order.size > 0 && pending.length < batch && !settled()) {
      const k = order.pop();
      read[k] = 1;
      const c = candidates[k];
      if (c.decided !== null) add(c.decided);
      else pending.push(c);
    }
    if (pending.length > 0) for (const m of await verify(pending)) if (m !== null) add(m);
  }
  let known = found.length;
  const unread: TextCandidate[] = [];
  for (let k = 0; k < candidates.length; k++) {
    if (read[k] === 1) continue;
    if (candidates[k].decided !== null) known++;
    else unread.push(candidates[k]);
  }
  if (unread.length <= size) {
    const rest = await readAll(unread, verify, batch);
    return { matches: found.concat(rest), total: known + rest.length, estimated: false };
  }
  const sample = Array.from({ length: size }, (_, i) => unread[Math.floor(((i + 0.5) * unread.length) / size)]);
  const hits = (await readAll(sample, verify, batch)).length;
  const estimate = roundSignificant(known + (unread.length * hits) / size, 2);
  // Between the matches known (the sample's included) and all but the sample's non-matches.
  const total = Math.min(known + unread.length - (size - hits), Math.max(known + hits, estimate));
  return { matches: found, total, estimated: true };
}

/** Every candidate's match: decided ones as they are, the others read `batch` at a time, in order. */
async function readAll(candidates: readonly TextCandidate[], verify: VerifyBatch, batch: number): Promise<EngineMatch[]> {
  const out: EngineMatch[] = [];
  let pending: TextCandidate[] = [];
  const flush = async (): Promise<void> => {
    for (const m of await verify(pending)) if (m !== null) out.push(m);
    pending = [];
  };
  for (const c of candidates) {
    if (c.decided !== null) out.push(c.decided);
    else {
      pending.push(c);
      if (pending.length === batch) await flush();
    }
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

/** True when a match ranks before a candidate at its bound: score descending, then path ascending (the engine's order). */
function matchBefore(m: EngineMatch, c: TextCandidate): boolean {
  return m.score > c.bound || (m.score === c.bound && m.note.path < c.note.path);
}

/** Rank order of two matches: negative when `a` comes first (score descending, then path ascending). */
function byRank(a: EngineMatch, b: EngineMatch): number {
  return b.score - a.score || (a.note.path < b.note.path ? -1 : a.note.path > b.note.path ? 1 : 0);
}

/** The candidates' positions in a binary heap, best bound first (ties by path ascending): built in O(n), each pop O(log n). */
class CandidateHeap {
  private readonly heap: Int32Array;
  size: number;

  constructor(private readonly candidates: readonly TextCandidate[]) {
    this.size = candidates.length;
    this.heap = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) this.heap[i] = i;
    for (let i = (this.size >>> 1) - 1; i >= 0; i--) this.sift(i);
  }

  /** Position of the best candidate left (size > 0). */
  peek(): number {
    return this.heap[0];
  }

  /** Removes and returns the position of the best candidate left (size > 0). */
  pop(): number {
    const top = this.heap[0];
    this.heap[0] = this.heap[--this.size];
    this.sift(0);
    return top;
  }

  /** True when candidate `a` comes before candidate `b`. */
  private before(a: number, b: number): boolean {
    const x = this.candidates[a];
    const y = this.candidates[b];
    return x.bound > y.bound || (x.bound === y.bound && x.note.path < y.note.path);
  }

  private sift(from: number): void {
    const { heap, size } = this;
    const item = heap[from];
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.before(heap[right], heap[left]) ? right : left;
      if (!this.before(heap[child], item)) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = item;
  }
}

/** The best `k` matches offered, in a binary heap whose root is the k-th best. */
class BestMatches {
  private readonly heap: EngineMatch[] = [];

  constructor(private readonly k: number) {}

  /** Keeps `m` when fewer than k are kept or it ranks before the k-th best. */
  offer(m: EngineMatch): void {
    const heap = this.heap;
    if (this.k === 0) return;
    if (heap.length < this.k) {
      let i = heap.length;
      heap.push(m);
      while (i > 0) {
        const parent = (i - 1) >>> 1;
        if (byRank(heap[parent], m) >= 0) break;
        heap[i] = heap[parent];
        i = parent;
      }
      heap[i] = m;
      return;
    }
    if (byRank(m, heap[0]) >= 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && byRank(heap[right], heap[left]) > 0 ? right : left;
      if (byRank(heap[child], m) <= 0) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = m;
  }

  /** True when k matches are kept and the k-th best ranks before candidate `c` at its bound (k = 0: always). */
  ranksBefore(c: TextCandidate): boolean {
    if (this.k === 0) return true;
    return this.heap.length === this.k && matchBefore(this.heap[0], c);
  }
}
