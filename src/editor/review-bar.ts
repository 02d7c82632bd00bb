/**
 * The review bar: a CodeMirror panel at the top of an editor whose note has hunks under
 * review, saying how many and from which keys, with Accept all / Reject all.
 */
import { showPanel, type EditorView, type Panel, type ViewUpdate } from '@codemirror/view';
import type { ReviewHunk } from '../proposals/types';
import { acceptAll, rejectAll } from './review-actions';
import { reviewHunksField } from './review-state';
import { addElement, makeElement } from './dom';

/**
 * The bar's sentence for `hunks`, e.g. "3 pending changes from Claude Code, Cursor (1 stale)".
 * Labels are listed once each, in order of first appearance.
 */
function reviewSummary(hunks: readonly ReviewHunk[]): string {
  const labels = [...new Set(hunks.map((h) => h.keyLabel))];
  const stale = hunks.filter((h) => h.stale).length;
  const count = `${hunks.length} pending change${hunks.length === 1 ? '' : 's'} from ${labels.join(', ')}`;
  return stale ? `${count} (${stale} stale)` : count;
}

function createReviewBar(view: EditorView): Panel {
  const dom = makeElement(view.dom.ownerDocument, 'div', {
    cls: 'vault-mcp-review-bar',
    attr: { role: 'toolbar', 'aria-label': 'Pending changes in this note' },
  });
  const summary = addElement(dom, 'span', { cls: 'vault-mcp-review-summary' });
  const message = addElement(dom, 'span', { cls: 'vault-mcp-review-message' });
  const acceptButton = addElement(dom, 'button', {
    cls: ['vault-mcp-review-accept-all', 'mod-cta'],
    text: 'Accept all',
    attr: { type: 'button' },
  });
  const rejectButton = addElement(dom, 'button', { cls: 'vault-mcp-review-reject-all', text: 'Reject all', attr: { type: 'button' } });

  const render = (): void => {
    const hunks = view.state.field(reviewHunksField, false) ?? [];
    const text = reviewSummary(hunks);
    if (summary.textContent !== text) summary.textContent = text;
    const applicable = hunks.filter((h) => !h.stale).length;
    acceptButton.disabled = applicable === 0;
    acceptButton.title =
      applicable === hunks.length
        ? `Accept ${applicable === 1 ? 'the change' : `all ${applicable} changes`}`
        : `Accept the ${applicable} changes that still apply; stale ones are skipped`;
    rejectButton.title = `Reject ${hunks.length === 1 ? 'the change' : `all ${hunks.length} changes`}`;
  };
  const report = (err: unknown): void => {
    message.textContent = 'Could not record the decision; see the console.';
    console.error('Vault MCP: review bar action failed', err);
  };
  acceptButton.addEventListener('click', () => {
    message.textContent = '';
    acceptAll(view).then(({ accepted, skipped }) => {
      if (skipped)
        message.textContent = `Accepted ${accepted}; skipped ${skipped} stale: reject ${skipped === 1 ? 'it' : 'them'} or ask the agent again.`;
    }, report);
  });
  rejectButton.addEventListener('click', () => {
    message.textContent = '';
    rejectAll(view).catch(report);
  });
  render();
  return {
    dom,
    top: true,
    update(update: ViewUpdate) {
      if (update.startState.field(reviewHunksField, false) !== update.state.field(reviewHunksField, false)) render();
    },
  };
}

/** Shows the review bar while the editor's review field holds hunks. */
export const reviewBar = showPanel.from(reviewHunksField, (hunks) => (hunks.length ? createReviewBar : null));
