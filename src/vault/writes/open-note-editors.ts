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
 * behind the editor, and Ctrl+Z undoes it. The editor is then saved to the file at once
 * (`MarkdownView.save()`), judged on the disk right before, instead of by Obsidian's own save
 * 2 s after the edit (`requestSave`), which no check precedes: a symbolic link swapped in at the
 * note's path meanwhile would carry the change wherever it leads (verifier, session 30, F3).
 */
export interface OpenNoteEditors {
  /** The document of an editor showing the note at `path`, or null when none is open. */
  textOf(path: string): string | null;
  /**
   * Replaces `[from, to)` ranges (offsets in textOf(path)) with `insert` in one undoable
   * transaction of that editor, tagged with `cause`, then saves the note's editors now
   * ({@link saveNow}, `judge` right before each save). The change is made synchronously, with no
   * await between the call and it, so text the caller read with textOf(path) just before is
   * what it changes.
   * @returns false when no editor shows the note any more (nothing changed, nothing saved).
   * @throws what `judge` throws, or the save's own error (the file system's): the change is
   *   then taken back out of the editor when nothing else changed the document since (else it
   *   stays, one Ctrl+Z away), and no further editor is saved.
   */
  applyChanges(path: string, changes: ReadonlyArray<TextChange>, cause: EditorChangeCause, judge: () => void): Promise<boolean>;
  /**
   * Saves every editor showing the note at `path` to its file now (`MarkdownView.save()`, the
   * editor's whole text, the user's unsaved typing with it), one after the other, calling `judge`
   * synchronously right before each save starts: when it throws, that editor is not saved.
   * @returns false when no editor shows the note (nothing saved).
   * @throws what `judge` throws; the save's own error (the file system's).
   */
  saveNow(path: string, judge: () => void): Promise<boolean>;
}
