import type * as O from 'obsidian';
import { Component } from '../component';
import { createHostElement } from '../ui/dom';
import { drawIcon } from '../ui/icons';
import type { WorkspaceLeaf } from './workspace-leaf';

/**
 * What `plugin.registerView` takes: Obsidian's ViewCreator, or one returning a host View
 * (tests that build views from the host classes directly).
 */
export type HostViewCreator = O.ViewCreator | ((leaf: O.WorkspaceLeaf) => View);

type ViewMembers =
  | 'app'
  | 'icon'
  | 'navigation'
  | 'containerEl'
  | 'scope'
  | 'getViewType'
  | 'getState'
  | 'setState'
  | 'getEphemeralState'
  | 'setEphemeralState'
  | 'getIcon'
  | 'onResize'
  | 'getDisplayText'
  | 'onPaneMenu';

/**
 * Obsidian's `View` (obsidian.d.ts): a Component shown in a leaf. `containerEl` is
 * `div.workspace-leaf-content[data-type]` whose `children[0]` is the header
 * (`div.view-header` with `.view-header-title` and `.view-actions`) and `children[1]` the
 * content (`div.view-content`), as in Obsidian. The leaf calls `load()` then `onOpen()` when
 * the view is shown, and `onClose()` then `unload()` when it is replaced or detached, so
 * `registerEvent`/`register` cleanups run on close.
 */
export abstract class View extends Component implements Pick<O.View, ViewMembers> {
  app: O.App;
  icon: O.IconName = '';
  navigation = false;
  leaf: WorkspaceLeaf;
  containerEl: HTMLElement;
  scope: O.Scope | null = null;
  /** Whether `onOpen` ran and `onClose` has not (host record for tests). */
  isOpen = false;

  /** Creates the view for `leaf` (the leaf's workspace gives `app`). */
  constructor(leaf: O.WorkspaceLeaf) {
    super();
    this.leaf = leaf as unknown as WorkspaceLeaf;
    this.app = this.leaf.app;
    this.containerEl = createHostElement('div', 'workspace-leaf-content');
    const header = this.containerEl.createDiv('view-header');
    header.createDiv('view-header-title-container').createDiv('view-header-title');
    header.createDiv('view-actions');
    this.containerEl.createDiv('view-content');
  }

  abstract getViewType(): string;
  abstract getDisplayText(): string;

  /** Called after the view is loaded into its leaf; override to build the UI. */
  protected async onOpen(): Promise<void> {}

  /** Called before the view leaves its leaf; override to release what onOpen built. */
  protected async onClose(): Promise<void> {}

  /** The view's state for `getViewState()` (none by default). */
  getState(): Record<string, unknown> {
    return {};
  }

  /** Applies `state` from `setViewState` (nothing by default). */
  async setState(_state: unknown, _result: O.ViewStateResult): Promise<void> {}

  getEphemeralState(): Record<string, unknown> {
    return {};
  }

  setEphemeralState(_state: unknown): void {}

  getIcon(): O.IconName {
    return this.icon;
  }

  onResize(): void {}

  onPaneMenu(_menu: O.Menu, _source: string): void {}

  /**
   * Host: shows the view (`load()`, then `onOpen()`) with `data-type` and the header title
   * set. Called by WorkspaceLeaf; rethrows what `onOpen` throws.
   */
  async open(): Promise<void> {
    this.containerEl.setAttr('data-type', this.getViewType());
    this.load();
    await this.onOpen();
    this.isOpen = true;
    this.refreshTitle();
  }

  /** Host: closes the view (`onClose()`, then `unload()`) and removes its element. */
  async close(): Promise<void> {
    this.isOpen = false;
    try {
      await this.onClose();
    } finally {
      this.unload();
      this.containerEl.detach();
    }
  }

  /** Host: writes `getDisplayText()` into the header title. */
  refreshTitle(): void {
    const header = this.containerEl.children[0] as HTMLElement;
    const title = header.children[0].children[0] as HTMLElement;
    title.setText(this.getDisplayText());
  }
}

/**
 * Obsidian's `ItemView`: a View with `contentEl` (= `containerEl.children[1]`) and header
 * actions (`addAction` adds `a.clickable-icon.view-action` with the icon and `aria-label`).
 */
export abstract class ItemView extends View implements Pick<O.ItemView, 'contentEl' | 'addAction'> {
  contentEl: HTMLElement;

  /** Creates the view for `leaf`; `contentEl` is the content element. */
  constructor(leaf: O.WorkspaceLeaf) {
    super(leaf);
    this.contentEl = this.containerEl.children[1] as HTMLElement;
  }

  /** Adds a header action; `callback` runs on click. Returns the action's element. */
  addAction(icon: O.IconName, title: string, callback: (evt: MouseEvent) => any): HTMLElement {
    const header = this.containerEl.children[0] as HTMLElement;
    const actions = header.children[1] as HTMLElement;
    const el = actions.createEl('a', { cls: ['clickable-icon', 'view-action'], attr: { 'aria-label': title } });
    drawIcon(el, icon);
    this.registerDomEvent(el, 'click', callback);
    return el;
  }
}

/** Obsidian's empty tab (view type `empty`): what `getLeaf(true)` holds before a file opens. */
export class EmptyView extends ItemView {
  override navigation = true;

  getViewType(): string {
    return 'empty';
  }

  getDisplayText(): string {
    return 'New tab';
  }
}
