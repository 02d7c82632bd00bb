import type * as O from 'obsidian';
import type { Vault } from './vault';
import { baseName, splitExtension } from './path';

/**
 * Obsidian's `TAbstractFile` (obsidian.d.ts): a file or folder known to the vault, addressed
 * by its vault path. `parent` is null only for the root folder. Instances are owned and
 * mutated by the host `Vault` (on rename the same object gets its new path, like Obsidian).
 */
export abstract class TAbstractFile implements O.TAbstractFile {
  vault: Vault;
  path: string;
  name: string;
  parent: TFolder | null = null;

  /** Creates an entry for `path` (a normalized vault path, `/` for the root). */
  constructor(vault: Vault, path: string) {
    this.vault = vault;
    this.path = path;
    this.name = path === '/' ? '' : baseName(path);
  }

  /** Host helper: updates `path` and `name` after a rename or move. */
  setPath(path: string): void {
    this.path = path;
    this.name = baseName(path);
  }
}

/**
 * Obsidian's `TFile`: `basename` is the name without its last extension, `extension` has no
 * dot, `stat` holds ctime/mtime in ms since the epoch and size in bytes, refreshed by the host
 * after every write and on external changes.
 */
export class TFile extends TAbstractFile implements O.TFile {
  stat: O.FileStats = { ctime: 0, mtime: 0, size: 0 };
  basename: string;
  extension: string;

  /** Creates a file entry for `path`; `stat` is filled in by the vault. */
  constructor(vault: Vault, path: string) {
    super(vault, path);
    [this.basename, this.extension] = splitExtension(this.name);
  }

  /** Host helper: updates path, name, basename and extension after a rename or move. */
  override setPath(path: string): void {
    super.setPath(path);
    [this.basename, this.extension] = splitExtension(this.name);
  }
}

/** Obsidian's `TFolder`: `children` lists direct entries; the root's path is `/`. */
export class TFolder extends TAbstractFile implements O.TFolder {
  children: TAbstractFile[] = [];

  /** True for the vault root (path `/`). */
  isRoot(): boolean {
    return this.path === '/';
  }
}
