/**
 * The block widget under a hunk's removed lines: the proposed text (changed words
 * emphasized), the key label as provenance, and ✓ / ✗ buttons (only ✗ and a "stale" badge
 * when the hunk can no longer apply).
 */
import { WidgetType, type EditorView } from '@codemirror/view';
import type { WordPart } from '../diff/types';
import type { ReviewHunk } from '../proposals/types';
import { acceptHunk, rejectHunk } from './review-actions';
import { addElement, makeElement } from './dom';
import { visibleText } from '../diff/visible-text';

/** Runs a review action from a click; a failure is logged (the controller tells the user why it refused). */
function run(action: Promise<unknown>): void {
  action.catch((err: unknown) => console.error('Vault MCP: inline review action failed', err));
}

/** Adds a ✓ / ✗ button to `parent` that acts on click without taking the editor's focus. */
function addButton(parent: HTMLElement, cls: string, text: string, label: string, onClick: () => void): HTMLButtonElement {
  const el = addElement(parent, 'button', {
    cls: ['vault-mcp-hunk-button', cls],
    text,
    attr: { type: 'button', 'aria-label': label, title: label },
  });
  // Keep the editor's focus and selection: the click alone acts.
  el.addEventListener('mousedown', (e) => e.preventDefault());
  el.addEventListener('click', (e) => {
    e.preventDefault();
    onClick();
  });
  return el;
}

/**
 * What a hunk that only adds or only removes the note's final line break says, as diff
 * tools mark "no newline at end of file" (diff/hunks.ts makes it a hunk of its own);
 * null for any other hunk.
 */
function finalBreakChange(removed: string, inserted: string): string | null {
  if (removed === '' && /^\r?\n$/.test(inserted)) return '↵ Adds a line break at the end of the note';
  if (inserted === '' && /^\r?\n$/.test(removed)) return '↵ Removes the line break at the end of the note';
  return null;
}

/**
 * The parts of an insertion after a last line that has no line break (`\nworld` at the end
 * of `hello`) without that leading break: the widget already starts on a line of its own.
 */
function withoutLeadingBreak(parts: readonly WordPart[]): WordPart[] {
  const [first, ...rest] = parts;
  if (!first || !/^\r?\n/.test(first.text)) return [...parts];
  const text = first.text.replace(/^\r?\n/, '');
  return text ? [{ ...first, text }, ...rest] : rest;
}

/** True for an insertion placed at the end of a line that has no line break (the last line of the note). */
function continuesLine(view: EditorView, hunk: ReviewHunk): boolean {
  const doc = view.state.doc;
  return hunk.removed === '' && hunk.from > 0 && hunk.from <= doc.length && doc.sliceString(hunk.from - 1, hunk.from) !== '\n';
}

/**
 * Draws the proposed text as lines into `box`: `same` parts plain, `inserted` parts in
 * `vault-mcp-inserted-word` spans; `removed` parts are skipped (they are in the document).
 */
function drawInsertedLines(box: HTMLElement, parts: readonly WordPart[]): void {
  const lines: string[][] = [[]];
  const kinds: Array<Array<'same' | 'inserted'>> = [[]];
  for (const part of parts) {
    if (part.kind === 'removed') continue;
    part.text.split('\n').forEach((piece, i) => {
      if (i > 0) {
        lines.push([]);
        kinds.push([]);
      }
      if (!piece) return;
      lines[lines.length - 1].push(piece);
      kinds[kinds.length - 1].push(part.kind === 'inserted' ? 'inserted' : 'same');
    });
  }
  // A proposed text ends with its line break: no empty line after it.
  if (lines.length > 1 && lines[lines.length - 1].length === 0) lines.pop();
  lines.forEach((pieces, i) => {
    const line = addElement(box, 'div', { cls: 'vault-mcp-inserted-line' });
    if (pieces.length === 0) addElement(line, 'br');
    pieces.forEach((piece, k) => {
      // Bidi overrides would reorder what the user reads, controls vanish: written out instead (visibleText).
      if (kinds[i][k] === 'inserted') addElement(line, 'span', { cls: 'vault-mcp-inserted-word', text: visibleText(piece) });
      else line.append(visibleText(piece));
    });
  });
}

/**
 * A hunk's proposed text and its ✓ / ✗ buttons, as a CodeMirror block widget.
 * `parts` is the word diff of the hunk's removed and inserted text (only `same` and
 * `inserted` parts are drawn). Buttons act on the hunk with the same proposal id and index
 * as currently displayed, so they stay right while the user types elsewhere.
 */
export class HunkWidget extends WidgetType {
  constructor(
    readonly hunk: ReviewHunk,
    readonly parts: readonly WordPart[],
  ) {
    super();
  }

  /** Same proposal, index, label, text and staleness draw the same widget (its DOM is kept). */
  override eq(other: HunkWidget): boolean {
    const a = this.hunk;
    const b = other.hunk;
    return (
      a.proposalId === b.proposalId &&
      a.index === b.index &&
      a.keyLabel === b.keyLabel &&
      a.inserted === b.inserted &&
      a.removed === b.removed &&
      a.stale === b.stale
    );
  }

  override toDOM(view: EditorView): HTMLElement {
    const hunk = this.hunk;
    const root = makeElement(view.dom.ownerDocument, 'div', { cls: 'vault-mcp-hunk' });
    if (hunk.stale) root.classList.add('is-stale');
    if (!hunk.inserted) root.classList.add('is-deletion');
    root.dataset.proposalId = hunk.proposalId;
    root.dataset.hunkIndex = String(hunk.index);
    const breakOnly = finalBreakChange(hunk.removed, hunk.inserted);
    if (breakOnly) addElement(root, 'div', { cls: 'vault-mcp-final-newline', text: breakOnly });
    else if (hunk.inserted)
      drawInsertedLines(
        addElement(root, 'div', { cls: 'vault-mcp-inserted' }),
        continuesLine(view, hunk) ? withoutLeadingBreak(this.parts) : this.parts,
      );

    const actions = addElement(root, 'div', { cls: 'vault-mcp-hunk-actions' });
    addElement(actions, 'span', { cls: 'vault-mcp-hunk-label', text: hunk.keyLabel });
    if (hunk.stale) {
      addElement(actions, 'span', {
        cls: 'vault-mcp-hunk-stale',
        text: 'Stale',
        attr: { title: 'The note changed here since the proposal; it can only be rejected.' },
      });
    } else {
      addButton(actions, 'mod-accept', '✓', `Accept change from ${hunk.keyLabel}`, () => run(acceptHunk(view, hunk)));
    }
    addButton(actions, 'mod-reject', '✗', `Reject change from ${hunk.keyLabel}`, () => run(rejectHunk(view, hunk)));
    return root;
  }

  /** The widget handles its own clicks; the editor ignores events inside it. */
  override ignoreEvent(): boolean {
    return true;
  }
}
