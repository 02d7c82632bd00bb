import type { EditorView } from '@codemirror/view';
import type { MarkdownView, TFile } from '../../host';
import type { BootedPlugin } from '../boot-plugin';

/**
 * Opens the note at `path` in an editor of the host's workspace, as the user does.
 * @returns the view and its CodeMirror editor.
 */
export async function openInEditor(env: { booted: BootedPlugin }, path: string): Promise<{ view: MarkdownView; cm: EditorView }> {
  const view = (await env.booted.app.workspace.openNote(env.booted.app.vault.getFileByPath(path) as TFile)) as unknown as MarkdownView;
  return { view, cm: (view.editor as unknown as { cm: EditorView }).cm };
}

/** The user types `text` at the end of the editor's document (an ordinary edit, unsaved: Obsidian saves it 2 s later). */
export function typeAtEnd(cm: EditorView, text: string): void {
  cm.dispatch({ changes: { from: cm.state.doc.length, insert: text }, userEvent: 'input.type' });
}
