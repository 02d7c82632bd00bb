/**
 * Three-way placement of a proposal's hunks on the note as it is now
 * (docs/architecture.md#proposals: "hunks are rebased onto the new text; one that no longer applies is marked
 * stale, never applied blindly"). The note may have moved on since the proposal's base: the
 * user typed, sync arrived, another proposal was accepted. Pure string work, also used to
 * place an activity entry's undo on the note when it is reverted (activity/activity-revert.ts).
 */
import { buildHunks } from './hunks';
import type { Hunk, PlacedHunk } from './types';

/** One base→current change, with its range in both texts. */
interface NoteChange {
  from: number;
  to: number;
  currentFrom: number;
  currentTo: number;
  inserted: string;
}

/** The line-granular changes from `base` to `current`, in order, with current offsets. */
function noteChanges(base: string, current: string): NoteChange[] {
  let delta = 0;
  return buildHunks(base, current).map((h) => {
    const currentFrom = h.from + delta;
    delta += h.inserted.length - h.removed.length;
    return { from: h.from, to: h.to, currentFrom, currentTo: currentFrom + h.inserted.length, inserted: h.inserted };
  });
}

/**
 * Where base offset `p` lands in the current text. Outside every change it shifts with the
 * changes before it; inside a change (or at an insertion at `p`) it goes to the start of
 * the change's new text when `side` is `start`, to its end when `side` is `end`.
 */
function mapOffset(changes: readonly NoteChange[], p: number, side: 'start' | 'end'): number {
  let delta = 0;
  for (const c of changes) {
    if (p < c.from || (p === c.from && c.from < c.to)) break;
    if (p < c.to || (c.from === c.to && p === c.from)) return side === 'start' ? c.currentFrom : c.currentTo;
    delta = c.currentTo - c.to;
  }
  return p + delta;
}

/** Whether change `c` overlaps or touches hunk `h`: their base ranges meet, ends included. */
function touches(c: NoteChange, h: Hunk): boolean {
  return c.from <= h.to && c.to >= h.from;
}

/**
 * Whether `base` holds `part` starting at a line start, not overlapping `own` (the hunk's own
 * region), where a change meets it (ends included, as {@link touches}): a copy the changes left
 * alone is still where it was, so the note's text at the hunk cannot be it.
 */
function changedCopy(base: string, changes: readonly NoteChange[], part: string, own: { from: number; to: number }): boolean {
  let next = 0; // changes are in order and apart: skip those ending before the copy (linear in copies + changes)
  for (let i = base.indexOf(part); i !== -1; i = base.indexOf(part, i + 1)) {
    const end = i + part.length;
    while (next < changes.length && changes[next].to < i) next++;
    if ((i < own.to && end > own.from) || (i > 0 && base[i - 1] !== '\n')) continue;
    if (next < changes.length && changes[next].from <= end) return true;
  }
  return false;
}

/**
 * Whether hunk `h` cannot be told apart in `base`: its lines with the whole line on each side
 * (its region; the start or end of the text where there is none), as `base` has them or as the
 * hunk makes them, also occur at another line start of `base`, and a change meets that copy.
 * Then the note now may hold that copy where the diff sees this one (the user deleted this block
 * and kept, or edited alike, the other), and placing the hunk would act on the user's lines.
 */
function ambiguous(base: string, changes: readonly NoteChange[], h: Hunk): boolean {
  const start = h.from < 2 ? 0 : base.lastIndexOf('\n', h.from - 2) + 1;
  const nl = base.indexOf('\n', h.to);
  const end = nl === -1 ? base.length : nl + 1;
  const region = base.slice(start, end);
  const made = base.slice(start, h.from) + h.inserted + base.slice(h.to, end);
  const own = { from: start, to: end };
  return (region !== '' && changedCopy(base, changes, region, own)) || (made !== '' && changedCopy(base, changes, made, own));
}

/**
 * Whether `current` holds the region of hunk `h` (its lines with the whole line on each side, as
 * `base` has them: see {@link ambiguous}) at a line start other than where the hunk lands
 * (`ownFrom`, the region's start in `current`), where a change's new text meets it (ends
 * included): a copy made since (pasted, typed, or the other lines edited alike), which `base` did
 * not hold there. The diff may have taken either copy for the hunk's own (two copies side by side
 * read the same whichever was pasted), so the hunk is not placed. A copy no change meets was
 * there in `base` too and is {@link ambiguous}'s to judge. Linear in copies + changes.
 */
function newCopy(base: string, current: string, changes: readonly NoteChange[], h: Hunk, ownFrom: number): boolean {
  const start = h.from < 2 ? 0 : base.lastIndexOf('\n', h.from - 2) + 1;
  const nl = base.indexOf('\n', h.to);
  const region = base.slice(start, nl === -1 ? base.length : nl + 1);
  if (region === '') return false;
  let next = 0;
  for (let i = current.indexOf(region); i !== -1; i = current.indexOf(region, i + 1)) {
    const end = i + region.length;
    while (next < changes.length && changes[next].currentTo < i) next++;
    if (i === ownFrom || (i > 0 && current[i - 1] !== '\n')) continue;
    if (next < changes.length && changes[next].currentFrom <= end) return true;
  }
  return false;
}

/**
 * A hunk placed on the current text: shifted when no change touches it and it is neither
 * {@link ambiguous} nor has a {@link newCopy}, else stale.
 */
function place(base: string, current: string, changes: readonly NoteChange[], h: Hunk): PlacedHunk {
  if (!changes.some((c) => touches(c, h)) && !ambiguous(base, changes, h)) {
    const from = mapOffset(changes, h.from, 'start');
    const start = h.from < 2 ? 0 : base.lastIndexOf('\n', h.from - 2) + 1;
    if (changes.length === 0 || !newCopy(base, current, changes, h, from - (h.from - start)))
      return { ...h, from, to: from + (h.to - h.from), stale: false };
  }
  const from = Math.min(mapOffset(changes, h.from, 'start'), current.length);
  const to = Math.max(from, Math.min(mapOffset(changes, h.to, 'end'), current.length));
  return { ...h, from, to, stale: true };
}

/**
 * Places `hunks` (from `buildHunks(base, proposed)`, offsets in `base`) on `current`, the
 * note's text now, by diffing base→current with jsdiff `diffLines`. Returns one
 * `PlacedHunk` per input hunk, in input order, with `index`/`removed`/`inserted` kept.
 *
 * Staleness rule (conservative): a hunk is `stale` when a base→current change's base range
 * meets the hunk's range with ends included (`change.from <= hunk.to && change.to >=
 * hunk.from`): a change inside it, an insertion at either of its edges, or a change of the
 * line right before or right after it. For a pure insertion that means a change at the
 * same point or of either adjacent line. A hunk whose exact change the note already has is
 * stale here too (the store records accepted hunks, so it never places them again). When
 * `current` differs from `base`, a hunk is stale too when its region (its lines with the whole
 * line on each side, or the start or end of the text), as in `base` or as the hunk makes it,
 * also starts at another line of `base` and a change meets that copy: which copy the note now
 * holds cannot be told from the text, so it is never guessed (docs/agent-activity.md#reverting); and when
 * `current` holds its region as in `base` at another line start where a change's new text meets
 * it (a copy made since, say pasted right above it). A non-stale hunk is shifted by the
 * changes before it and `current.slice(from, to) === removed` holds. A stale hunk gets
 * best-effort offsets: where its range lands in `current`, an edge inside (or at an
 * insertion at) a change going to that change's new text, clamped, `from <= to`.
 * When `base === current` the placement is the identity. Does not throw.
 */
export function placeHunks(base: string, current: string, hunks: readonly Hunk[]): PlacedHunk[] {
  const changes = noteChanges(base, current);
  return hunks.map((h) => place(base, current, changes, h));
}
