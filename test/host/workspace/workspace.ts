import type * as O from 'obsidian';
import type { Extension } from '@codemirror/state';
import { Events } from '../events';
import type { TFile } from '../vault/abstract-file';
import { createHostElement } from '../ui/dom';
import { EmptyView, type HostViewCreator, type View } from './view';
import { MarkdownView } from './markdown-view';
import { reconfigurePluginExtensions } from './markdown-editor';
import { WorkspaceLeaf, type LeafSide } from './workspace-leaf';

/** A selection given to `setActiveNote`/`openNote`: char offsets or editor positions (anchor..head). */
export interface NoteSelection {
  anchor: number | O.EditorPosition;
  head?: number | O.EditorPosition;
}

/** Options of the host helper `workspace.openNote`. */
export interface OpenNoteOptions {
  /** As `getLeaf(newLeaf)`: false (default) reuses a navigable leaf, true/'tab'/'split' makes one. */
  newLeaf?: O.PaneType | boolean;
  /** Make the leaf active (default true). */
  active?: boolean;
  /** Selection to set after the note loads. */
  selection?: NoteSelection;
}

/** The leaf type of the pre-multi-leaf host API (kept for existing imports). */
export type HostLeaf = WorkspaceLeaf;

type WorkspaceMembers =
  | 'layoutReady'
  | 'containerEl'
  | 'onLayoutReady'
  | 'getActiveFile'
  | 'getActiveViewOfType'
  | 'getLeaf'
  | 'getLeftLeaf'
  | 'getRightLeaf'
  | 'getLeafById'
  | 'getMostRecentLeaf'
  | 'setActiveLeaf'
  | 'revealLeaf'
  | 'iterateAllLeaves'
  | 'iterateRootLeaves'
  | 'getLeavesOfType'
  | 'detachLeavesOfType'
  | 'getLastOpenFiles'
  | 'updateOptions';

/**
 * Obsidian's `Workspace` (obsidian.d.ts) without a window: leaves in the main area (`root`)
 * and the two sidebars, each holding a View (`markdown`, `empty`, or a type a plugin
 * registered). The layout becomes ready when the host calls `triggerLayoutReady()`
 * (loadPluginInHost does). Events: `layout-change` when leaves appear, close or change view;
 * `file-open` when the active file changes, then `active-leaf-change` when the active leaf
 * changes; `editor-change` after an edit in a Markdown editor. Editor extensions plugins
 * register reach every open editor through a compartment that `updateOptions()` reconfigures.
 * Under a DOM `containerEl` (`div.workspace`) is appended to `document.body` when the first
 * leaf is made; closing the last leaf leaves no leaf (Obsidian would open an empty tab).
 */
export class Workspace extends Events implements Pick<O.Workspace, WorkspaceMembers> {
  layoutReady = false;
  containerEl: HTMLElement;
  /** The active leaf's Markdown view (Obsidian's `activeEditor`: `{file, editor}`), or null. */
  activeEditor: MarkdownView | null = null;
  /** The active leaf, or null (Obsidian's deprecated `activeLeaf`). */
  activeLeaf: WorkspaceLeaf | null = null;
  /** Host: ms from the first edit of a burst to the Markdown view's save (Obsidian: 2000). */
  saveDelayMs = 2000;
  /** Host: the editor extensions registered by plugins, in registration order (Obsidian's internal list). */
  readonly editorExtensions: Extension[] = [];
  private readonly leaves: WorkspaceLeaf[] = [];
  /** Open leaves, most recently active first. */
  private readonly recentLeaves: WorkspaceLeaf[] = [];
  private readonly splits: Record<LeafSide, HTMLElement>;
  private readonly viewCreators = new Map<string, HostViewCreator>();
  private readonly pending: Array<() => unknown> = [];
  private readonly recentFiles: string[] = [];
  private readonly work = new Set<Promise<unknown>>();
  private announcedFile: TFile | null = null;

  /** Creates the workspace of `app` (the views' `app`). */
  constructor(readonly app: O.App) {
    super();
    this.containerEl = createHostElement('div', 'workspace');
    this.splits = {
      left: this.containerEl.createDiv({ cls: ['workspace-split', 'mod-left-split'] }),
      root: this.containerEl.createDiv({ cls: ['workspace-split', 'mod-root'] }),
      right: this.containerEl.createDiv({ cls: ['workspace-split', 'mod-right-split'] }),
    };
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

  /**
   * The active Markdown view's file; when another view is active, the file of the most
   * recently active open Markdown view; null when no leaf is active.
   */
  getActiveFile(): TFile | null {
    if (!this.activeLeaf) return null;
    const view = this.activeLeaf.view;
    if (view instanceof MarkdownView) return view.file;
    const recent = this.recentLeaves.find((leaf) => leaf.view instanceof MarkdownView);
    return recent ? (recent.view as MarkdownView).file : null;
  }

  /** The active leaf's view if it is an instance of `type` (e.g. MarkdownView), else null. */
  getActiveViewOfType<T>(type: abstract new (...args: any[]) => T): T | null {
    const view = this.activeLeaf?.view;
    return view instanceof type ? (view as T) : null;
  }

  /**
   * A leaf in the main area: for `newLeaf` false/undefined the active leaf if it can be
   * navigated (its view has `navigation` and it is not pinned), else the most recent such
   * leaf, else a new one; for true/'tab'/'split'/'window' always a new leaf (an empty tab).
   */
  getLeaf(newLeaf?: O.PaneType | boolean, _direction?: O.SplitDirection): O.WorkspaceLeaf {
    if (!newLeaf) {
      const reusable = (leaf: WorkspaceLeaf | null): leaf is WorkspaceLeaf =>
        !!leaf && leaf.side === 'root' && leaf.view.navigation && !leaf.pinned;
      const found = reusable(this.activeLeaf) ? this.activeLeaf : (this.recentLeaves.find(reusable) ?? this.leaves.find(reusable));
      if (found) return found as unknown as O.WorkspaceLeaf;
    }
    return this.createLeaf('root') as unknown as O.WorkspaceLeaf;
  }

  /** A new leaf in the left sidebar. */
  getLeftLeaf(_split: boolean): O.WorkspaceLeaf | null {
    return this.createLeaf('left') as unknown as O.WorkspaceLeaf;
  }

  /** A new leaf in the right sidebar. */
  getRightLeaf(_split: boolean): O.WorkspaceLeaf | null {
    return this.createLeaf('right') as unknown as O.WorkspaceLeaf;
  }

  getLeafById(id: string): O.WorkspaceLeaf | null {
    return (this.leaves.find((leaf) => leaf.id === id) ?? null) as unknown as O.WorkspaceLeaf | null;
  }

  /** The most recently active leaf of the main area, or null. */
  getMostRecentLeaf(_root?: O.WorkspaceParent): O.WorkspaceLeaf | null {
    return (this.recentLeaves.find((leaf) => leaf.side === 'root') ?? null) as unknown as O.WorkspaceLeaf | null;
  }

  /** Makes `leaf` active: fires `file-open` if the active file changes, then `active-leaf-change`. */
  setActiveLeaf(leaf: O.WorkspaceLeaf, _params?: { focus?: boolean } | boolean, _focus?: boolean): void {
    const host = leaf as unknown as WorkspaceLeaf;
    if (host.detached || host === this.activeLeaf) return;
    this.activeLeaf = host;
    this.recentLeaves.splice(0, this.recentLeaves.length, host, ...this.recentLeaves.filter((l) => l !== host));
    this.announce(true);
  }

  /**
   * Brings `leaf` to the front. The host has no hidden tabs, collapsed sidebars or deferred
   * views (every leaf's view is loaded by the time `setViewState` resolves), so there is
   * nothing left to do.
   */
  async revealLeaf(_leaf: O.WorkspaceLeaf): Promise<void> {}

  iterateAllLeaves(callback: (leaf: O.WorkspaceLeaf) => any): void {
    for (const leaf of this.leaves.slice()) callback(leaf as unknown as O.WorkspaceLeaf);
  }

  iterateRootLeaves(callback: (leaf: O.WorkspaceLeaf) => any): void {
    for (const leaf of this.leaves.filter((l) => l.side === 'root')) callback(leaf as unknown as O.WorkspaceLeaf);
  }

  /** Every leaf whose view has type `viewType`, in creation order. */
  getLeavesOfType(viewType: string): O.WorkspaceLeaf[] {
    return this.leaves.filter((leaf) => leaf.view.getViewType() === viewType) as unknown as O.WorkspaceLeaf[];
  }

  /** Detaches every leaf whose view has type `viewType`. */
  detachLeavesOfType(viewType: string): void {
    for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
  }

  /** Paths of the notes opened most recently, newest first (at most 10). */
  getLastOpenFiles(): string[] {
    return this.recentFiles.slice();
  }

  /** Reconfigures every open Markdown editor with the current `editorExtensions` (arrays re-read). */
  updateOptions(): void {
    for (const view of this.markdownViewsOf(null)) reconfigurePluginExtensions(view.editor, this.editorExtensions);
  }

  /** Host (Obsidian-internal): adds a plugin's editor extension and updates open editors. */
  registerEditorExtension(extension: Extension): void {
    this.editorExtensions.push(extension);
    this.updateOptions();
  }

  /** Host (Obsidian-internal): removes an editor extension and updates open editors. */
  unregisterEditorExtension(extension: Extension): void {
    const i = this.editorExtensions.indexOf(extension);
    if (i < 0) return;
    this.editorExtensions.splice(i, 1);
    this.updateOptions();
  }

  /** Host (Obsidian's view registry): `setViewState({type})` will call `creator`. Throws if the type is taken. */
  registerViewType(type: string, creator: HostViewCreator): void {
    if (type === 'markdown' || type === 'empty' || this.viewCreators.has(type))
      throw new Error(`Attempting to register an existing view type "${type}".`);
    this.viewCreators.set(type, creator);
  }

  /** Host: forgets a registered view type and detaches its leaves (as on plugin unload). */
  unregisterViewType(type: string): void {
    this.viewCreators.delete(type);
    this.detachLeavesOfType(type);
  }

  /** Host: a new, not yet opened view of `type` for `leaf`. Throws for an unregistered type. */
  createView(type: string, leaf: WorkspaceLeaf): View {
    const oLeaf = leaf as unknown as O.WorkspaceLeaf;
    if (type === 'markdown') return new MarkdownView(oLeaf);
    if (type === 'empty') return new EmptyView(oLeaf);
    const creator = this.viewCreators.get(type);
    if (!creator) {
      const known = ['markdown', 'empty', ...this.viewCreators.keys()].join(', ');
      throw new Error(`No view type "${type}" is registered (known: ${known}); call plugin.registerView("${type}", ...) first.`);
    }
    return creator(oLeaf) as unknown as View;
  }

  /** Host: the open Markdown views showing `file` (every Markdown view for null). */
  markdownViewsOf(file: TFile | null): MarkdownView[] {
    const views = this.leaves.map((leaf) => leaf.view).filter((v): v is MarkdownView => v instanceof MarkdownView);
    return file ? views.filter((v) => v.file === file) : views;
  }

  /**
   * Host: opens `file` in `getLeaf(options.newLeaf)` and returns its Markdown view, with
   * `options.selection` applied. Rejects when the leaf cannot open the note.
   */
  async openNote(file: TFile, options: OpenNoteOptions = {}): Promise<MarkdownView> {
    const leaf = this.getLeaf(options.newLeaf ?? false) as unknown as WorkspaceLeaf;
    await leaf.openFile(file, { active: options.active ?? true });
    const view = leaf.view as MarkdownView;
    if (options.selection) {
      const { editor } = view;
      const toPos = (p: number | O.EditorPosition): O.EditorPosition => (typeof p === 'number' ? editor.offsetToPos(p) : p);
      editor.setSelection(toPos(options.selection.anchor), toPos(options.selection.head ?? options.selection.anchor));
    }
    return view;
  }

  /**
   * Host convenience: opens `file` in the current navigable leaf (or a new one) with an
   * optional selection and makes it active, or with null detaches the active Markdown leaf.
   * Resolves to the view (null after closing) once its work is done.
   */
  async setActiveNote(file: TFile | null, selection?: NoteSelection): Promise<MarkdownView | null> {
    if (file) return this.openNote(file, { selection });
    if (this.activeLeaf?.view instanceof MarkdownView) this.activeLeaf.detach();
    await this.whenSettled();
    return null;
  }

  /** Host: called by a leaf after `setViewState`; activates it when asked, announces changes. */
  onLeafChanged(leaf: WorkspaceLeaf, activate: boolean): void {
    if (activate && leaf !== this.activeLeaf) this.setActiveLeaf(leaf as unknown as O.WorkspaceLeaf);
    else this.announce(false);
    this.trigger('layout-change');
  }

  /** Host: called by `leaf.detach()`; the most recent other leaf becomes active if `leaf` was. */
  onLeafDetached(leaf: WorkspaceLeaf): void {
    remove(this.leaves, leaf);
    remove(this.recentLeaves, leaf);
    const wasActive = leaf === this.activeLeaf;
    if (wasActive) this.activeLeaf = this.recentLeaves[0] ?? null;
    this.announce(wasActive);
    this.trigger('layout-change');
  }

  /** Host: keeps `work` (a view opening, closing or saving) until it settles; errors are logged. */
  track(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => console.error(err)).finally(() => this.work.delete(tracked));
    this.work.add(tracked);
  }

  /** Host: resolves when view work started by synchronous calls (detach, new leaves) has finished. */
  async whenSettled(): Promise<void> {
    while (this.work.size) await Promise.all([...this.work]);
  }

  /**
   * Host: closes every leaf without events, as quitting Obsidian does (Markdown views save),
   * removes `containerEl` from the page and waits for the views to close.
   */
  async close(): Promise<void> {
    for (const leaf of this.leaves.splice(0)) {
      leaf.detached = true;
      leaf.containerEl.detach();
      this.track(leaf.view.close());
    }
    this.recentLeaves.length = 0;
    this.activeLeaf = null;
    this.activeEditor = null;
    this.containerEl.detach();
    await this.whenSettled();
  }

  private createLeaf(side: LeafSide): WorkspaceLeaf {
    if (typeof document !== 'undefined' && !this.containerEl.parentElement) document.body.appendChild(this.containerEl);
    const leaf = new WorkspaceLeaf(this, side);
    this.leaves.push(leaf);
    this.splits[side].appendChild(leaf.containerEl);
    this.trigger('layout-change');
    return leaf;
  }

  /** Updates `activeEditor`; fires `file-open` when the active file changed, then `active-leaf-change` if asked. */
  private announce(leafChanged: boolean): void {
    const view = this.activeLeaf?.view;
    this.activeEditor = view instanceof MarkdownView ? view : null;
    const file = this.getActiveFile();
    if (file !== this.announcedFile) {
      this.announcedFile = file;
      if (file)
        this.recentFiles.splice(0, this.recentFiles.length, file.path, ...this.recentFiles.filter((p) => p !== file.path).slice(0, 9));
      this.trigger('file-open', file);
    }
    if (leafChanged) this.trigger('active-leaf-change', this.activeLeaf);
  }
}

function remove<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}
