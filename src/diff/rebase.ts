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

/** A hunk placed on the current text: shifted when no change touches it, else stale. */
function place(changes: readonly NoteChange[], h: Hunk, currentLength: number): PlacedHunk {
  if (!changes.some((c) => touches(c, h))) {
    const from = mapOffset(changes, h.from, 'start');
    return { ...h, from, to: from + (h.to - h.from), stale: false };
  }
  const from = Math.min(mapOffset(changes, h.from, 'start'), currentLength);
  const to = Math.max(from, Math.min(mapOffset(changes, h.to, 'end'), currentLength));
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
 * stale here too (the store records accepted hunks, so it never places them again). A non-stale hunk is shifted by the
 * changes before it and `current.slice(from, to) === removed` holds. A stale hunk gets
 * best-effort offsets: where its range lands in `current`, an edge inside (or at an
 * insertion at) a change going to that change's new text, clamped, `from <= to`.
 * When `base === current` the placement is the identity. Does not throw.
 */
export function placeHunks(base: string, current: string, hunks: readonly Hunk[]): PlacedHunk[] {
  const changes = noteChanges(base, current);
  return hunks.map((h) => place(changes, h, current.length));
}
