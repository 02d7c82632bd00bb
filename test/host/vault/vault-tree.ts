import type * as O from 'obsidian';
import type { Vault } from './vault';
import { TAbstractFile, TFile, TFolder } from './abstract-file';
import { parentPath } from './path';

/**
 * The vault's in-memory file index: every loaded TFile/TFolder by vault path, linked through
 * `parent`/`children` from the root folder (`/`). It only mirrors what the Vault tells it;
 * events and disk I/O belong to the Vault. Children are kept sorted by name.
 */
export class VaultTree {
  readonly root: TFolder;
  private readonly byPath = new Map<string, TAbstractFile>();

  /** Creates an empty tree whose root folder belongs to `vault`. */
  constructor(private readonly vault: Vault) {
    this.root = new TFolder(vault, '/');
    this.byPath.set('/', this.root);
  }

  /** The entry at a normalized vault path, or null. */
  get(path: string): TAbstractFile | null {
    return this.byPath.get(path) ?? null;
  }

  /** Every entry except the root, in no particular order. */
  entries(): TAbstractFile[] {
    return [...this.byPath.values()].filter((e) => e !== this.root);
  }

  /**
   * Adds folders for `path` and its missing ancestors; returns the folders newly added,
   * outermost first (so create events can fire parents before children). Throws if a file
   * occupies one of those paths.
   */
  ensureFolder(path: string): TFolder[] {
    if (path === '/') return [];
    const existing = this.byPath.get(path);
    if (existing instanceof TFolder) return [];
    if (existing) throw new Error(`Cannot create folder "${path}": a file has that path.`);
    const added = this.ensureFolder(parentPath(path));
    const folder = new TFolder(this.vault, path);
    this.attach(folder);
    return [...added, folder];
  }

  /** Adds a file entry with the given stat (its parent folders must already be present). */
  addFile(path: string, stat: O.FileStats): TFile {
    const file = new TFile(this.vault, path);
    file.stat = { ...stat };
    this.attach(file);
    return file;
  }

  /** Removes an entry and its descendants; returns them deepest first, the entry last. */
  remove(entry: TAbstractFile): TAbstractFile[] {
    const removed = this.descendants(entry).reverse();
    removed.push(entry);
    for (const e of removed) this.byPath.delete(e.path);
    this.detach(entry);
    return removed;
  }

  /**
   * Moves an entry (and, for a folder, its descendants) to `newPath`, whose parent folder
   * must exist in the tree. Returns `[entry, oldPath]` pairs, the entry first, for rename events.
   */
  move(entry: TAbstractFile, newPath: string): Array<[TAbstractFile, string]> {
    const moved: Array<[TAbstractFile, string]> = [[entry, entry.path]];
    for (const d of this.descendants(entry)) moved.push([d, d.path]);
    for (const [e] of moved) this.byPath.delete(e.path);
    this.detach(entry);
    const oldPrefix = entry.path;
    for (const [e, old] of moved) e.setPath(old === oldPrefix ? newPath : newPath + old.slice(oldPrefix.length));
    for (const [e] of moved) this.byPath.set(e.path, e);
    this.attachToParent(entry);
    return moved;
  }

  /** All descendants of a folder (pre-order), or [] for a file. */
  descendants(entry: TAbstractFile): TAbstractFile[] {
    if (!(entry instanceof TFolder)) return [];
    return entry.children.flatMap((c) => [c, ...this.descendants(c)]);
  }

  private attach(entry: TAbstractFile): void {
    this.byPath.set(entry.path, entry);
    this.attachToParent(entry);
  }

  private attachToParent(entry: TAbstractFile): void {
    const parent = this.byPath.get(parentPath(entry.path));
    if (!(parent instanceof TFolder)) throw new Error(`Parent folder of "${entry.path}" is not loaded.`);
    entry.parent = parent;
    parent.children.push(entry);
    parent.children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private detach(entry: TAbstractFile): void {
    const parent = entry.parent;
    if (parent) parent.children = parent.children.filter((c) => c !== entry);
    entry.parent = null;
  }
}
