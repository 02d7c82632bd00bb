/**
 * Three-way placement of a proposal's hunks on the note as it is now (DESIGN.md,
 * "Proposals": "hunks are rebased onto the new text; one that no longer applies is marked
 * stale, never applied blindly"). The note may have moved on since the proposal's base: the
 * user typed, sync arrived, another proposal was accepted. Pure string work.
 */
import { applyHunks, buildHunks } from './hunks';
import type { Hunk, PlacedHunk } from './types';

/** A proposal moved onto the note's current text (see `rebaseProposal`). */
export interface RebasedProposal {
  /** The new base: the current text. */
  base: string;
  /** The current text with every hunk that still applies cleanly applied. */
  proposed: string;
  /** Hunks (offsets in the OLD base) the note changed at or right next to: not carried over. */
  stale: Hunk[];
  /** Hunks (offsets in the OLD base) whose exact change the current text already has. */
  applied: Hunk[];
}

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

/** A hunk placed on the current text, and whether its very change is already there. */
function place(changes: readonly NoteChange[], h: Hunk, currentLength: number): { placed: PlacedHunk; applied: boolean } {
  const hit = changes.filter((c) => touches(c, h));
  if (hit.length === 0) {
    const from = mapOffset(changes, h.from, 'start');
    return { placed: { ...h, from, to: from + (h.to - h.from), stale: false }, applied: false };
  }
  const from = Math.min(mapOffset(changes, h.from, 'start'), currentLength);
  const to = Math.max(from, Math.min(mapOffset(changes, h.to, 'end'), currentLength));
  const applied = hit.length === 1 && hit[0].from === h.from && hit[0].to === h.to && hit[0].inserted === h.inserted;
  return { placed: { ...h, from, to, stale: true }, applied };
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
 * stale here too (`rebaseProposal` tells it apart). A non-stale hunk is shifted by the
 * changes before it and `current.slice(from, to) === removed` holds. A stale hunk gets
 * best-effort offsets: where its range lands in `current`, an edge inside (or at an
 * insertion at) a change going to that change's new text, clamped, `from <= to`.
 * When `base === current` the placement is the identity. Does not throw.
 */
export function placeHunks(base: string, current: string, hunks: readonly Hunk[]): PlacedHunk[] {
  const changes = noteChanges(base, current);
  return hunks.map((h) => place(changes, h, current.length).placed);
}

/**
 * The proposal (base → proposed) moved onto `current`: the new base is `current`, the new
 * proposed text is `current` with every non-stale placed hunk applied. `stale` lists the
 * hunks (numbered and offset as in the OLD base) the note changed at, which are dropped;
 * `applied` lists those whose exact change `current` already has (the same lines replaced
 * by the same text), also dropped. Used by the proposal store when the note changed under
 * a proposal. To decide one hunk of a proposal whose base is not the note's text, rebase
 * `withoutHunk(base, proposed, index)` onto the note after the decision (after `onlyHunk`
 * for an accept), so the decided hunk can never be applied twice. Does not throw.
 */
export function rebaseProposal(base: string, proposed: string, current: string): RebasedProposal {
  const changes = noteChanges(base, current);
  const stale: Hunk[] = [];
  const applied: Hunk[] = [];
  const clean: PlacedHunk[] = [];
  for (const h of buildHunks(base, proposed)) {
    const result = place(changes, h, current.length);
    if (!result.placed.stale) clean.push(result.placed);
    else (result.applied ? applied : stale).push(h);
  }
  return { base: current, proposed: applyHunks(current, clean), stale, applied };
}
