import type * as O from 'obsidian';
import type { ViewUpdate } from '@codemirror/view';
import { ItemView } from './view';
import type { TFile } from '../vault/abstract-file';
import type { HostEditor } from './editor';
import type { CodeMirrorEditor } from './cm-editor';
import { minimalChange } from '../../../src/vault/writes/edits/minimal-change';
import { hostTextSource } from './editor-fields';
import { createMarkdownEditor, resetMarkdownEditor, type MarkdownEditorHost } from './markdown-editor';

type MarkdownViewMembers =
  | 'getViewType'
  | 'getMode'
  | 'getDisplayText'
  | 'getViewData'
  | 'setViewData'
  | 'clear'
  | 'save'
  | 'requestSave'
  | 'onLoadFile'
  | 'onUnloadFile'
  | 'getState'
  | 'setState'
  | 'allowNoFile'
  | 'file'
  | 'data';

/**
 * Obsidian's `MarkdownView` (obsidian.d.ts; a TextFileView) in source mode. `editor` is a
 * CodeMirrorEditor over a real EditorView (`editor.cm`) when a DOM exists, else the
 * text-only HostEditor. As in Obsidian:
 * - `setState({file})` loads the note's text from the vault (a different file gets a fresh
 *   editor state; the previous file is saved first);
 * - an edit schedules a save (`requestSave`: `vault.modify` with the editor text,
 *   `workspace.saveDelayMs` after the first edit of a burst, 2000 ms by default); `save()`
 *   writes now; closing the view saves;
 * - an edit is mirrored at once into the other open views of the same note;
 * - when the file changes in the vault from elsewhere and the editor has no unsaved edits,
 *   the editor takes the new text as one transaction over the differing middle (selections
 *   mapped, clamped). With unsaved edits the editor keeps its text and its save wins.
 */
export class MarkdownView extends ItemView implements Pick<O.MarkdownView, MarkdownViewMembers> {
  override navigation = true;
  override icon = 'document';
  allowNoFile = false;
  file: TFile | null = null;
  /** The editor: `editor.cm` is the EditorView, or null without a DOM. */
  editor: HostEditor | CodeMirrorEditor;
  private readonly editorHost: MarkdownEditorHost;
  /** The text last read from or written to the file. */
  private savedText = '';
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private reloads = 0;
  /** Saves of this view whose `vault.modify` has not finished: a modify event meanwhile may carry an older save's text. */
  private savesInFlight = 0;

  /** Creates the view in `leaf` with an empty editor; the leaf's `setViewState` loads a file. */
  constructor(leaf: O.WorkspaceLeaf) {
    super(leaf);
    this.editorHost = {
      info: this as unknown as O.MarkdownFileInfo,
      parent: this.contentEl,
      extensions: () => this.leaf.workspace.editorExtensions,
      onEdit: (update) => this.afterEdit(update),
    };
    this.editor = createMarkdownEditor(this.editorHost);
  }

  getViewType(): string {
    return 'markdown';
  }

  getMode(): O.MarkdownViewModeType {
    return 'source';
  }

  getDisplayText(): string {
    return this.file?.basename ?? '';
  }

  /** The editor's text (Obsidian's `TextFileView.data`). */
  get data(): string {
    return this.editor.getValue();
  }

  /** True when the editor text differs from what was last read from or written to the file. */
  get hasUnsavedChanges(): boolean {
    return this.editor.getValue() !== this.savedText;
  }

  getViewData(): string {
    return this.editor.getValue();
  }

  /** Shows `data`: a fresh editor state when `clear` (another file), else a reload of the same note. */
  setViewData(data: string, clear: boolean): void {
    if (clear) resetMarkdownEditor(this.editor, this.editorHost, data);
    else this.editor.loadText(data);
  }

  /** Empties the editor with a fresh state. */
  clear(): void {
    resetMarkdownEditor(this.editor, this.editorHost, '');
  }

  /** `{file, mode: 'source', source: true}`, as Obsidian's Markdown view state. */
  override getState(): Record<string, unknown> {
    return { file: this.file?.path ?? null, mode: 'source', source: true };
  }

  /**
   * Opens `state.file` (a vault path) when given. Throws an Error naming the path when no
   * note exists there.
   */
  override async setState(state: unknown, _result: O.ViewStateResult): Promise<void> {
    const path = (state as { file?: unknown } | null)?.file;
    if (typeof path !== 'string') return;
    const file = this.app.vault.getFileByPath(path) as TFile | null;
    if (!file) throw new Error(`No note at "${path}" to open; create it first or pass the path of an existing note.`);
    await this.loadFile(file);
  }

  /** Reads the note's text into a fresh editor state. */
  async onLoadFile(file: O.TFile): Promise<void> {
    const text = await this.app.vault.read(file);
    this.savedText = text;
    this.setViewData(text, true);
  }

  /** Saves the note before the view lets it go. */
  async onUnloadFile(_file: O.TFile): Promise<void> {
    await this.save();
  }

  /**
   * Writes the editor text to the file with `vault.modify` now, cancelling a scheduled save.
   * Does nothing when the text is what the file last held or the file left the vault.
   */
  async save(_clear?: boolean): Promise<void> {
    this.cancelScheduledSave();
    const file = this.file;
    if (!file || this.app.vault.getFileByPath(file.path) !== file) return;
    const text = this.getViewData();
    if (text === this.savedText) return;
    this.savedText = text;
    this.savesInFlight++;
    try {
      await this.app.vault.modify(file, text);
    } finally {
      this.savesInFlight--;
    }
  }

  /** Schedules `save()` `workspace.saveDelayMs` after the first call of a burst (Obsidian: 2 s). */
  requestSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save().catch((err: unknown) => console.error(err));
    }, this.leaf.workspace.saveDelayMs);
  }

  override onload(): void {
    this.registerEvent(this.app.vault.on('modify', (file) => void this.onFileModified(file)));
    this.registerEvent(this.app.vault.on('rename', (file) => file === this.file && this.refreshTitle()));
  }

  override onunload(): void {
    this.cancelScheduledSave();
    this.editor.destroy();
  }

  protected override async onClose(): Promise<void> {
    if (this.file) await this.onUnloadFile(this.file);
  }

  /** Host: opens `file` in this view (saving and letting go of the current one first). */
  async loadFile(file: TFile): Promise<void> {
    if (file === this.file) return;
    if (this.file) await this.onUnloadFile(this.file);
    this.file = file;
    await this.onLoadFile(file);
    this.refreshTitle();
  }

  /**
   * Host: takes `text` from another view of the same note after an edit there: its CM
   * changes when this editor held the same text before, else the differing middle.
   */
  mirrorEdit(text: string, update: ViewUpdate | null): void {
    const cm = this.editor.cm;
    if (!cm) {
      this.editor.loadText(text);
      return;
    }
    const sync = hostTextSource.of('sync');
    if (update && cm.state.doc.eq(update.startState.doc)) cm.dispatch({ changes: update.changes, annotations: sync });
    else {
      const change = minimalChange(cm.state.doc.toString(), text);
      if (change) cm.dispatch({ changes: change, annotations: sync });
    }
  }

  private afterEdit(update: ViewUpdate | null): void {
    const text = this.editor.getValue();
    for (const other of this.leaf.workspace.markdownViewsOf(this.file)) if (other !== this) other.mirrorEdit(text, update);
    this.leaf.workspace.trigger('editor-change', this.editor, this);
    this.requestSave();
  }

  private async onFileModified(file: O.TAbstractFile): Promise<void> {
    if (!this.file || file !== this.file) return;
    const seq = ++this.reloads;
    const text = await this.app.vault.cachedRead(this.file);
    // A save of this view still running will fire its own modify: reloading an earlier text now would drop typing.
    if (seq !== this.reloads || file !== this.file || this.savesInFlight > 0) return;
    const current = this.editor.getValue();
    if (text === current) {
      this.savedText = text;
      return;
    }
    if (current !== this.savedText) return;
    this.savedText = text;
    this.setViewData(text, false);
  }

  private cancelScheduledSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
  }
}
