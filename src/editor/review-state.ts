/**
 * The state field of the hunks shown for review in one editor, and the effects that set
 * them. Between two refreshes from the proposal store, positions follow the user's typing
 * (mapped through each transaction's changes); a hunk whose text a change touches turns
 * stale, so it can only be rejected and is never applied over the user's typing.
 */
import { StateEffect, StateField, type ChangeDesc, type ChangeSet, type EditorState, type Transaction } from '@codemirror/state';
import type { ReviewHunk } from '../proposals/types';
import { hunksConflict, sameHunk } from './hunk-selection';

/** Replaces the displayed hunks (positions in the document after the transaction). */
export const setReviewHunks = StateEffect.define<readonly ReviewHunk[]>();

/** Maps hunk positions through a change (for effects the undo history carries). */
function mapHunkPositions(hunks: readonly ReviewHunk[], mapping: ChangeDesc): readonly ReviewHunk[] {
  return hunks.map((h) => {
    const from = mapping.mapPos(h.from, 1);
    return { ...h, from, to: h.from === h.to ? from : Math.max(from, mapping.mapPos(h.to, -1)) };
  });
}

/**
 * Marks a transaction as applying these hunks (accept): they leave the field, and the
 * other hunks turn stale only when their range overlaps an applied one (adjacency is fine).
 * Positions are those before the transaction. Redoing an undone accept carries it again
 * (see review-undo.ts).
 */
export const applyReviewHunks = StateEffect.define<readonly ReviewHunk[]>({ map: mapHunkPositions });

/**
 * Carried by the undo of an accept (review-undo.ts, through the history's inverted effects):
 * these hunks, placed as before the accept (positions in the document after the undo), are
 * undecided again.
 */
export const unapplyReviewHunks = StateEffect.define<readonly ReviewHunk[]>({ map: mapHunkPositions });

/** Hunks in document order (by `from`, insertions before replacements at one point, then proposal and index). */
function sortHunks(hunks: readonly ReviewHunk[]): readonly ReviewHunk[] {
  return [...hunks].sort((a, b) => a.from - b.from || a.to - b.to || a.proposalId.localeCompare(b.proposalId) || a.index - b.index);
}

/** The hunks a transaction applies: those named by {@link applyReviewHunks}, else changes that replace a hunk's range by exactly its text (an accept made in another view of the note). */
function appliedBy(tr: Transaction, hunks: readonly ReviewHunk[]): { applied: ReviewHunk[]; declared: boolean } {
  const declared = tr.effects.filter((e) => e.is(applyReviewHunks)).flatMap((e) => e.value);
  if (declared.length) return { applied: hunks.filter((h) => declared.some((d) => sameHunk(d, h))), declared: true };
  const applied: ReviewHunk[] = [];
  tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    const hit = hunks.find((h) => !h.stale && h.from === fromA && h.to === toA && h.inserted === inserted.toString());
    if (hit) applied.push(hit);
  });
  return { applied, declared: false };
}

/** Whether a change of the old document's `[fromA, toA]` touches `hunk` (inside or right at its ends). */
function touches(fromA: number, toA: number, hunk: ReviewHunk): boolean {
  return fromA <= hunk.to && toA >= hunk.from;
}

/** Maps a hunk's range through `changes`: its ends stay around the text they enclose. */
function mapRange(hunk: ReviewHunk, changes: ChangeSet): { from: number; to: number } {
  if (hunk.from === hunk.to) {
    const at = changes.mapPos(hunk.from, 1);
    return { from: at, to: at };
  }
  const from = changes.mapPos(hunk.from, 1);
  return { from, to: Math.max(from, changes.mapPos(hunk.to, -1)) };
}

/** The field's value after a document change: applied hunks dropped, the rest mapped, touched ones stale. */
function mapHunks(hunks: readonly ReviewHunk[], tr: Transaction): readonly ReviewHunk[] {
  const { applied, declared } = appliedBy(tr, hunks);
  const userChanges: Array<[number, number]> = [];
  if (!declared) {
    tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
      if (!applied.some((h) => h.from === fromA && h.to === toA && h.inserted === inserted.toString())) userChanges.push([fromA, toA]);
    });
  }
  const next: ReviewHunk[] = [];
  for (const hunk of hunks) {
    if (applied.includes(hunk)) continue;
    const stale = hunk.stale || applied.some((a) => hunksConflict(a, hunk)) || userChanges.some(([a, b]) => touches(a, b, hunk));
    next.push({ ...hunk, ...mapRange(hunk, tr.changes), stale });
  }
  return next;
}

/**
 * The hunks shown in this editor, in document order. Set by {@link setReviewHunks} (from
 * the proposal store, placed on the current document); on each document change the
 * positions are mapped, applied hunks leave, and a hunk whose range a change touches
 * (inside or at its ends) becomes `stale: true`. Effects apply after the mapping, so a
 * `setReviewHunks` in a transaction with changes is read in the new document's positions.
 */
export const reviewHunksField = StateField.define<readonly ReviewHunk[]>({
  create: () => [],
  update(hunks, tr) {
    let next = tr.docChanged && hunks.length ? mapHunks(hunks, tr) : hunks;
    for (const effect of tr.effects) if (effect.is(setReviewHunks)) next = sortHunks(effect.value);
    return next;
  },
});

/** The hunks on display in `state`, in document order, or none without the review field. */
export function reviewHunksOf(state: EditorState): readonly ReviewHunk[] {
  return state.field(reviewHunksField, false) ?? [];
}
