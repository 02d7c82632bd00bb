/**
 * A short fingerprint of a text's lines, and three-way placement against it
 * (docs/agent-activity.md#reverting). The activity log keeps only an edit's reverse patch, not
 * the text the agent left (a small change to a big note must log a few bytes), yet a revert on
 * a note that changed since must be placed three-way, as a proposal's hunks are (rebase.ts): a
 * hunk goes back only where the changes from the agent's text to the note now leave its lines
 * and the lines around it untouched, at the place they moved to. So the text the agent left is
 * kept as {@link LineSums}: its lines grouped into at most about {@link MAX_SUMS} chunks, each
 * chunk's length and a 32-bit FNV-1a sum of it. The note now is cut into chunks the same way;
 * both lists of sums, one line each, are diffed and placed by {@link placeHunks} itself, so the
 * rule of what counts as touched is the proposals' own. Pure string work.
 */
import { crLines, lfLines } from './hunk-lines';
import { buildHunks } from './hunks';
import { placeHunks } from './rebase';

/**
 * How many chunks a fingerprint aims at: a text of up to this many lines gets one chunk per
 * line (a later change of any other line never stops a revert); a longer one gets chunks of
 * about `lines / MAX_SUMS` lines, so a later change within the chunk of an agent's change, or
 * the chunk on either side, leaves that change as it is. At most twice this many are kept
 * (about 13 bytes each in the log).
 */
export const MAX_SUMS = 256;

/** The longest stride tried before a text is said to have no fingerprint (only texts of one line repeated). */
const MAX_STRIDE = 2 ** 24;

/**
 * The fingerprint of a text: `k`, the stride (a power of two: a chunk ends after a line whose
 * own sum, mixed as `cut` says, is a multiple of `k`, so the cuts depend on the lines alone and
 * an edit elsewhere never moves them; `k` 1 is a chunk per line), and `sums`, one `<length in
 * chars, base 36>.<FNV-1a sum of the chunk, 8 hex digits>` per chunk in order, separated by
 * spaces ('' for an empty text).
 */
export interface LineSums {
  k: number;
  sums: string;
  /**
   * `mix`: a chunk ends after a line whose sum, mixed ({@link mixed}), is a multiple of `k`.
   * Absent (`k` 1, where every line ends a chunk, or fingerprints logged before): the sum
   * itself, whose low bits depend only on the low bits of each character, so alike lines
   * (`- item 7: step 7`) can all miss every cut and a long note comes out as one chunk. A text
   * now is cut by the rule its fingerprint was.
   */
  cut?: 'mix';
}

/** The murmur3 finalizer of a 32-bit sum: every bit of it then depends on every bit of the sum. */
function mixed(sum: number): number {
  let h = sum ^ (sum >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Whether a chunk ends after a line of sum `sum`, stride `k`, by rule `cut` (see {@link LineSums}). */
function cuts(sum: number, k: number, cut: LineSums['cut']): boolean {
  return (cut === 'mix' ? mixed(sum) : sum) % k === 0;
}

/** A chunk of a text: `[from, to)` and its `<length>.<sum>` token. */
interface Chunk {
  from: number;
  to: number;
  token: string;
}

/** 32-bit FNV-1a over the UTF-16 code units of `text[from, to)`. */
function fnv(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The lines of a text: where each ends (break included) and its own sum, in typed arrays (a 4 MB note has 100k lines). */
interface Lines {
  count: number;
  ends: Float64Array;
  sums: Uint32Array;
}

/** Each line of `text` (its end, break included) and its own sum. Lines end at `\n`, or at `\r` in a text {@link crLines} says ends its lines so. */
function linesOf(text: string): Lines {
  const view = crLines(text) ? lfLines(text) : text;
  let count = 0;
  for (let nl = view.indexOf('\n'); nl !== -1; nl = view.indexOf('\n', nl + 1)) count++;
  if (view.length > 0 && !view.endsWith('\n')) count++;
  const ends = new Float64Array(count);
  const sums = new Uint32Array(count);
  let start = 0;
  for (let i = 0; i < count; i++) {
    const nl = view.indexOf('\n', start);
    const end = nl === -1 ? view.length : nl + 1;
    ends[i] = end;
    sums[i] = fnv(text, start, end);
    start = end;
  }
  return { count, ends, sums };
}

/** How many chunks stride `k` cuts `lines` into (by the `mix` rule). */
function chunkCount(lines: Lines, k: number): number {
  let n = 0;
  for (let i = 0; i < lines.count; i++) if (cuts(lines.sums[i], k, 'mix') || i === lines.count - 1) n++;
  return n;
}

/** `text` cut with stride `k` by rule `cut` (see {@link LineSums}). */
function chunksOf(text: string, lines: Lines, k: number, cut: LineSums['cut']): Chunk[] {
  const out: Chunk[] = [];
  let from = 0;
  for (let i = 0; i < lines.count; i++) {
    if (!cuts(lines.sums[i], k, cut) && i !== lines.count - 1) continue;
    const end = lines.ends[i];
    out.push({ from, to: end, token: `${(end - from).toString(36)}.${fnv(text, from, end).toString(16).padStart(8, '0')}` });
    from = end;
  }
  return out;
}

/**
 * The fingerprint of `text` (see {@link LineSums}): the smallest stride that cuts it into at
 * most {@link MAX_SUMS} chunks on average, doubled while it gives more than twice that.
 * @returns the fingerprint, or null when no stride up to 2^24 keeps it that short (a text of
 *   one line repeated whose sum happens to be a multiple of each stride): such an entry cannot
 *   be placed on a text that changed since. Does not throw.
 */
export function lineSums(text: string): LineSums | null {
  const lines = linesOf(text);
  let k = 1;
  while (lines.count / k > MAX_SUMS) k *= 2;
  while (chunkCount(lines, k) > 2 * MAX_SUMS) {
    if (k >= MAX_STRIDE) return null;
    k *= 2;
  }
  const sums = chunksOf(text, lines, k, 'mix')
    .map((c) => c.token)
    .join(' ');
  // A chunk a line (k 1) cuts after every line whichever the rule: no `cut` to log.
  return k === 1 ? { k, sums } : { k, sums, cut: 'mix' };
}

/**
 * Most candidates {@link uniqueRegions} compares for one text before it marks no hunk: a long
 * note of many alike pairs of lines (100k lines of `- [ ] task` and a blank line) with many
 * hunks must not make the write that logs it slow. Some tens of ms of work.
 */
const UNIQUE_WORK = 1_000_000;

/**
 * Which hunks of a change have a region that occurs once in `text`, the text the change left
 * (computed when the change is logged, so a revert on a long note need not ask whether a later
 * change touched another copy: there is none; docs/agent-activity.md#reverting). A hunk's region
 * is its lines with the whole line on each side (the start or end of the text where there is
 * none), as rebase.ts placeHunks takes it; it is unique when that region, as `text` has it,
 * starts at no other line start of `text` (copies that overlap it included), nor does the region
 * as the hunk makes it (`inserted` in place of its lines). Lines end as
 * {@link linesOf} says (`\r` alone in a text whose lines end so).
 * @param text the text the hunks' offsets refer to. @param hunks `[from, to)` whole lines of
 *   `text`, in order, each with the text it puts there.
 * @returns per hunk, true when unique as said; false when a copy occurs, and for every hunk
 *   when the candidates to compare (lines that start as a region does: its first two lines, or
 *   its one line) pass {@link UNIQUE_WORK}. Linear in the text's lines plus those candidates.
 *   Does not throw.
 */
export function uniqueRegions(text: string, hunks: ReadonlyArray<{ from: number; to: number; inserted: string }>): boolean[] {
  const cr = crLines(text);
  const view = cr ? lfLines(text) : text;
  /** A part to look for: its text, the line start of its own that is no copy, and the hunk it belongs to. */
  interface Part {
    text: string;
    own: number;
    hunk: number;
  }
  // Each region and made region by the sums of its first two lines (of its one line): one pass over the lines finds the candidates.
  const byOne = new Map<number, Part[]>();
  const byTwo = new Map<number, Part[]>();
  const add = (part: Part): void => {
    if (part.text === '') return;
    const lf = cr ? lfLines(part.text) : part.text;
    const nl = lf.indexOf('\n');
    const first = fnv(part.text, 0, nl === -1 ? part.text.length : nl + 1);
    const second = nl === -1 || nl + 1 === lf.length ? -1 : lf.indexOf('\n', nl + 1);
    const map = nl === -1 || nl + 1 === lf.length ? byOne : byTwo;
    const key = map === byOne ? first & SMALL : pair(first, fnv(part.text, nl + 1, second === -1 ? part.text.length : second + 1));
    const list = map.get(key);
    if (list) list.push(part);
    else map.set(key, [part]);
  };
  hunks.forEach((h, hunk) => {
    // As rebase.ts ambiguous: from the line before the hunk's first through the line its end starts.
    const own = h.from < 2 ? 0 : view.lastIndexOf('\n', h.from - 2) + 1;
    const nl = view.indexOf('\n', h.to);
    const end = nl === -1 ? text.length : nl + 1;
    add({ text: text.slice(own, end), own, hunk });
    add({ text: text.slice(own, h.from) + h.inserted + text.slice(h.to, end), own, hunk });
  });
  const unique = hunks.map(() => true);
  const lines = linesOf(text);
  let work = UNIQUE_WORK;
  let start = 0;
  for (let i = 0; i < lines.count; start = lines.ends[i++]) {
    const one = byOne.get(lines.sums[i] & SMALL);
    const two = i + 1 < lines.count ? byTwo.get(pair(lines.sums[i], lines.sums[i + 1])) : undefined;
    for (const parts of [one, two]) {
      for (const part of parts ?? []) {
        if (!unique[part.hunk] || part.own === start) continue;
        // Past the bound none is marked: a hunk not found to repeat yet may repeat further on.
        if (--work < 0) return hunks.map(() => false);
        if (text.startsWith(part.text, start)) unique[part.hunk] = false;
      }
    }
  }
  return unique;
}

/** Keys cut to 30 bits, which the engine keeps as small integers (a Map of them allocates nothing per lookup); a match is compared anyway. */
const SMALL = 0x3fffffff;

/** One key for the sums of two lines in a row. */
function pair(first: number, second: number): number {
  return (Math.imul(first, 0x01000193) ^ second) & SMALL;
}

/** The part of a hunk {@link placeBySums} needs: `[from, to)`, offsets in the text the sums were taken of. */
export interface SummedRange {
  from: number;
  to: number;
  /** The whole lines the hunk puts there (a reverse hunk's text before), for the ambiguity check of rebase.ts placeHunks. */
  inserted?: string;
  /**
   * True when the hunk's region occurs once in the summed text ({@link uniqueRegions}): on a
   * fingerprint of chunks of several lines it is then placed like any other, as far as the
   * chunks it lies in and the chunk on each side are left untouched.
   */
  unique?: boolean;
}

/**
 * Places ranges of the text `sums` were taken of (its `after`, which is not at hand) on
 * `current`, three-way: the chunks each range lies in become one hunk of the sums' lines, and
 * {@link placeHunks} places it on `current`'s sums (cut with the same stride). A range is placed
 * only where no change from that text to `current` touches its chunks (ends included, so the
 * chunk or line right before and right after are unchanged too, and nothing was inserted at its
 * edges); then its `from` shifts with the chunks before it. The caller still compares the text
 * there with what it expects (a sum can collide).
 * @param sums the fingerprint of the text the ranges are in (from {@link lineSums}).
 * @param current the text now. @param ranges offsets in the summed text, whole lines.
 * A range is null too when, one token a line (`k` 1), its region with the line on each side, as
 * the summed text has it or as `inserted` makes it, occurs elsewhere in the summed text
 * (placeHunks' ambiguity rule); and, chunks of several lines, when any later change removed or
 * replaced a chunk (whether it held another copy cannot be told) unless the range is marked
 * `unique` (its region occurs once in the summed text: there was no other copy).
 * @returns per range, in order, its `from` in `current`, or null when the later changes touch it,
 *   or `sums` does not parse or is shorter than a range's end. Does not throw.
 */
export function placeBySums(sums: LineSums, current: string, ranges: readonly SummedRange[]): Array<number | null> {
  const tokens = sums.sums === '' ? [] : sums.sums.split(' ');
  const starts: number[] = [0];
  for (const t of tokens) {
    const length = /^[0-9a-z]+\.[0-9a-f]{8}$/.test(t) ? parseInt(t, 36) : NaN;
    if (!(length > 0)) return ranges.map(() => null);
    starts.push(starts[starts.length - 1] + length);
  }
  const total = starts[starts.length - 1];
  if (!Number.isInteger(sums.k) || sums.k < 1) return ranges.map(() => null);
  const now = chunksOf(current, linesOf(current), sums.k, sums.cut);
  const nowStarts = [...now.map((c) => c.from), current.length];
  const base = tokens.map((t) => `${t}\n`).join('');
  const lineAt = (list: readonly string[]): number[] => {
    const out = [0];
    for (const t of list) out.push(out[out.length - 1] + t.length + 1);
    return out;
  };
  const baseAt = lineAt(tokens);
  const nowAt = lineAt(now.map((c) => c.token));
  /** The chunk `offset` lies in (tokens.length at the end of the text). */
  const chunkOf = (offset: number): number => {
    let i = 0;
    while (i < tokens.length && starts[i + 1] <= offset) i++;
    return i;
  };
  const hunks = ranges.map((r, index) => {
    const first = chunkOf(r.from);
    const last = r.to > r.from ? chunkOf(r.to - 1) + 1 : starts[first] === r.from ? first : first + 1;
    const from = baseAt[first];
    const to = baseAt[Math.min(last, tokens.length)];
    // One token a line (k 1): what the hunk makes, as tokens, so placeHunks refuses it when that occurs elsewhere too.
    const inserted =
      r.inserted === undefined || sums.k !== 1
        ? ''
        : chunksOf(r.inserted, linesOf(r.inserted), 1, sums.cut)
            .map((c) => `${c.token}\n`)
            .join('');
    return { index, from, to, removed: base.slice(from, to), inserted };
  });
  const nowText = now.map((c) => `${c.token}\n`).join('');
  // Chunks of several lines (k > 1) cannot show whether the later changes removed another copy of a
  // hunk's lines, which the diff would then take for it: once any chunk was removed or replaced, only a
  // range whose region the summed text held once (no other copy to remove) is placed.
  const strict = sums.k !== 1 && buildHunks(base, nowText).some((h) => h.to > h.from);
  const placed = placeHunks(base, nowText, hunks);
  return ranges.map((r, i) => {
    const p = placed[i];
    if (r.to > total || r.from > r.to || p.stale || (strict && r.unique !== true)) return null;
    const chunk = nowAt.indexOf(p.from);
    if (chunk === -1) return null;
    const first = chunkOf(r.from);
    return nowStarts[chunk] + (r.from - (first < tokens.length ? starts[first] : total));
  });
}
