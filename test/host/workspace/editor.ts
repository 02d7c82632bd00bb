import type * as O from 'obsidian';

/** The Editor methods both host editors (text-only and CodeMirror) implement. */
export type EditorMethods =
  | 'getValue'
  | 'setValue'
  | 'getLine'
  | 'setLine'
  | 'lineCount'
  | 'lastLine'
  | 'getSelection'
  | 'somethingSelected'
  | 'getRange'
  | 'replaceSelection'
  | 'replaceRange'
  | 'getCursor'
  | 'listSelections'
  | 'setCursor'
  | 'setSelection'
  | 'setSelections'
  | 'focus'
  | 'blur'
  | 'hasFocus'
  | 'posToOffset'
  | 'offsetToPos'
  | 'wordAt'
  | 'refresh'
  | 'scrollIntoView'
  | 'undo'
  | 'redo';

/**
 * A text-only stand-in for Obsidian's `Editor` (obsidian.d.ts), used by MarkdownViews when
 * there is no DOM to run CodeMirror (plain Node, `npm start`): a document string with one or
 * more selections, positions as `{line, ch}` (0-based). Edits call `onChange`, which is how
 * the view learns it has unsaved text (it then saves like Obsidian's autosave).
 */
export class HostEditor implements Pick<O.Editor, EditorMethods | 'transaction'> {
  /** No CodeMirror view without a DOM (CodeMirrorEditor has the EditorView here). */
  readonly cm = null;
  private text: string;
  private selections: O.EditorSelection[];
  private focused = true;

  /** Creates an editor over `text` with the cursor at the start; `onChange` runs after each edit. */
  constructor(
    text: string,
    private readonly onChange: () => void = () => {},
  ) {
    this.text = text;
    this.selections = [{ anchor: { line: 0, ch: 0 }, head: { line: 0, ch: 0 } }];
  }

  /** Host: replaces the text as a (re)load from the file, keeping selections clamped; no `onChange`. */
  loadText(text: string): void {
    this.text = text;
    this.refresh();
  }

  /** Host: nothing to release (CodeMirrorEditor destroys its EditorView). */
  destroy(): void {}

  getDoc(): this {
    return this;
  }
  refresh(): void {
    this.selections = this.selections.map((s) => ({ anchor: this.clip(s.anchor), head: this.clip(s.head) }));
  }
  /** A text-only editor has no viewport: records the range last scrolled to (`scrolledTo`). */
  scrollIntoView(range: O.EditorRange, _center?: boolean): void {
    this.scrolledTo = { from: this.clip(range.from), to: this.clip(range.to) };
  }
  /** A text-only editor keeps no history: undo does nothing. */
  undo(): void {}
  /** A text-only editor keeps no history: redo does nothing. */
  redo(): void {}
  /** Host: the range the last scrollIntoView asked for, or null. */
  scrolledTo: O.EditorRange | null = null;
  getValue(): string {
    return this.text;
  }
  setValue(content: string): void {
    this.text = content;
    this.refresh();
    this.onChange();
  }
  getLine(line: number): string {
    return this.text.split('\n')[line] ?? '';
  }
  setLine(n: number, text: string): void {
    this.replaceRange(text, { line: n, ch: 0 }, { line: n, ch: this.getLine(n).length });
  }
  lineCount(): number {
    return this.text.split('\n').length;
  }
  lastLine(): number {
    return this.lineCount() - 1;
  }
  getSelection(): string {
    const s = this.selections[0];
    return this.getRange(s.anchor, s.head);
  }
  somethingSelected(): boolean {
    return this.selections.some((s) => this.posToOffset(s.anchor) !== this.posToOffset(s.head));
  }
  /** Text between two positions (in either order). */
  getRange(from: O.EditorPosition, to: O.EditorPosition): string {
    const [a, b] = [this.posToOffset(from), this.posToOffset(to)].sort((x, y) => x - y);
    return this.text.slice(a, b);
  }
  replaceSelection(replacement: string): void {
    const s = this.selections[0];
    const [from, to] = this.ordered(s);
    this.replaceRange(replacement, from, to);
    const end = this.offsetToPos(this.posToOffset(from) + replacement.length);
    this.selections = [{ anchor: end, head: end }];
  }
  replaceRange(replacement: string, from: O.EditorPosition, to?: O.EditorPosition): void {
    const a = this.posToOffset(from);
    const b = to ? this.posToOffset(to) : a;
    const [x, y] = a <= b ? [a, b] : [b, a];
    this.text = this.text.slice(0, x) + replacement + this.text.slice(y);
    this.refresh();
    this.onChange();
  }
  getCursor(side: 'from' | 'to' | 'head' | 'anchor' = 'head'): O.EditorPosition {
    const s = this.selections[0];
    if (side === 'anchor') return s.anchor;
    if (side === 'head') return s.head;
    const [from, to] = this.ordered(s);
    return side === 'from' ? from : to;
  }
  listSelections(): O.EditorSelection[] {
    return this.selections.map((s) => ({ anchor: { ...s.anchor }, head: { ...s.head } }));
  }
  setCursor(pos: O.EditorPosition | number, ch?: number): void {
    const p = typeof pos === 'number' ? { line: pos, ch: ch ?? 0 } : pos;
    this.setSelection(p, p);
  }
  setSelection(anchor: O.EditorPosition, head?: O.EditorPosition): void {
    this.selections = [{ anchor: this.clip(anchor), head: this.clip(head ?? anchor) }];
  }
  setSelections(ranges: O.EditorSelectionOrCaret[], main = 0): void {
    const all = ranges.map((r) => ({ anchor: this.clip(r.anchor), head: this.clip(r.head ?? r.anchor) }));
    this.selections = [all[main], ...all.filter((_, i) => i !== main)];
  }
  focus(): void {
    this.focused = true;
  }
  blur(): void {
    this.focused = false;
  }
  hasFocus(): boolean {
    return this.focused;
  }
  /** Char offset of a position, clamped into the document. */
  posToOffset(pos: O.EditorPosition): number {
    const lines = this.text.split('\n');
    const line = Math.max(0, Math.min(pos.line, lines.length - 1));
    let offset = 0;
    for (let i = 0; i < line; i++) offset += lines[i].length + 1;
    return offset + Math.max(0, Math.min(pos.ch, lines[line].length));
  }
  /** Position of a char offset, clamped into the document. */
  offsetToPos(offset: number): O.EditorPosition {
    const before = this.text.slice(0, Math.max(0, Math.min(offset, this.text.length)));
    const line = before.split('\n').length - 1;
    return { line, ch: before.length - (before.lastIndexOf('\n') + 1) };
  }
  /** The word (letters, digits, `_`) around `pos`, or null. */
  wordAt(pos: O.EditorPosition): O.EditorRange | null {
    const line = this.getLine(pos.line);
    let a = pos.ch;
    let b = pos.ch;
    while (a > 0 && /[\p{L}\p{N}_]/u.test(line[a - 1])) a--;
    while (b < line.length && /[\p{L}\p{N}_]/u.test(line[b])) b++;
    return a === b ? null : { from: { line: pos.line, ch: a }, to: { line: pos.line, ch: b } };
  }

  /**
   * Applies Obsidian's EditorTransaction: `changes` (positions in the current text, applied
   * together), else `replaceSelection` on the main selection; then `selections`/`selection`
   * (positions in the new text). One `onChange` call when the text changed.
   */
  transaction(tx: O.EditorTransaction, _origin?: string): void {
    const before = this.text;
    if (tx.changes?.length) {
      const edits = tx.changes
        .map((c) => {
          const a = this.posToOffset(c.from);
          const b = c.to ? this.posToOffset(c.to) : a;
          return { from: Math.min(a, b), to: Math.max(a, b), text: c.text };
        })
        .sort((x, y) => y.from - x.from);
      for (const e of edits) this.text = this.text.slice(0, e.from) + e.text + this.text.slice(e.to);
      this.refresh();
    } else if (tx.replaceSelection !== undefined) {
      const [from, to] = this.ordered(this.selections[0]);
      const start = this.posToOffset(from);
      this.text = this.text.slice(0, start) + tx.replaceSelection + this.text.slice(this.posToOffset(to));
      const end = this.offsetToPos(start + tx.replaceSelection.length);
      this.selections = [{ anchor: end, head: end }];
    }
    const ranges = tx.selections ?? (tx.selection ? [tx.selection] : null);
    if (ranges) this.setSelections(ranges.map((r) => ({ anchor: r.from, head: r.to ?? r.from })));
    if (this.text !== before) this.onChange();
  }

  private clip(pos: O.EditorPosition): O.EditorPosition {
    return this.offsetToPos(this.posToOffset(pos));
  }

  private ordered(s: O.EditorSelection): [O.EditorPosition, O.EditorPosition] {
    return this.posToOffset(s.anchor) <= this.posToOffset(s.head) ? [s.anchor, s.head] : [s.head, s.anchor];
  }
}
