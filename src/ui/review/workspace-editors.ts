import { MarkdownView, type App } from 'obsidian';
import type { EditorView } from '@codemirror/view';
import type { EditorChangeCause, OpenNoteEditors } from '../../vault/writes/open-note-editors';
import { ACCEPT_USER_EVENT } from '../../editor/review-actions';

/**
 * The `userEvent` of a force-mode write or a revert applied to an open note (an `input.*`
 * event, so the undo history keeps it as its own step, apart from the user's accepts).
 */
export const AGENT_WRITE_USER_EVENT = 'input.vault-mcp-write';

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
 * {@link OpenNoteEditors} over Obsidian's workspace: the MarkdownViews whose file is the note,
 * looked up at each call (so it can be made before any editor opens). The first such editor
 * is the one used: Obsidian keeps every pane on one note in sync, so a change made in one shows in all.
 */
export function workspaceEditors(app: App): OpenNoteEditors {
  const editorFor = (path: string): EditorView | null => {
    for (const leaf of app.workspace.getLeavesOfType('markdown')) {
      const view = leaf.view;
      if (view instanceof MarkdownView && view.file?.path === path) {
        const cm = editorViewOf(view);
        if (cm) return cm;
      }
    }
    return null;
  };
  return {
    textOf: (path) => editorFor(path)?.state.doc.toString() ?? null,
    applyChanges: (path, changes, cause) => {
      const cm = editorFor(path);
      if (!cm) return false;
      cm.dispatch({ changes: changes.map((c) => ({ from: c.from, to: c.to, insert: c.insert })), userEvent: USER_EVENT_OF[cause] });
      return true;
    },
  };
}
