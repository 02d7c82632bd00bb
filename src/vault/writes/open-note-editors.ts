/** One replacement in an editor's document: `[from, to)` (UTF-16 offsets, as CodeMirror's) becomes `insert`. */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/**
 * Why a change is made in an open editor, so the editor can tag it (its `userEvent`) and the
 * user's undo history tells them apart: `accept` for hunks of a proposal the user accepted,
 * `agent-write` for a force-mode write or a revert applied straight to the note.
 */
export type EditorChangeCause = 'accept' | 'agent-write';

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
   * transaction of that editor, tagged with `cause`. @returns false when no editor shows the note any more.
   */
  applyChanges(path: string, changes: ReadonlyArray<TextChange>, cause: EditorChangeCause): boolean;
}
