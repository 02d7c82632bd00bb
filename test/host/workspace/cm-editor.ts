import { redo, undo } from '@codemirror/commands';
import type * as O from 'obsidian';
import { EditorSelection, type ChangeSpec, type TransactionSpec } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { EditorMethods } from './editor';
import { hostTextSource } from './editor-fields';
import { minimalChange } from '../../../src/vault/writes/edits/minimal-change';

/**
 * Obsidian's `Editor` (obsidian.d.ts) over a CodeMirror 6 EditorView, as Obsidian's Markdown
 * editor is: `cm` is the EditorView (Obsidian exposes it as `(editor as any).cm`), positions
 * are `{line, ch}` (0-based line, char offset in the line) and every edit is a CM transaction,
 * so state fields, decorations and update listeners see it. `origin` arguments become the
 * transaction's `userEvent`. Undo history is not part of the host editor.
 */
export class CodeMirrorEditor implements Pick<O.Editor, EditorMethods | 'transaction'> {
  /** Wraps `cm`; the view's owner destroys it with `destroy()`. */
  constructor(readonly cm: EditorView) {}

  getDoc(): this {
    return this;
  }
  /** Asks CodeMirror to re-measure the view. */
  refresh(): void {
    this.cm.requestMeasure();
  }
  /** Undoes the last change (CodeMirror history, which Obsidian's editor has). */
  undo(): void {
    undo(this.cm);
  }
  /** Redoes the last undone change. */
  redo(): void {
    redo(this.cm);
  }
  /** Scrolls `range` into view (centered when `center`), as a CodeMirror scrollIntoView effect. */
  scrollIntoView(range: O.EditorRange, center?: boolean): void {
    const from = this.posToOffset(range.from);
    const to = this.posToOffset(range.to);
    this.cm.dispatch({ effects: EditorView.scrollIntoView(EditorSelection.range(from, to), { y: center ? 'center' : 'nearest' }) });
  }
  getValue(): string {
    return this.cm.state.doc.toString();
  }
  setValue(content: string): void {
    this.cm.dispatch({ changes: { from: 0, to: this.cm.state.doc.length, insert: content } });
  }
  /** Text of line `line` (0-based), or '' past the end. */
  getLine(line: number): string {
    const doc = this.cm.state.doc;
    return line >= 0 && line < doc.lines ? doc.line(line + 1).text : '';
  }
  setLine(n: number, text: string): void {
    this.replaceRange(text, { line: n, ch: 0 }, { line: n, ch: this.getLine(n).length });
  }
  lineCount(): number {
    return this.cm.state.doc.lines;
  }
  lastLine(): number {
    return this.cm.state.doc.lines - 1;
  }
  /** Text of the main selection. */
  getSelection(): string {
    const { from, to } = this.cm.state.selection.main;
    return this.cm.state.sliceDoc(from, to);
  }
  somethingSelected(): boolean {
    return this.cm.state.selection.ranges.some((r) => !r.empty);
  }
  /** Text between two positions (in either order). */
  getRange(from: O.EditorPosition, to: O.EditorPosition): string {
    const [a, b] = [this.posToOffset(from), this.posToOffset(to)].sort((x, y) => x - y);
    return this.cm.state.sliceDoc(a, b);
  }
  /** Replaces every selection with `replacement`, leaving cursors after it. */
  replaceSelection(replacement: string, origin?: string): void {
    this.cm.dispatch({ ...this.cm.state.replaceSelection(replacement), userEvent: origin });
  }
  replaceRange(replacement: string, from: O.EditorPosition, to?: O.EditorPosition, origin?: string): void {
    const a = this.posToOffset(from);
    const b = to ? this.posToOffset(to) : a;
    this.cm.dispatch({ changes: { from: Math.min(a, b), to: Math.max(a, b), insert: replacement }, userEvent: origin });
  }
  getCursor(side: 'from' | 'to' | 'head' | 'anchor' = 'head'): O.EditorPosition {
    const main = this.cm.state.selection.main;
    return this.offsetToPos(main[side]);
  }
  listSelections(): O.EditorSelection[] {
    return this.cm.state.selection.ranges.map((r) => ({ anchor: this.offsetToPos(r.anchor), head: this.offsetToPos(r.head) }));
  }
  setCursor(pos: O.EditorPosition | number, ch?: number): void {
    const p = typeof pos === 'number' ? { line: pos, ch: ch ?? 0 } : pos;
    this.setSelection(p, p);
  }
  setSelection(anchor: O.EditorPosition, head?: O.EditorPosition): void {
    this.cm.dispatch({ selection: EditorSelection.single(this.posToOffset(anchor), this.posToOffset(head ?? anchor)) });
  }
  /** Sets several selections; `main` (default 0) is the index of the main one in `ranges`. */
  setSelections(ranges: O.EditorSelectionOrCaret[], main = 0): void {
    const all = ranges.map((r) => EditorSelection.range(this.posToOffset(r.anchor), this.posToOffset(r.head ?? r.anchor)));
    this.cm.dispatch({ selection: EditorSelection.create(all, main) });
  }
  focus(): void {
    this.cm.focus();
  }
  blur(): void {
    this.cm.contentDOM.blur();
  }
  hasFocus(): boolean {
    return this.cm.hasFocus;
  }
  /** Char offset of a position, clamped into the document. */
  posToOffset(pos: O.EditorPosition): number {
    const doc = this.cm.state.doc;
    const line = doc.line(Math.max(0, Math.min(pos.line, doc.lines - 1)) + 1);
    return line.from + Math.max(0, Math.min(pos.ch, line.length));
  }
  /** Position of a char offset, clamped into the document. */
  offsetToPos(offset: number): O.EditorPosition {
    const doc = this.cm.state.doc;
    const line = doc.lineAt(Math.max(0, Math.min(offset, doc.length)));
    return { line: line.number - 1, ch: Math.max(0, Math.min(offset, doc.length)) - line.from };
  }
  /** The word around `pos` (CodeMirror's word characters), or null. */
  wordAt(pos: O.EditorPosition): O.EditorRange | null {
    const range = this.cm.state.wordAt(this.posToOffset(pos));
    return range ? { from: this.offsetToPos(range.from), to: this.offsetToPos(range.to) } : null;
  }

  /**
   * Applies Obsidian's EditorTransaction as one CM transaction: `changes` (positions in the
   * current document), then `selections` (or `selection`), or `replaceSelection` on the
   * current selections when no changes are given.
   */
  transaction(tx: O.EditorTransaction, origin?: string): void {
    const spec: TransactionSpec = { userEvent: origin };
    if (tx.changes?.length) {
      const changes: ChangeSpec[] = tx.changes.map((c) => {
        const a = this.posToOffset(c.from);
        const b = c.to ? this.posToOffset(c.to) : a;
        return { from: Math.min(a, b), to: Math.max(a, b), insert: c.text };
      });
      Object.assign(spec, { changes });
    } else if (tx.replaceSelection !== undefined) {
      Object.assign(spec, this.cm.state.replaceSelection(tx.replaceSelection));
    }
    const ranges = tx.selections ?? (tx.selection ? [tx.selection] : null);
    if (ranges) {
      const doc = tx.changes?.length ? this.cm.state.update({ changes: spec.changes }).state.doc : this.cm.state.doc;
      const at = (p: O.EditorPosition): number => {
        const line = doc.line(Math.max(0, Math.min(p.line, doc.lines - 1)) + 1);
        return line.from + Math.max(0, Math.min(p.ch, line.length));
      };
      spec.selection = EditorSelection.create(ranges.map((r) => EditorSelection.range(at(r.from), at(r.to ?? r.from))));
    }
    this.cm.dispatch(spec);
  }

  /**
   * Host: replaces the text as a (re)load from the file, changing only the differing middle
   * (so selections and decorations outside it are mapped, the rest clamped), annotated
   * `hostTextSource: 'load'`.
   */
  loadText(text: string): void {
    const change = minimalChange(this.getValue(), text);
    if (change) this.cm.dispatch({ changes: change, annotations: hostTextSource.of('load') });
  }

  /** Host: destroys the EditorView (its DOM leaves the page, view plugins are destroyed). */
  destroy(): void {
    this.cm.destroy();
  }
}
