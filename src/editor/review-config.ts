/**
 * What the inline review needs from outside the editor: the proposal store behind a small
 * interface (implemented in proposals/, wired by ui/), and which note an editor shows.
 */
import { Facet } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import type { ReviewHunk } from '../proposals/types';
import { reviewHunksField, setReviewHunks } from './review-state';

/** What the inline review needs from the proposal store (implemented in proposals/, wired by ui/). */
export interface ReviewController {
  /** Undecided hunks of every pending proposal on `path`, placed on `text` (the editor's doc). */
  hunksFor(path: string, text: string): ReviewHunk[];
  /** The user accepted `hunk`; the editor already applied it by a transaction; `textAfter` is the doc after. */
  accepted(hunk: ReviewHunk, textAfter: string): void | Promise<void>;
  /**
   * The user undid the accept of `hunk` (Ctrl+Z; the doc is back as it was, `text`): it
   * awaits review again. Optional: without it an undone accept stays recorded as accepted.
   */
  reopened?(hunk: ReviewHunk, text: string): void | Promise<void>;
  /** The user rejected `hunks` (one ✗, or Reject all: recorded together, all or none; the doc, `text`, is unchanged). */
  rejected(hunks: readonly ReviewHunk[], text: string): void | Promise<void>;
  /** Subscribes to proposal changes (new, decided, stale) on any note; returns an unsubscribe. */
  onChange(listener: () => void): () => void;
}

/**
 * The vault path of the note an editor shows, or null when it shows none. In Obsidian:
 * `view.state.field(editorInfoField).file?.path`.
 */
export type PathOf = (view: EditorView) => string | null;

/** The controller and path lookup one editor's review uses. */
export interface ReviewConfig {
  controller: ReviewController;
  pathOf: PathOf;
}

/** Holds the {@link ReviewConfig} of the review extension (the first one provided wins). */
export const reviewConfig = Facet.define<ReviewConfig, ReviewConfig | null>({
  combine: (values) => values[0] ?? null,
});

/**
 * Asks the controller for the hunks of the note `view` shows, placed on its current
 * document, and puts them in the review field (nothing is dispatched when both the old and
 * the new set are empty). Does nothing without the review extension or a note path.
 * @param view an editor with {@link reviewConfig}; must not be in the middle of an update
 */
export function refreshReviewHunks(view: EditorView): void {
  const config = view.state.facet(reviewConfig);
  if (!config) return;
  const path = config.pathOf(view);
  const hunks = path ? config.controller.hunksFor(path, view.state.doc.toString()) : [];
  if (!hunks.length && !view.state.field(reviewHunksField, false)?.length) return;
  view.dispatch({ effects: setReviewHunks.of(hunks) });
}
