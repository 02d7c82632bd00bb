/**
 * What the user does with a hunk under review, in an editor: accept (an ordinary, undoable
 * editor transaction, then the proposal store records it), reject, do either for the whole
 * note, find the hunk at the cursor, move to the next or previous one. Which hunks an action
 * takes is decided by the pure functions of hunk-selection.ts.
 */
import { ChangeSet, EditorSelection, type EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { ReviewHunk } from '../proposals/types';
import { canApply, hunkAtPosition, hunkInDirection, hunksToAcceptTogether, sameHunk, type HunkDirection } from './hunk-selection';
import { refreshReviewHunks, reviewConfig, type ReviewController } from './review-config';
import { applyReviewHunks, reviewHunksOf, setReviewHunks } from './review-state';

/** The `userEvent` of an accept transaction (an `input.*` event, so the undo history keeps it as its own step). */
export const ACCEPT_USER_EVENT = 'input.vault-mcp-accept';

/** What {@link acceptAll} did: hunks accepted, and hunks left for review (stale ones, and ones overlapping an accepted hunk). */
export interface AcceptAllResult {
  accepted: number;
  skipped: number;
}

function controllerOf(view: EditorView): ReviewController {
  const config = view.state.facet(reviewConfig);
  if (!config) throw new Error('This editor has no inline review: add reviewExtension(controller, pathOf) to its extensions.');
  return config.controller;
}

/**
 * The hunk under the main cursor ({@link hunkAtPosition} at its head).
 * @returns the hunk as displayed, or null when the cursor is on none
 */
export function hunkAtCursor(state: EditorState): ReviewHunk | null {
  return hunkAtPosition(reviewHunksOf(state), state.doc, state.selection.main.head);
}

/**
 * Accepts one hunk: dispatches an ordinary transaction replacing its range with its
 * proposed text (userEvent {@link ACCEPT_USER_EVENT}, so Ctrl+Z undoes it), then calls
 * `controller.accepted(hunk, textAfter)` with the hunk as it was placed before the change.
 * @param hunk a displayed hunk (matched by proposal id and index to the current placement)
 * @returns false and changes nothing when the hunk is no longer displayed or is stale (or
 *   its text changed); true once the controller has recorded it
 * @throws the controller's error; the document change is reverted first when nothing else
 *   changed the document meanwhile, and the review is refreshed from the controller
 */
export async function acceptHunk(view: EditorView, hunk: ReviewHunk): Promise<boolean> {
  const controller = controllerOf(view);
  const current = reviewHunksOf(view.state).find((h) => sameHunk(h, hunk));
  if (!current || !canApply(view.state.doc, current)) return false;
  const before = view.state.doc;
  const tr = view.state.update({
    changes: { from: current.from, to: current.to, insert: current.inserted },
    effects: applyReviewHunks.of([current]),
    userEvent: ACCEPT_USER_EVENT,
  });
  view.dispatch(tr);
  try {
    await controller.accepted(current, tr.state.doc.toString());
  } catch (err) {
    if (view.state.doc === tr.state.doc) view.dispatch({ changes: tr.changes.invert(before), userEvent: 'input.vault-mcp-revert' });
    refreshReviewHunks(view);
    throw err;
  }
  return true;
}

/**
 * Rejects one hunk: takes it off the display at once, then calls
 * `controller.rejected([hunk], text)`; the document is not changed. Stale hunks can be rejected.
 * @returns false when the hunk is no longer displayed; true once the controller has recorded it
 * @throws the controller's error, after refreshing the review from the controller
 */
export async function rejectHunk(view: EditorView, hunk: ReviewHunk): Promise<boolean> {
  const controller = controllerOf(view);
  const hunks = reviewHunksOf(view.state);
  const current = hunks.find((h) => sameHunk(h, hunk));
  if (!current) return false;
  view.dispatch({ effects: setReviewHunks.of(hunks.filter((h) => h !== current)) });
  try {
    await controller.rejected([current], view.state.doc.toString());
  } catch (err) {
    refreshReviewHunks(view);
    throw err;
  }
  return true;
}

/**
 * Accepts every applicable hunk of the note in one transaction (one undo step). Stale
 * hunks, and hunks overlapping one already chosen, are skipped and stay for review. The
 * controller hears of each accepted hunk last-first (so earlier hunks keep their indices
 * and positions), each with the text as it is once that hunk and those after it are applied.
 * @returns how many were accepted and skipped
 * @throws the first controller error, after refreshing the review (the document keeps the change)
 */
export async function acceptAll(view: EditorView): Promise<AcceptAllResult> {
  const controller = controllerOf(view);
  const hunks = reviewHunksOf(view.state);
  const chosen = hunksToAcceptTogether(hunks, view.state.doc);
  if (!chosen.length) return { accepted: 0, skipped: hunks.length };
  let state = view.state;
  let changes = ChangeSet.empty(state.doc.length);
  const texts: string[] = [];
  for (const hunk of chosen) {
    const step = state.update({ changes: { from: hunk.from, to: hunk.to, insert: hunk.inserted } });
    changes = changes.compose(step.changes);
    state = step.state;
    texts.push(state.doc.toString());
  }
  view.dispatch({ changes, effects: applyReviewHunks.of(chosen), userEvent: ACCEPT_USER_EVENT });
  try {
    for (let i = 0; i < chosen.length; i++) await controller.accepted(chosen[i], texts[i]);
  } catch (err) {
    refreshReviewHunks(view);
    throw err;
  }
  return { accepted: chosen.length, skipped: hunks.length - chosen.length };
}

/**
 * Rejects every displayed hunk of the note (stale ones included): clears the display, then
 * tells the controller of them all at once (one decision: one write of the proposals file, not
 * one per hunk). The document is not changed.
 * @returns how many hunks were rejected
 * @throws the controller's error (none was recorded), after refreshing the review
 */
export async function rejectAll(view: EditorView): Promise<number> {
  const controller = controllerOf(view);
  const hunks = reviewHunksOf(view.state);
  if (!hunks.length) return 0;
  view.dispatch({ effects: setReviewHunks.of([]) });
  const text = view.state.doc.toString();
  try {
    await controller.rejected(hunks, text);
  } catch (err) {
    refreshReviewHunks(view);
    throw err;
  }
  return hunks.length;
}

/**
 * Moves the cursor to the start of the next (1) or previous (-1) hunk, wrapping around the
 * note ({@link hunkInDirection}), and scrolls it to the middle of the editor.
 * @returns false when the note has no hunks
 */
export function moveByHunk(view: EditorView, direction: HunkDirection): boolean {
  const target = hunkInDirection(reviewHunksOf(view.state), view.state.selection.main.head, direction);
  if (!target) return false;
  view.dispatch({ selection: EditorSelection.cursor(target.from), effects: EditorView.scrollIntoView(target.from, { y: 'center' }) });
  return true;
}
