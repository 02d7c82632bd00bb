/**
 * Which hunks a review action acts on, as pure functions of the displayed hunks (in document
 * order, as the review field holds them) and the document: how hunks relate, the hunk at a
 * position, the set "accept all" can apply together, the next or previous hunk. No views, no
 * dispatches, no controller: review-actions.ts does those.
 */
import type { Text } from '@codemirror/state';
import type { ReviewHunk } from '../proposals/types';

/** Which way {@link hunkInDirection} moves: 1 to the next hunk, -1 to the previous one. */
export type HunkDirection = 1 | -1;

/** True when `a` and `b` are the same hunk of the same proposal. */
export function sameHunk(a: ReviewHunk, b: ReviewHunk): boolean {
  return a.proposalId === b.proposalId && a.index === b.index;
}

/**
 * Whether applying `applied` changes text that `other` covers: their ranges overlap, or both
 * are insertions at one point (their order would be a guess).
 */
export function hunksConflict(applied: ReviewHunk, other: ReviewHunk): boolean {
  if (applied.from === applied.to && other.from === other.to) return applied.from === other.from;
  return applied.from < other.to && other.from < applied.to;
}

/** Whether `hunk` can be applied to `doc`: not stale, and its range still holds exactly the text it removes. */
export function canApply(doc: Text, hunk: ReviewHunk): boolean {
  return !hunk.stale && hunk.to <= doc.length && doc.sliceString(hunk.from, hunk.to) === hunk.removed;
}

/**
 * The hunk on the line of `pos` (an offset in `doc`): one whose lines include that line (a pure
 * insertion counts on the line it is inserted before), the first in document order.
 * @returns the hunk, or null when the line has none
 */
export function hunkAtPosition(hunks: readonly ReviewHunk[], doc: Text, pos: number): ReviewHunk | null {
  const line = doc.lineAt(pos).number;
  return hunks.find((h) => doc.lineAt(h.from).number <= line && line <= doc.lineAt(Math.max(h.from, h.to - 1)).number) ?? null;
}

/**
 * The hunks "accept all" applies together, last-first (so applying them in this order keeps
 * the earlier ones' positions): every one that {@link canApply}, except one that conflicts
 * with a later one already chosen. The rest stay for review.
 */
export function hunksToAcceptTogether(hunks: readonly ReviewHunk[], doc: Text): ReviewHunk[] {
  const chosen: ReviewHunk[] = [];
  for (let i = hunks.length - 1; i >= 0; i--) {
    const hunk = hunks[i];
    if (canApply(doc, hunk) && !chosen.some((c) => hunksConflict(c, hunk) || hunksConflict(hunk, c))) chosen.push(hunk);
  }
  return chosen;
}

/**
 * The hunk to move to from `pos`: forward (1) the first one starting after it, else the first;
 * backward (-1) the last one starting before it, else the last (both wrap around the note).
 * @returns null when there are no hunks
 */
export function hunkInDirection(hunks: readonly ReviewHunk[], pos: number, direction: HunkDirection): ReviewHunk | null {
  const ordered = direction === 1 ? hunks : [...hunks].reverse();
  return ordered.find((h) => (direction === 1 ? h.from > pos : h.from < pos)) ?? ordered[0] ?? null;
}
