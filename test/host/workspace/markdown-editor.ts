import { history } from '@codemirror/commands';
import type * as O from 'obsidian';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, type ViewUpdate } from '@codemirror/view';
import { HostEditor } from './editor';
import { CodeMirrorEditor } from './cm-editor';
import { editorEditorField, editorInfoField, editorLivePreviewField, hostTextSource, pluginExtensions } from './editor-fields';

/** What a MarkdownView gives its editor. */
export interface MarkdownEditorHost {
  /** The view, as `editorInfoField`'s value. */
  info: O.MarkdownFileInfo;
  /** The element the CodeMirror view goes into (`div.markdown-source-view` is made inside). */
  parent: HTMLElement;
  /** The extensions plugins registered, read when a state is built or reconfigured. */
  extensions: () => readonly Extension[];
  /**
   * Called after an edit that is not a host load or sync: with the CM update when the edit
   * was a CodeMirror transaction, null for a text-only editor.
   */
  onEdit: (update: ViewUpdate | null) => void;
}

/**
 * True when the global DOM can run CodeMirror 6: `document` and `MutationObserver` exist
 * (Jest's jsdom environment, a browser); false in plain Node and `npm start`.
 */
export function canRunCodeMirror(): boolean {
  return typeof document !== 'undefined' && typeof MutationObserver !== 'undefined';
}

function buildState(host: MarkdownEditorHost, cm: EditorView, text: string): EditorState {
  return EditorState.create({
    doc: text,
    extensions: [
      editorInfoField.init(() => host.info),
      editorEditorField.init(() => cm),
      editorLivePreviewField.init(() => false),
      history(),
      EditorView.updateListener.of((update) => {
        if (update.transactions.some((tr) => tr.docChanged && tr.annotation(hostTextSource) === undefined)) host.onEdit(update);
      }),
      pluginExtensions.of(host.extensions().slice()),
    ],
  });
}

/**
 * The editor of a MarkdownView: with a DOM, a CodeMirrorEditor over a new EditorView placed
 * in `div.markdown-source-view.cm-s-obsidian.mod-cm6` under `host.parent`, whose state has
 * Obsidian's editor fields and the plugins' extensions (in the `pluginExtensions`
 * compartment); without one, a text-only HostEditor. Both start empty.
 */
export function createMarkdownEditor(host: MarkdownEditorHost): HostEditor | CodeMirrorEditor {
  if (!canRunCodeMirror()) return new HostEditor('', () => host.onEdit(null));
  const source = host.parent.createDiv({ cls: ['markdown-source-view', 'cm-s-obsidian', 'mod-cm6'] });
  const cm = new EditorView({ parent: source });
  cm.setState(buildState(host, cm, ''));
  return new CodeMirrorEditor(cm);
}

/**
 * Puts `text` into `editor` as a different file's content (Obsidian's `setViewData(data,
 * true)`): a fresh EditorState (plugin state fields start over), or for the text-only
 * editor the text with the cursor at the start.
 */
export function resetMarkdownEditor(editor: HostEditor | CodeMirrorEditor, host: MarkdownEditorHost, text: string): void {
  if (editor.cm) {
    editor.cm.setState(buildState(host, editor.cm, text));
    return;
  }
  editor.loadText(text);
  editor.setSelection({ line: 0, ch: 0 });
}

/** Reconfigures the plugin-extension compartment of a CodeMirror editor with `extensions`. */
export function reconfigurePluginExtensions(editor: HostEditor | CodeMirrorEditor, extensions: readonly Extension[]): void {
  editor.cm?.dispatch({ effects: pluginExtensions.reconfigure(extensions.slice()) });
}
