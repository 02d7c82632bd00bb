import type * as O from 'obsidian';
import { Events } from './events';
import type { TFile } from './abstract-file';
import { HostEditor } from './editor';

/** A selection given to `setActiveNote`: char offsets or editor positions (anchor..head). */
export interface NoteSelection {
  anchor: number | O.EditorPosition;
  head?: number | O.EditorPosition;
}

/**
 * The host's Markdown editor view: the open note (`file`) and its `editor`. Exported as
 * `MarkdownView` so `workspace.getActiveViewOfType(MarkdownView)` works as in Obsidian.
 */
export class MarkdownView {
  /** Creates a view showing `file` with `editor`. */
  constructor(public app: O.App, public file: TFile | null, public editor: HostEditor) {}

  getViewType(): string {
    return 'markdown';
  }

  getMode(): 'source' | 'preview' {
    return 'source';
  }

  getDisplayText(): string {
    return this.file?.basename ?? '';
  }

  /** The editor's text (Obsidian's `TextFileView.data`). */
  get data(): string {
    return this.editor.getValue();
  }
}

/** The one leaf the host has when a note is open: it holds the MarkdownView. */
export interface HostLeaf {
  view: MarkdownView;
  getViewState(): { type: string; state: { file: string | null } };
}

/**
 * Obsidian's `Workspace` (obsidian.d.ts) reduced to what runs without a window: the layout
 * becomes ready when the host calls `triggerLayoutReady()` (loadPluginInHost does), and at
 * most one note is "open" — set with the host helper `setActiveNote`, which fires
 * `file-open` and `active-leaf-change` like opening a note in Obsidian.
 */
export class Workspace extends Events implements Pick<O.Workspace, 'layoutReady' | 'onLayoutReady' | 'getActiveFile' | 'getLeavesOfType' | 'detachLeavesOfType' | 'getLastOpenFiles'> {
  layoutReady = false;
  /** The open note's view (Obsidian's `activeEditor`: `{file, editor}`), or null. */
  activeEditor: MarkdownView | null = null;
  /** The leaf of the open note, or null (Obsidian's deprecated `activeLeaf`). */
  activeLeaf: HostLeaf | null = null;
  private readonly pending: Array<() => unknown> = [];
  private readonly recent: string[] = [];

  /** Creates the workspace of `app` (used as the views' `app`). */
  constructor(private readonly app: O.App) {
    super();
  }

  /** Runs `callback` now if the layout is ready, else when `triggerLayoutReady()` is called. */
  onLayoutReady(callback: () => any): void {
    if (this.layoutReady) callback();
    else this.pending.push(callback);
  }

  /** Host: marks the layout ready and runs queued callbacks in order (errors are logged). */
  triggerLayoutReady(): void {
    if (this.layoutReady) return;
    this.layoutReady = true;
    for (const cb of this.pending.splice(0)) {
      try {
        cb();
      } catch (err) {
        console.error(err);
      }
    }
    this.trigger('layout-change');
  }

  getActiveFile(): TFile | null {
    return this.activeEditor?.file ?? null;
  }

  /** The active view if it is an instance of `type` (e.g. MarkdownView), else null. */
  getActiveViewOfType<T>(type: abstract new (...args: any[]) => T): T | null {
    return this.activeEditor instanceof type ? (this.activeEditor as T) : null;
  }

  /** The open note's leaf when `viewType` is `markdown`; the host has no other views. */
  getLeavesOfType(viewType: string): O.WorkspaceLeaf[] {
    return viewType === 'markdown' && this.activeLeaf ? [this.activeLeaf as unknown as O.WorkspaceLeaf] : [];
  }

  /** Closes the open note when `viewType` is `markdown`. */
  detachLeavesOfType(viewType: string): void {
    if (viewType === 'markdown' && this.activeLeaf) void this.setActiveNote(null);
  }

  /** Calls `callback` for the open note's leaf, if any. */
  iterateAllLeaves(callback: (leaf: O.WorkspaceLeaf) => any): void {
    if (this.activeLeaf) callback(this.activeLeaf as unknown as O.WorkspaceLeaf);
  }

  /** Paths of the notes opened most recently, newest first (at most 10). */
  getLastOpenFiles(): string[] {
    return this.recent.slice();
  }

  /**
   * Host: opens `file` in the (single) editor with its current text and an optional
   * selection, or closes it with null. Fires `file-open` (file) then `active-leaf-change`.
   */
  async setActiveNote(file: TFile | null, selection?: NoteSelection): Promise<void> {
    if (file) {
      const editor = new HostEditor(await file.vault.read(file));
      if (selection) {
        const toPos = (p: number | O.EditorPosition): O.EditorPosition => (typeof p === 'number' ? editor.offsetToPos(p) : p);
        editor.setSelection(toPos(selection.anchor), toPos(selection.head ?? selection.anchor));
      }
      const view = new MarkdownView(this.app, file, editor);
      this.activeEditor = view;
      this.activeLeaf = { view, getViewState: () => ({ type: 'markdown', state: { file: view.file?.path ?? null } }) };
      this.recent.splice(0, this.recent.length, file.path, ...this.recent.filter((p) => p !== file.path).slice(0, 9));
    } else {
      this.activeEditor = null;
      this.activeLeaf = null;
    }
    this.trigger('file-open', file);
    this.trigger('active-leaf-change', this.activeLeaf);
  }
}
