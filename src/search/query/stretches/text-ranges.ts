import type { TextRange } from './note-blocks';

/**
 * Arithmetic over sorted offsets of a note's text, for the stretch operators (scope-eval.ts; the
 * snippet's link bolding, snippet-display.ts, shares {@link firstEndingAfter}):
 * term spans as flat `[start, end]` pairs sorted by start, and sorted, non-overlapping
 * {@link TextRange}s (lines, blocks, sections, tasks). Binary searches, no text.
 */

/** Whether a span of the flat sorted pairs lies inside `s` (tokens never cross a stretch boundary: stretches start and end at line or block edges). */
export function spanWithin(spans: number[], s: TextRange): boolean {
  const k = firstPairFrom(spans, s.start);
  return k < spans.length && spans[k + 1] <= s.end;
}

/** Index (even) of the first pair of `spans` starting at or after `offset`; `spans.length` when none. */
export function firstPairFrom(spans: number[], offset: number): number {
  let lo = 0;
  let hi = spans.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid * 2] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2;
}

/** Several sorted flat pair lists as one, sorted by start. */
export function mergePairs(lists: number[][]): number[] {
  const pairs: [number, number][] = [];
  for (const list of lists) for (let i = 0; i < list.length; i += 2) pairs.push([list[i], list[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  return pairs.flat();
}

/**
 * Index of the first of sorted, non-overlapping `ranges` (start inclusive, end exclusive) that
 * ends after `offset`: the one holding `offset`, or else the first one after it;
 * `ranges.length` when none. A binary search.
 */
export function firstEndingAfter(ranges: readonly TextRange[], offset: number): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The range of sorted, non-overlapping `ranges` holding `offset`, or null. */
export function rangeAt(ranges: TextRange[], offset: number): TextRange | null {
  const lo = firstEndingAfter(ranges, offset);
  return lo < ranges.length && ranges[lo].start <= offset ? ranges[lo] : null;
}

/** The parts of sorted, non-overlapping `ranges` inside `outer` (a block inside a section, a line inside a block...). */
export function clip(ranges: TextRange[], outer: TextRange): TextRange[] {
  if (ranges.length === 0 || (outer.start <= ranges[0].start && ranges[ranges.length - 1].end <= outer.end)) return ranges;
  const out: TextRange[] = [];
  for (let k = firstEndingAfter(ranges, outer.start); k < ranges.length && ranges[k].start < outer.end; k++) {
    const start = Math.max(ranges[k].start, outer.start);
    const end = Math.min(ranges[k].end, outer.end);
    if (start < end) out.push({ start, end });
  }
  return out;
}
