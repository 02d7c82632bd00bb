/** @jest-environment jsdom */
import { StateField, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type * as O from 'obsidian';
import {
  createTempVault,
  editorInfoField,
  HostApp,
  ItemView,
  loadPluginInHost,
  MarkdownView,
  Plugin,
  TempVault,
  TFile,
  unloadPluginInHost,
  WorkspaceLeaf,
} from '../../host/index';

const manifest: O.PluginManifest = {
  id: 'review',
  name: 'Review',
  author: 'me',
  version: '1.0.0',
  minAppVersion: '1.11.4',
  description: 'test',
};
const PENDING = 'review-pending';

/** A state field counting the doc-changing transactions the editor saw since it was added. */
const edits = StateField.define<number>({ create: () => 0, update: (n, tr) => (tr.docChanged ? n + 1 : n) });

class PendingView extends ItemView {
  log: string[] = [];
  modifies = 0;
  getViewType(): string {
    return PENDING;
  }
  getDisplayText(): string {
    return 'Pending changes';
  }
  protected override async onOpen(): Promise<void> {
    this.log.push('open');
    this.contentEl.createEl('p', { text: 'No pending changes', cls: 'pending-empty' });
    this.registerEvent(this.app.vault.on('modify', () => this.modifies++));
  }
  protected override async onClose(): Promise<void> {
    this.log.push('close');
  }
}

class ReviewPlugin extends Plugin {
  /** Mutable extension array, as plugins reconfigure their CM extensions in Obsidian. */
  readonly marks: Extension[] = [];
  clicks = 0;
  override onload(): void {
    this.registerEditorExtension(this.marks);
    this.registerView(PENDING, (leaf) => new PendingView(leaf));
    this.addRibbonIcon('check', 'Open pending changes', async () => {
      this.clicks++;
      await this.app.workspace.getRightLeaf(false)?.setViewState({ type: PENDING, active: true });
    });
    this.addStatusBarItem().setText('0 pending');
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

function cmOf(view: MarkdownView): EditorView {
  const cm = view.editor.cm;
  if (!cm) throw new Error('expected a CodeMirror-backed editor under jsdom');
  return cm;
}

/** Types `text` at `at` (default: end of doc) as a user edit. */
function type(view: MarkdownView, text: string, at?: number): void {
  const cm = cmOf(view);
  cm.dispatch({ changes: { from: at ?? cm.state.doc.length, insert: text }, userEvent: 'input.type' });
}

let tv: TempVault;
let plugin: ReviewPlugin;
let note: TFile;

beforeEach(async () => {
  tv = await createTempVault({ 'Note.md': 'Alpha beta gamma', 'Other.md': 'Other text' }, { watchIntervalMs: false });
  plugin = await loadPluginInHost(tv.app, ReviewPlugin, manifest);
  note = tv.app.vault.getFileByPath('Note.md') as TFile;
});

afterEach(async () => {
  await tv.cleanup();
});

describe('Markdown views backed by CodeMirror', () => {
  it('gives the view a real EditorView with Obsidian editor fields and the Editor API over its doc', async () => {
    const view = await tv.app.workspace.openNote(note, { selection: { anchor: 6, head: 10 } });
    const cm = cmOf(view);
    expect(cm).toBeInstanceOf(EditorView);
    expect(cm.dom.isConnected).toBe(true);
    expect(view.contentEl.querySelector('.markdown-source-view .cm-editor')).toBe(cm.dom);
    expect(cm.state.doc.toString()).toBe('Alpha beta gamma');
    expect(cm.state.field(editorInfoField).file).toBe(note);
    expect(view.editor.getSelection()).toBe('beta');
    view.editor.replaceSelection('BETA');
    expect(cm.state.doc.toString()).toBe('Alpha BETA gamma');
    expect(view.editor.getCursor()).toEqual({ line: 0, ch: 10 });
    view.editor.replaceRange('\nline 2', { line: 0, ch: 16 });
    expect(view.editor.lineCount()).toBe(2);
    expect(view.editor.offsetToPos(view.editor.posToOffset({ line: 1, ch: 99 }))).toEqual({ line: 1, ch: 6 });
    view.editor.transaction({
      changes: [{ from: { line: 1, ch: 0 }, to: { line: 1, ch: 4 }, text: 'LINE' }],
      selection: { from: { line: 1, ch: 0 } },
    });
    expect(view.editor.getLine(1)).toBe('LINE 2');
    expect(view.editor.getCursor()).toEqual({ line: 1, ch: 0 });
    expect(tv.app.workspace.getActiveViewOfType(MarkdownView)).toBe(view);
    expect(tv.app.workspace.activeEditor?.editor).toBe(view.editor);
  });

  it('applies registered editor extensions to open editors on updateOptions, and drops them on unload', async () => {
    const view = await tv.app.workspace.openNote(note);
    const cm = cmOf(view);
    expect(cm.state.field(edits, false)).toBeUndefined();
    plugin.marks.push(edits);
    expect(cm.state.field(edits, false)).toBeUndefined();
    tv.app.workspace.updateOptions();
    expect(cm.state.field(edits)).toBe(0);
    type(view, '!');
    expect(cm.state.field(edits)).toBe(1);
    const second = await tv.app.workspace.openNote(tv.app.vault.getFileByPath('Other.md') as TFile, { newLeaf: true });
    expect(cmOf(second).state.field(edits)).toBe(0);
    unloadPluginInHost(plugin);
    expect(cm.state.field(edits, false)).toBeUndefined();
    expect(tv.app.workspace.editorExtensions).toEqual([]);
  });

  it('shows one note in two leaves, mirrors an edit into the other pane and saves once', async () => {
    plugin.marks.push(edits);
    tv.app.workspace.updateOptions();
    const left = await tv.app.workspace.openNote(note);
    const right = await tv.app.workspace.openNote(note, { newLeaf: true });
    const leaves = tv.app.workspace.getLeavesOfType('markdown');
    expect(leaves).toHaveLength(2);
    expect(leaves.map((l) => l.view)).toEqual([left, right]);
    expect(cmOf(left)).not.toBe(cmOf(right));
    expect(tv.app.workspace.activeEditor).toBe(right);
    const changes: unknown[] = [];
    tv.app.workspace.on('editor-change', (_editor: unknown, info: unknown) => changes.push(info));
    type(left, ' delta');
    expect(changes).toEqual([left]);
    expect(cmOf(right).state.doc.toString()).toBe('Alpha beta gamma delta');
    expect(cmOf(right).state.field(edits)).toBe(1);
    await left.save();
    expect(await tv.app.vault.read(note)).toBe('Alpha beta gamma delta');
    await until(() => !right.hasUnsavedChanges, 'the right pane to see the save');
    expect(left.hasUnsavedChanges).toBe(false);
  });

  it('saves typed text after the autosave delay, and at once with save()', async () => {
    // Long enough that the read below comes before the autosave even on a loaded machine (a read met
    // mid-write sees the truncated file), short enough to wait for.
    tv.app.workspace.saveDelayMs = 1000;
    const view = await tv.app.workspace.openNote(note);
    type(view, ' one');
    expect(view.hasUnsavedChanges).toBe(true);
    expect(await tv.app.vault.read(note)).toBe('Alpha beta gamma');
    await until(async () => (await tv.app.vault.read(note)) === 'Alpha beta gamma one', 'the autosave');
    tv.app.workspace.saveDelayMs = 60_000;
    type(view, ' two');
    await view.save();
    expect(await tv.app.vault.read(note)).toBe('Alpha beta gamma one two');
    expect(view.hasUnsavedChanges).toBe(false);
  });

  it('takes an outside change into a clean editor as one transaction, keeping state fields and clamping the cursor', async () => {
    plugin.marks.push(edits);
    tv.app.workspace.updateOptions();
    const view = await tv.app.workspace.openNote(note);
    const cm = cmOf(view);
    view.editor.setCursor({ line: 0, ch: 16 });
    await tv.app.vault.modify(note, 'Alpha');
    await until(() => view.data === 'Alpha', 'the editor to reload');
    expect(cm.state.field(edits)).toBe(1);
    expect(view.editor.getCursor()).toEqual({ line: 0, ch: 5 });
    expect(view.hasUnsavedChanges).toBe(false);
  });

  it('keeps unsaved edits when the file changes elsewhere; its save wins', async () => {
    const view = await tv.app.workspace.openNote(note);
    type(view, ' mine');
    await tv.app.vault.process(note, () => 'theirs');
    // The view reads the new text from the vault's cache (microtasks); a macrotask later it has decided.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(view.data).toBe('Alpha beta gamma mine');
    await view.save();
    expect(await tv.app.vault.read(note)).toBe('Alpha beta gamma mine');
  });

  it('closes a leaf on detach: events fire, the editor is destroyed and unsaved text is saved', async () => {
    const view = await tv.app.workspace.openNote(note);
    const leaf = view.leaf;
    const seen: string[] = [];
    tv.app.workspace.on('layout-change', () => seen.push('layout'));
    tv.app.workspace.on('file-open', (f: TFile | null) => seen.push(`open ${f?.path ?? null}`));
    tv.app.workspace.on('active-leaf-change', (l: WorkspaceLeaf | null) => seen.push(`leaf ${l ? l.id : null}`));
    type(view, ' closing');
    leaf.detach();
    expect(seen).toEqual(['open null', 'leaf null', 'layout']);
    expect(tv.app.workspace.getLeavesOfType('markdown')).toEqual([]);
    expect(tv.app.workspace.activeLeaf).toBeNull();
    expect(tv.app.workspace.getActiveFile()).toBeNull();
    await tv.app.workspace.whenSettled();
    expect(view.isOpen).toBe(false);
    expect(cmOf(view).dom.isConnected).toBe(false);
    expect(await tv.app.vault.read(note)).toBe('Alpha beta gamma closing');
    await expect(leaf.setViewState({ type: 'markdown', state: { file: 'Note.md' } })).rejects.toThrow(/detached/);
  });

  it('follows the active leaf for file-open, active-leaf-change, getActiveFile and recent files', async () => {
    const other = tv.app.vault.getFileByPath('Other.md') as TFile;
    const seen: string[] = [];
    tv.app.workspace.on('file-open', (f: TFile | null) => seen.push(`open ${f?.path ?? null}`));
    tv.app.workspace.on('active-leaf-change', () => seen.push('leaf'));
    const first = await tv.app.workspace.openNote(note);
    const second = await tv.app.workspace.openNote(other, { newLeaf: 'tab' });
    expect(tv.app.workspace.getActiveFile()).toBe(other);
    tv.app.workspace.setActiveLeaf(first.leaf as unknown as O.WorkspaceLeaf);
    expect(tv.app.workspace.getActiveFile()).toBe(note);
    expect(tv.app.workspace.getLeaf(false)).toBe(first.leaf);
    await first.leaf.openFile(other);
    expect(seen).toEqual(['open Note.md', 'leaf', 'open Other.md', 'leaf', 'open Note.md', 'leaf', 'open Other.md']);
    expect(tv.app.workspace.getLastOpenFiles()).toEqual(['Other.md', 'Note.md']);
    expect(first.file).toBe(other);
    expect(second.leaf.getViewState()).toMatchObject({ type: 'markdown', state: { file: 'Other.md' } });
    await expect(first.leaf.setViewState({ type: 'markdown', state: { file: 'Missing.md' } })).rejects.toThrow('No note at "Missing.md"');
  });
});

describe('ItemView, ribbon and status bar', () => {
  it('opens a registered ItemView from the ribbon and closes it when the plugin unloads', async () => {
    await tv.app.workspace.openNote(note);
    expect(plugin.ribbonIcons.map((r) => r.title)).toEqual(['Open pending changes']);
    const ribbon = plugin.ribbonIcons[0].el;
    expect(ribbon.getAttribute('aria-label')).toBe('Open pending changes');
    ribbon.click();
    await tv.app.workspace.whenSettled();
    await until(() => tv.app.workspace.getLeavesOfType(PENDING).length === 1, 'the pending view');
    const leaf = tv.app.workspace.getLeavesOfType(PENDING)[0];
    await tv.app.workspace.revealLeaf(leaf);
    const view = leaf.view;
    if (!(view instanceof PendingView)) throw new Error('expected the registered view');
    expect(plugin.clicks).toBe(1);
    expect(view.log).toEqual(['open']);
    expect(view.containerEl.children[1]).toBe(view.contentEl);
    expect(view.containerEl.children[0].classList.contains('view-header')).toBe(true);
    expect(view.containerEl.getAttribute('data-type')).toBe(PENDING);
    expect(view.containerEl.querySelector('.view-header-title')?.textContent).toBe('Pending changes');
    expect(view.contentEl.querySelector('.pending-empty')?.textContent).toBe('No pending changes');
    expect(tv.app.workspace.activeLeaf).toBe(leaf);
    expect(tv.app.workspace.activeEditor).toBeNull();
    expect(tv.app.workspace.getActiveFile()).toBe(note);
    await tv.app.vault.modify(note, 'changed');
    expect(view.modifies).toBe(1);
    unloadPluginInHost(plugin);
    await tv.app.workspace.whenSettled();
    expect(view.log).toEqual(['open', 'close']);
    expect(tv.app.workspace.getLeavesOfType(PENDING)).toEqual([]);
    await tv.app.vault.modify(note, 'changed again');
    expect(view.modifies).toBe(1);
    expect(plugin.ribbonIcons).toEqual([]);
  });

  it('adds header actions to an ItemView and refuses unknown or duplicate view types', async () => {
    const leaf = tv.app.workspace.getRightLeaf(false) as O.WorkspaceLeaf;
    await leaf.setViewState({ type: PENDING });
    const view = leaf.view as unknown as PendingView;
    let clicked = 0;
    const action = view.addAction('x', 'Dismiss', () => clicked++);
    expect(action.getAttribute('aria-label')).toBe('Dismiss');
    action.click();
    expect(clicked).toBe(1);
    expect(tv.app.workspace.activeLeaf).toBeNull();
    await expect(leaf.setViewState({ type: 'nope' })).rejects.toThrow('No view type "nope" is registered');
    expect(() => plugin.registerView(PENDING, (l) => new PendingView(l))).toThrow('existing view type');
  });

  it('gives a status bar item whose text a test can read', () => {
    const item = plugin.statusBarItems[0];
    expect(item).toBeInstanceOf(HTMLElement);
    expect(item.classList.contains('status-bar-item')).toBe(true);
    expect(item.textContent).toBe('0 pending');
    item.setText('2 pending');
    expect(plugin.statusBarItems[0].getText()).toBe('2 pending');
  });

  it('refuses a negative autosave delay', () => {
    expect(() => new HostApp({ vaultPath: tv.dir, saveDelayMs: -1 })).toThrow('saveDelayMs must be a number of milliseconds >= 0');
  });
});
