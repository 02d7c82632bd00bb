/**
 * Ctrl+Z after accepting a hunk in the editor reopens that hunk (issue 19): an accept is an
 * ordinary transaction carrying `applyReviewHunks`; the undo history (`invertedEffects` of
 * @codemirror/commands, which Obsidian's editor uses) gives its undo `unapplyReviewHunks`,
 * and the redo of that undo `applyReviewHunks` again. A listener tells the controller: an
 * undone accept is `reopened` (the hunk awaits review again), a redone one `accepted` anew.
 */
import { invertedEffects } from '@codemirror/commands';
import type { Extension, Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { ReviewHunk } from '../proposals/types';
import { reviewConfig } from './review-config';
import { applyReviewHunks, unapplyReviewHunks } from './review-state';

/** The history's inverse of an accept (and of its undo). */
const acceptInversion = invertedEffects.of((tr: Transaction) =>
  tr.effects.flatMap((e) =>
    e.is(applyReviewHunks) ? [unapplyReviewHunks.of(e.value)] : e.is(unapplyReviewHunks) ? [applyReviewHunks.of(e.value)] : [],
  ),
);

/** Tells the controller about undone and redone accepts; its refusals are its own to show, the editor only logs them. */
const undoFollower = EditorView.updateListener.of((update) => {
  const config = update.state.facet(reviewConfig);
  if (!config) return;
  const text = update.state.doc.toString();
  const report = (err: unknown): void => console.error('Vault MCP: recording an undone or redone accept failed', err);
  for (const tr of update.transactions) {
    const undo = tr.isUserEvent('undo');
    const redo = tr.isUserEvent('redo');
    if (!undo && !redo) continue;
    for (const effect of tr.effects) {
      const hunks: readonly ReviewHunk[] = effect.is(unapplyReviewHunks) || effect.is(applyReviewHunks) ? effect.value : [];
      for (const hunk of hunks) {
        if (effect.is(unapplyReviewHunks)) void Promise.resolve(config.controller.reopened?.(hunk, text)).catch(report);
        else if (redo) void Promise.resolve(config.controller.accepted(hunk, text)).catch(report);
      }
    }
  }
});

/** The undo/redo half of the inline review (added by reviewExtension). */
export const reviewUndo: Extension = [acceptInversion, undoFollower];
