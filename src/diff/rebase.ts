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

/** A range of a text: `[from, to)`. */
interface Range {
  from: number;
  to: number;
}

/**
 * Whether `text` holds `part` starting at a line start, other than where `skip` says, where one
 * of `changed` (ranges of `text` a change covers, in order and apart) meets it, ends included as
 * {@link touches}. Linear in copies + ranges (those ending before a copy are skipped once).
 */
function copyMet(text: string, part: string, changed: readonly Range[], skip: (from: number, to: number) => boolean): boolean {
  let next = 0;
  for (let i = text.indexOf(part); i !== -1; i = text.indexOf(part, i + 1)) {
    const end = i + part.length;
    while (next < changed.length && changed[next].to < i) next++;
    if (skip(i, end) || (i > 0 && text[i - 1] !== '\n')) continue;
    if (next < changed.length && changed[next].from <= end) return true;
  }
  return false;
}

/** The region of hunk `h` in `base`: its lines with the whole line on each side (the start or end of the text where there is none). */
function regionOf(base: string, h: Hunk): Range {
  const nl = base.indexOf('\n', h.to);
  return { from: h.from < 2 ? 0 : base.lastIndexOf('\n', h.from - 2) + 1, to: nl === -1 ? base.length : nl + 1 };
}

/**
 * Whether hunk `h` cannot be told apart in `base`: its region ({@link regionOf}), as `base` has
 * it or as the hunk makes it, also occurs at another line start of `base` (not overlapping it),
 * and a change meets that copy (a copy the changes left alone is still where it was, so the
 * note's text at the hunk cannot be it). Then the note now may hold that copy where the diff sees
 * this one (the user deleted this block and kept, or edited alike, the other), and placing the
 * hunk would act on the user's lines.
 */
function ambiguous(base: string, changes: readonly NoteChange[], h: Hunk, own: Range): boolean {
  const region = base.slice(own.from, own.to);
  const made = base.slice(own.from, h.from) + h.inserted + base.slice(h.to, own.to);
  const skip = (from: number, to: number): boolean => from < own.to && to > own.from;
  return (region !== '' && copyMet(base, region, changes, skip)) || (made !== '' && copyMet(base, made, changes, skip));
}

/**
 * Whether hunk `h` adds lines at the end of `base` and the only changes touching it added lines
 * at the end too, ending in a line break as `current` does (an accepted append, the user's new
 * last lines): nothing of the note is under
 * it, so it goes after them (two appends to one log or inbox both land, in the order accepted).
 * A change of the last line itself still touches it, and lines added at one point inside the
 * note stay a conflict (their order there is the user's call).
 */
function appendsAfter(base: string, current: string, changes: readonly NoteChange[], h: Hunk): boolean {
  const end = base.length;
  if (h.from !== end || h.to !== end || (end > 0 && base[end - 1] !== '\n')) return false;
  // The lines added since must end in a line break too, or the hunk's first line would join their last.
  if (current.length > 0 && !current.endsWith('\n')) return false;
  const touching = changes.filter((c) => touches(c, h));
  return touching.length > 0 && touching.every((c) => c.from === end && c.to === end);
}

/**
 * A hunk placed on the current text: shifted when no change touches it and it is not
 * {@link ambiguous}, nor does `current` hold its region as in `base` at another line start where
 * a change's new text (`changed`) meets it: a copy made since (pasted, typed, or other lines
 * edited alike), which the diff may have taken for the hunk's own (two copies side by side read
 * the same whichever was pasted); a copy no change meets was in `base` too and is
 * {@link ambiguous}'s to judge. Else stale.
 */
function place(
  base: string,
  current: string,
  changes: readonly NoteChange[],
  changed: readonly Range[],
  h: Hunk,
  afterAppends: boolean,
): PlacedHunk {
  const own = regionOf(base, h);
  const appended = afterAppends && appendsAfter(base, current, changes, h);
  if ((appended || !changes.some((c) => touches(c, h))) && !ambiguous(base, changes, h, own)) {
    const from = mapOffset(changes, h.from, 'start');
    const ownFrom = from - (h.from - own.from);
    if (changes.length === 0 || own.to === own.from || !copyMet(current, base.slice(own.from, own.to), changed, (i) => i === ownFrom)) {
      // Lines added at the end since go first, as they came first: the hunk goes after them.
      const at = appended ? current.length : from;
      return { ...h, from: at, to: at + (h.to - h.from), stale: false };
    }
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
 * same point or of either adjacent line; with `options.afterAppends`, lines added at the end of a
 * note ending in a line break are the exception when the changes there only added lines after it
 * ({@link appendsAfter}): it goes after them. A hunk whose exact change the note already has is
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
export function placeHunks(base: string, current: string, hunks: readonly Hunk[], options: PlaceOptions = {}): PlacedHunk[] {
  const changes = noteChanges(base, current);
  const changed = changes.map((c) => ({ from: c.currentFrom, to: c.currentTo }));
  return hunks.map((h) => place(base, current, changes, changed, h, options.afterAppends === true));
}

/** How {@link placeHunks} treats lines added at the end of the note since its base. */
export interface PlaceOptions {
  /**
   * True for a proposal's hunks: an append goes after lines added at the end since (an accepted
   * append, the user's new last lines) instead of going stale. False (the default) for an undo,
   * which puts back lines where they were and must not move them past newer ones.
   */
  afterAppends?: boolean;
}
