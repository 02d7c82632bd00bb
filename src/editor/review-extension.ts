/**
 * The inline review as one CodeMirror extension (what `registerEditorExtension` receives):
 * the review field, its decorations, the review bar, Ctrl+Z reopening an accepted hunk
 * (review-undo.ts), and a view plugin that keeps each editor's hunks in step with the proposal store.
 */
import type { Extension } from '@codemirror/state';
import { ViewPlugin, type EditorView, type ViewUpdate } from '@codemirror/view';
import { reviewBar } from './review-bar';
import { refreshReviewHunks, reviewConfig, type PathOf, type ReviewController } from './review-config';
import { reviewDecorationsField } from './review-decorations';
import { reviewHunksField } from './review-state';
import { reviewUndo } from './review-undo';

/**
 * Keeps one editor's hunks in step with the store: refreshes on creation, on every
 * `controller.onChange`, and when the editor switches to another note; unsubscribes on
 * destroy. Refreshes run in a microtask (never inside an editor update) and coalesce.
 */
class ReviewSync {
  private readonly unsubscribe: () => void;
  private path: string | null;
  private scheduled = false;
  private destroyed = false;

  constructor(private readonly view: EditorView) {
    const config = view.state.facet(reviewConfig)!;
    this.path = config.pathOf(view);
    this.unsubscribe = config.controller.onChange(() => this.schedule());
    this.schedule();
  }

  update(update: ViewUpdate): void {
    const path = update.state.facet(reviewConfig)!.pathOf(update.view);
    if (path !== this.path) {
      this.path = path;
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (!this.destroyed) refreshReviewHunks(this.view);
    });
  }

  destroy(): void {
    this.destroyed = true;
    this.unsubscribe();
  }
}

/**
 * The inline review for editors showing notes with pending proposals.
 * @param controller the proposal store's side (see {@link ReviewController}); it reports its
 *   own refusals to the user: a failed accept/reject is only logged by the editor
 * @param pathOf the vault path of the note an editor shows (null for none)
 * @returns the extension: the review field and decorations, the review bar, and the sync
 *   plugin; each editor (two panes on one note included) subscribes on its own
 */
export function reviewExtension(controller: ReviewController, pathOf: PathOf): Extension {
  return [
    reviewConfig.of({ controller, pathOf }),
    reviewHunksField,
    reviewDecorationsField,
    reviewBar,
    reviewUndo,
    ViewPlugin.fromClass(ReviewSync),
  ];
}
