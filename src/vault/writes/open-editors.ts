/**
 * The notes open in an editor, as writes need them (implemented by ui/ over Obsidian's
 * MarkdownView editors): a change to an open note goes through an editor transaction, so the
 * user's unsaved typing is its base, nothing they type is overwritten by a write to the file
 * behind the editor, and Ctrl+Z undoes it. Obsidian saves the editor to the file as usual.
 */
export interface OpenNoteEditors {
  /** The document of an editor showing the note at `path`, or null when none is open. */
  textOf(path: string): string | null;
  /**
   * Replaces `[from, to)` ranges (offsets in textOf(path)) with `insert` in one undoable
   * transaction of that editor. @returns false when no editor shows the note any more.
   */
  applyChanges(path: string, changes: ReadonlyArray<{ from: number; to: number; insert: string }>): boolean;
}

/**
 * The one replacement that turns `before` into `after`: their common start and end kept, the
 * middle replaced (offsets in UTF-16 code units, as CodeMirror's).
 * @returns null when the texts are equal.
 */
export function minimalChange(before: string, after: string): { from: number; to: number; insert: string } | null {
  if (before === after) return null;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}
