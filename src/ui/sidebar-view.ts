import { ItemView, type Plugin, type WorkspaceLeaf } from 'obsidian';

/** What a sidebar list view is: its view type, title and icon, and the changes it redraws on. */
export interface SidebarViewSpec {
  /** The view type (`registerView`). */
  type: string;
  /** Its title in the tab, the ribbon and the command (`Pending changes`). */
  title: string;
  /** A Lucide icon name, for the view and its ribbon button. */
  icon: string;
  /** Subscribes to what the view lists; @returns a function that unsubscribes. */
  onChange(listener: () => void): () => void;
}

/**
 * An Obsidian ItemView in the right sidebar that lists something and draws it anew whenever
 * it changes (the Pending changes and Agent activity views): type, title and icon from its
 * {@link SidebarViewSpec}, the subscription registered on open and released on close.
 */
export abstract class SidebarListView extends ItemView {
  /** @param leaf the workspace leaf Obsidian gives the view. @param spec what the view is. */
  constructor(
    leaf: WorkspaceLeaf,
    private readonly spec: SidebarViewSpec,
  ) {
    super(leaf);
  }

  override getViewType(): string {
    return this.spec.type;
  }

  override getDisplayText(): string {
    return this.spec.title;
  }

  override getIcon(): string {
    return this.spec.icon;
  }

  override async onOpen(): Promise<void> {
    this.register(this.spec.onChange(() => this.render()));
    this.render();
  }

  /** Draws the list anew into `contentEl`. */
  abstract render(): void;
}

/**
 * Registers a sidebar view with its ribbon icon and an "Open <title>" command (id `commandId`).
 * @param create makes the view for a leaf.
 * @returns the function that reveals the view, opening it in the right sidebar when it is not
 *   open yet (`workspace.getRightLeaf`, `revealLeaf`).
 */
export function addSidebarView(
  plugin: Plugin,
  view: { type: string; title: string; icon: string; commandId: string },
  create: (leaf: WorkspaceLeaf) => SidebarListView,
): () => void {
  plugin.registerView(view.type, create);
  const open = (): void => void revealSidebarView(plugin, view.type);
  const name = `Open ${view.title.toLowerCase()}`;
  plugin.addRibbonIcon(view.icon, name, open);
  plugin.addCommand({ id: view.commandId, name, callback: open });
  return open;
}

/** Reveals the first leaf of view `type`, opening one in the right sidebar when there is none. */
async function revealSidebarView(plugin: Plugin, type: string): Promise<void> {
  const { workspace } = plugin.app;
  let leaf = workspace.getLeavesOfType(type)[0];
  if (!leaf) {
    leaf = workspace.getRightLeaf(false) ?? workspace.getLeaf(true);
    await leaf.setViewState({ type, active: true });
  }
  await workspace.revealLeaf(leaf);
}
