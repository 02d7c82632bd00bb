/**
 * The block widget under a hunk's removed lines: the proposed text (changed words
 * emphasized), the key label as provenance, and ✓ / ✗ buttons (only ✗ and a "stale" badge
 * when the hunk can no longer apply).
 */
import { WidgetType, type EditorView } from '@codemirror/view';
import type { ReviewHunk, WordPart } from '../proposals/types';
import { acceptHunk, rejectHunk } from './review-actions';

/** Runs a review action from a click; a failure is logged (the controller tells the user why it refused). */
function run(action: Promise<unknown>): void {
  action.catch((err: unknown) => console.error('Vault MCP: inline review action failed', err));
}

function button(doc: Document, cls: string, text: string, label: string, onClick: () => void): HTMLButtonElement {
  const el = doc.createElement('button');
  el.className = `vault-mcp-hunk-button ${cls}`;
  el.type = 'button';
  el.textContent = text;
  el.setAttribute('aria-label', label);
  el.title = label;
  // Keep the editor's focus and selection: the click alone acts.
  el.addEventListener('mousedown', (e) => e.preventDefault());
  el.addEventListener('click', (e) => {
    e.preventDefault();
    onClick();
  });
  return el;
}

/**
 * Draws the proposed text as lines: `same` parts plain, `inserted` parts in
 * `vault-mcp-inserted-word` spans; `removed` parts are skipped (they are in the document).
 */
function insertedLines(doc: Document, parts: readonly WordPart[]): HTMLElement {
  const box = doc.createElement('div');
  box.className = 'vault-mcp-inserted';
  let line = doc.createElement('div');
  line.className = 'vault-mcp-inserted-line';
  const lines = [line];
  for (const part of parts) {
    if (part.kind === 'removed') continue;
    part.text.split('\n').forEach((piece, i) => {
      if (i > 0) {
        line = doc.createElement('div');
        line.className = 'vault-mcp-inserted-line';
        lines.push(line);
      }
      if (!piece) return;
      if (part.kind === 'inserted') {
        const span = doc.createElement('span');
        span.className = 'vault-mcp-inserted-word';
        span.textContent = piece;
        line.appendChild(span);
      } else {
        line.appendChild(doc.createTextNode(piece));
      }
    });
  }
  // A proposed text ends with its line break: no empty line after it.
  if (lines.length > 1 && !lines[lines.length - 1]!.childNodes.length) lines.pop();
  for (const l of lines) {
    if (!l.childNodes.length) l.appendChild(doc.createElement('br'));
    box.appendChild(l);
  }
  return box;
}

/**
 * A hunk's proposed text and its ✓ / ✗ buttons, as a CodeMirror block widget.
 * `parts` is the word diff of the hunk's removed and inserted text (only `same` and
 * `inserted` parts are drawn). Buttons act on the hunk with the same proposal id and index
 * as currently displayed, so they stay right while the user types elsewhere.
 */
export class HunkWidget extends WidgetType {
  constructor(readonly hunk: ReviewHunk, readonly parts: readonly WordPart[]) {
    super();
  }

  /** Same proposal, index, label, text and staleness draw the same widget (its DOM is kept). */
  override eq(other: HunkWidget): boolean {
    const a = this.hunk;
    const b = other.hunk;
    return a.proposalId === b.proposalId && a.index === b.index && a.keyLabel === b.keyLabel && a.inserted === b.inserted && a.removed === b.removed && a.stale === b.stale;
  }

  override toDOM(view: EditorView): HTMLElement {
    const doc = view.dom.ownerDocument;
    const hunk = this.hunk;
    const root = doc.createElement('div');
    root.className = 'vault-mcp-hunk';
    if (hunk.stale) root.classList.add('is-stale');
    if (!hunk.inserted) root.classList.add('is-deletion');
    root.dataset.proposalId = hunk.proposalId;
    root.dataset.hunkIndex = String(hunk.index);
    if (hunk.inserted) root.appendChild(insertedLines(doc, this.parts));

    const actions = doc.createElement('div');
    actions.className = 'vault-mcp-hunk-actions';
    const label = doc.createElement('span');
    label.className = 'vault-mcp-hunk-label';
    label.textContent = hunk.keyLabel;
    actions.appendChild(label);
    if (hunk.stale) {
      const badge = doc.createElement('span');
      badge.className = 'vault-mcp-hunk-stale';
      badge.textContent = 'stale';
      badge.title = 'The note changed here since the proposal; it can only be rejected.';
      actions.appendChild(badge);
    } else {
      actions.appendChild(button(doc, 'mod-accept', '✓', `Accept change from ${hunk.keyLabel}`, () => run(acceptHunk(view, hunk))));
    }
    actions.appendChild(button(doc, 'mod-reject', '✗', `Reject change from ${hunk.keyLabel}`, () => run(rejectHunk(view, hunk))));
    root.appendChild(actions);
    return root;
  }

  /** The widget handles its own clicks; the editor ignores events inside it. */
  override ignoreEvent(): boolean {
    return true;
  }
}
