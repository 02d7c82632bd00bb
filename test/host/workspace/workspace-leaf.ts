import type * as O from 'obsidian';
import { Events } from '../events';
import { createHostElement } from '../ui/dom';
import { EmptyView, type View } from './view';
import type { Workspace } from './workspace';

type LeafMembers =
  | 'openFile'
  | 'open'
  | 'getViewState'
  | 'setViewState'
  | 'getEphemeralState'
  | 'setEphemeralState'
  | 'togglePinned'
  | 'setPinned'
  | 'detach'
  | 'getIcon'
  | 'getDisplayText'
  | 'onResize'
  | 'isDeferred'
  | 'loadIfDeferred';

/** Where a leaf sits: the main area or a sidebar. */
export type LeafSide = 'root' | 'left' | 'right';

/**
 * Obsidian's `WorkspaceLeaf` (obsidian.d.ts): one tab holding one View. A new leaf holds an
 * EmptyView (type `empty`); `setViewState({type, state, active})` replaces the view when the
 * type differs (the old view closes: `onClose`, unload; the new one loads, then `onOpen`),
 * then passes `state` to the view; `openFile(file)` is `setViewState({type: 'markdown',
 * state: {file}})` and makes the leaf active unless `openState.active` is false.
 * `containerEl` is `div.workspace-leaf` around the view's element. The host has no deferred
 * views, groups or history.
 */
export class WorkspaceLeaf extends Events implements Pick<O.WorkspaceLeaf, LeafMembers> {
  /** Obsidian's leaf id (random hex). */
  readonly id: string;
  view: View;
  pinned = false;
  readonly containerEl: HTMLElement;
  /** Whether `detach()` ran. */
  detached = false;

  /** Creates a leaf of `workspace` on `side`, holding an EmptyView (loaded and open). */
  constructor(
    readonly workspace: Workspace,
    readonly side: LeafSide,
  ) {
    super();
    this.id = Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
    this.containerEl = createHostElement('div', 'workspace-leaf');
    this.view = new EmptyView(this as unknown as O.WorkspaceLeaf);
    this.containerEl.appendChild(this.view.containerEl);
    this.workspace.track(this.view.open());
  }

  /** The App of the workspace (what views get as `app`). */
  get app(): O.App {
    return this.workspace.app;
  }

  get isDeferred(): boolean {
    return false;
  }

  async loadIfDeferred(): Promise<void> {}

  /** Opens `file` as a Markdown view; active unless `openState.active === false`. */
  async openFile(file: O.TFile, openState?: O.OpenViewState): Promise<void> {
    await this.setViewState(
      { type: 'markdown', state: { ...openState?.state, file: file.path }, active: openState?.active ?? true },
      openState?.eState,
    );
  }

  /** Replaces the leaf's view with `view` (closing the old one) and opens it. Returns `view`. */
  async open(view: O.View): Promise<O.View> {
    const next = view as unknown as View;
    const previous = this.view;
    if (next === previous) return view;
    this.view = next;
    previous.containerEl.detach();
    this.containerEl.appendChild(next.containerEl);
    await previous.close();
    await next.open();
    return view;
  }

  getViewState(): O.ViewState {
    return { type: this.view.getViewType(), state: this.view.getState(), pinned: this.pinned };
  }

  /**
   * Shows a view of `viewState.type` (a new one when the type differs; `markdown`, `empty`
   * or a type a plugin registered) and applies `viewState.state`; `active: true` makes the
   * leaf active. Fires `layout-change`. Throws for an unregistered type or a detached leaf.
   */
  async setViewState(viewState: O.ViewState, eState?: any): Promise<void> {
    if (this.detached) throw new Error('This leaf was detached; get a new one with workspace.getLeaf().');
    if (viewState.type !== this.view.getViewType()) await this.open(this.workspace.createView(viewState.type, this) as unknown as O.View);
    await this.view.setState(viewState.state ?? {}, { history: false });
    if (eState !== undefined) this.view.setEphemeralState(eState);
    if (viewState.pinned !== undefined) this.pinned = viewState.pinned;
    this.workspace.onLeafChanged(this, viewState.active === true);
  }

  getEphemeralState(): any {
    return this.view.getEphemeralState();
  }

  setEphemeralState(state: any): void {
    this.view.setEphemeralState(state);
  }

  togglePinned(): void {
    this.setPinned(!this.pinned);
  }

  setPinned(pinned: boolean): void {
    this.pinned = pinned;
    this.trigger('pinned-change', pinned);
  }

  /**
   * Closes the leaf: it leaves the workspace at once (another leaf becomes active if it was
   * the active one) and its view closes (a Markdown view saves first); await
   * `workspace.whenSettled()` for that to finish.
   */
  detach(): void {
    if (this.detached) return;
    this.detached = true;
    this.containerEl.detach();
    this.workspace.onLeafDetached(this);
    this.workspace.track(this.view.close());
  }

  getIcon(): O.IconName {
    return this.view.getIcon();
  }

  getDisplayText(): string {
    return this.view.getDisplayText();
  }

  onResize(): void {
    this.view.onResize();
  }
}
