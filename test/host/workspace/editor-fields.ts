import type * as O from 'obsidian';
import { Annotation, Compartment, StateField } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';

function provided(name: string): never {
  throw new Error(`${name} is provided by the host's MarkdownView; in a standalone EditorState add ${name}.init(() => value).`);
}

/**
 * Obsidian's `editorInfoField` (obsidian.d.ts): the MarkdownFileInfo of the editor (in the
 * host, the MarkdownView: `app`, `file`, `editor`). Each MarkdownView's state has it.
 */
export const editorInfoField: typeof O.editorInfoField = StateField.define<O.MarkdownFileInfo>({
  create: () => provided('editorInfoField'),
  update: (value) => value,
});

/** Obsidian's `editorEditorField`: the EditorView the state belongs to. */
export const editorEditorField: typeof O.editorEditorField = StateField.define<EditorView>({
  create: () => provided('editorEditorField'),
  update: (value) => value,
});

/** Obsidian's `editorLivePreviewField`: false, as host editors are in source mode. */
export const editorLivePreviewField: typeof O.editorLivePreviewField = StateField.define<boolean>({
  create: () => false,
  update: (value) => value,
});

/**
 * Host annotation on transactions the host itself makes: `load` (the file's text was
 * (re)loaded from disk) and `sync` (mirrors an edit made in another pane on the same file).
 * Such transactions neither request a save nor fire `editor-change`.
 */
export const hostTextSource = Annotation.define<'load' | 'sync'>();

/**
 * The compartment holding the extensions plugins registered (`registerEditorExtension`);
 * `workspace.updateOptions()` reconfigures it in every open editor, as Obsidian does.
 */
export const pluginExtensions = new Compartment();
