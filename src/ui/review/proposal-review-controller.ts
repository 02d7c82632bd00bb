import { Notice, editorInfoField } from 'obsidian';
import type { EditorView } from '@codemirror/view';
import type { ReviewController } from '../../editor/review-config';
import type { ProposalReview } from '../../proposals/review/proposal-review';
import type { ProposalStore } from '../../proposals/store/proposal-store';

/**
 * The editor's {@link ReviewController} over the proposal store and review: hunks come from
 * ProposalReview.reviewHunks, ✓ records through acceptedInEditor (which re-checks access and
 * protected properties; a refusal is shown as a Notice and the editor reverts), Ctrl+Z of an
 * accept reopens the hunk (reopenedInEditor), ✗ and Reject all record their rejections in one decision (rejectHunks). Every store change refreshes the open editors.
 */
export function proposalReviewController(proposals: ProposalStore, review: ProposalReview): ReviewController {
  const noticeAndRethrow = (err: unknown): never => {
    new Notice(`Vault MCP: ${(err as Error).message}`);
    throw err;
  };
  return {
    hunksFor: (path, text) => review.reviewHunks(path, text),
    accepted: async (hunk, textAfter) => {
      await review.acceptedInEditor(hunk, textAfter).catch(noticeAndRethrow);
    },
    reopened: async (hunk) => {
      await review.reopenedInEditor(hunk).catch(noticeAndRethrow);
    },
    rejected: async (hunks) => {
      await review.rejectHunks(hunks).catch(noticeAndRethrow);
    },
    onChange: (listener) => proposals.onChange(listener),
  };
}

/**
 * The vault path of the note an editor shows, from Obsidian's `editorInfoField`
 * (obsidian.d.ts: the MarkdownFileInfo of the editor), or null when it shows none.
 */
export function notePathOf(view: EditorView): string | null {
  return view.state.field(editorInfoField, false)?.file?.path ?? null;
}
