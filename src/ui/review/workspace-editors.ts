import { MarkdownView, type App } from 'obsidian';
import type { EditorView } from '@codemirror/view';
import type { EditorChangeCause, OpenNoteEditors } from '../../vault/writes/open-note-editors';
import { ACCEPT_USER_EVENT } from '../../editor/review-actions';

/**
 * The `userEvent` of a force-mode write or a revert applied to an open note (an `input.*`
 * event, so the undo history keeps it as its own step, apart from the user's accepts).
 */
export const AGENT_WRITE_USER_EVENT = 'input.vault-mcp-write';

/** The `userEvent` of a change taken back out of an editor because its save was refused (not the user's own undo). */
const TAKEN_BACK_USER_EVENT = 'input.vault-mcp-revert';

/** The `userEvent` an editor transaction carries for each {@link EditorChangeCause}. */
const USER_EVENT_OF: Record<EditorChangeCause, string> = { accept: ACCEPT_USER_EVENT, 'agent-write': AGENT_WRITE_USER_EVENT };

/**
 * The CodeMirror 6 view behind an Obsidian Editor: `editor.cm` (Obsidian exposes it on its
 * Editor for CM6 editors, the documented way to reach the EditorView from a MarkdownView).
 * @returns the EditorView, or null when the editor has none.
 */
function editorViewOf(view: MarkdownView): EditorView | null {
  return (view.editor as unknown as { cm?: EditorView }).cm ?? null;
}

/**
 * Saves each of `views` now (`MarkdownView.save()`: TextFileView's save, obsidian.d.ts, which
 * writes the editor's text to its file), calling `judge` synchronously right before each save
 * starts (no await between the two).
 * @param saved told after each save that completed.
 * @throws what `judge` or a save throws; the views after it are not saved.
 */
async function saveJudged(views: ReadonlyArray<MarkdownView>, judge: () => void, saved: () => void = () => {}): Promise<void> {
  for (const view of views) {
    judge();
    await view.save();
    saved();
  }
}

/**
 * {@link OpenNoteEditors} over Obsidian's workspace: the MarkdownViews whose file is the note,
 * looked up at each call (so it can be made before any editor opens). The first such editor
 * is the one changed: Obsidian keeps every pane on one note in sync, so a change made in one
 * shows in all; every one of them is saved, so none holds a save of its own for later.
 */
export function workspaceEditors(app: App): OpenNoteEditors {
  const viewsOf = (path: string): MarkdownView[] => {
    const views: MarkdownView[] = [];
    for (const leaf of app.workspace.getLeavesOfType('markdown')) {
      const view = leaf.view;
      if (view instanceof MarkdownView && view.file?.path === path && editorViewOf(view)) views.push(view);
    }
    return views;
  };
  const editorFor = (path: string): EditorView | null => {
    const [view] = viewsOf(path);
    return view ? editorViewOf(view) : null;
  };
  return {
    textOf: (path) => editorFor(path)?.state.doc.toString() ?? null,
    applyChanges: async (path, changes, cause, judge) => {
      const views = viewsOf(path);
      const cm = views.length ? editorViewOf(views[0]) : null;
      if (!cm) return false;
      const before = cm.state.doc;
      const tr = cm.state.update({
        changes: changes.map((c) => ({ from: c.from, to: c.to, insert: c.insert })),
        userEvent: USER_EVENT_OF[cause],
      });
      cm.dispatch(tr);
      let written = false;
      try {
        await saveJudged(views, judge, () => (written = true));
      } catch (err) {
        // Not saved: the change leaves the editor too, or Obsidian's own save would write it later, unjudged.
        if (!written && cm.state.doc === tr.state.doc)
          cm.dispatch({ changes: tr.changes.invert(before), userEvent: TAKEN_BACK_USER_EVENT });
        throw err;
      }
      return true;
    },
    saveNow: async (path, judge) => {
      const views = viewsOf(path);
      if (!views.length) return false;
      await saveJudged(views, judge);
      return true;
    },
  };
}
