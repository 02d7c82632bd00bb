import type * as O from 'obsidian';
import { Events } from './events';
import { TAbstractFile, TFile, TFolder } from './abstract-file';
import { FileSystemAdapter } from './vault-adapter';
import { VaultTree } from './vault-tree';
import { DiskPoller, scanVaultFolder } from './watcher';
import { assertInsideVault, normalizePath, parentPath } from './path';
import { loadSubtree, syncTreeWithDisk } from './vault-sync';

/** Options of the host Vault. */
export interface VaultOptions {
  /** The config folder, vault-relative (Obsidian's `vault.configDir`); default `.obsidian`. */
  configDir?: string;
}

/**
 * Obsidian's `Vault` (obsidian.d.ts) over a real folder. Writes go to disk atomically
 * (temp file + rename) and update the file index before the promise resolves; events
 * `create`/`modify`/`delete`/`rename` fire like Obsidian's. Text writes (`modify`, `append`,
 * `process`) are serialized per file, so concurrent `process` calls never lose an update.
 * Dot-files, dot-folders, `node_modules` and the config dir are not loaded as TFiles.
 * Changes made on disk by other programs are picked up by `syncFromDisk` (polled by
 * `startWatching`), never double-firing for the host's own writes.
 */
export class Vault extends Events implements O.Vault {
  adapter: FileSystemAdapter;
  configDir: string;
  private readonly tree: VaultTree;
  private readonly locks = new Map<unknown, Promise<void>>();
  private readonly contents = new Map<string, { mtime: number; size: number; data: string }>();
  private busy = 0;
  private epoch = 0;
  private poller: DiskPoller | null = null;

  /** Creates a vault over `basePath`; call `load()` before use. */
  constructor(basePath: string, options: VaultOptions = {}) {
    super();
    this.adapter = new FileSystemAdapter(basePath);
    this.configDir = normalizePath(options.configDir ?? '.obsidian');
    this.tree = new VaultTree(this);
  }

  /** Host: loads the folder's files into the index (no events, like the initial vault scan). */
  async load(): Promise<void> {
    const disk = await scanVaultFolder(this.adapter.basePath, this.configDir);
    this.adapter.rememberDiskNames(disk);
    syncTreeWithDisk(this.tree, disk, () => undefined);
  }

  /** Host: polls the disk every `intervalMs` ms for changes made by other programs. */
  startWatching(intervalMs: number): void {
    this.poller ??= new DiskPoller(() => this.syncFromDisk(), intervalMs);
    this.poller.start();
  }

  /** Host: stops polling and waits for a running scan to end. */
  async stopWatching(): Promise<void> {
    await this.poller?.stop();
    this.poller = null;
  }

  /**
   * Host: scans the folder once and applies what changed on disk since the last look
   * (create/modify/delete events). Skipped while a host write is in flight, and discarded if
   * one started during the scan, so host writes are never reported twice.
   */
  async syncFromDisk(): Promise<void> {
    if (this.busy > 0) return;
    const epoch = this.epoch;
    const disk = await scanVaultFolder(this.adapter.basePath, this.configDir);
    if (this.busy > 0 || epoch !== this.epoch) return;
    this.adapter.rememberDiskNames(disk);
    syncTreeWithDisk(this.tree, disk, (name, file) => {
      if (name !== 'create') this.contents.delete(file.path);
      this.trigger(name, file);
    });
  }

  getName(): string {
    return this.adapter.getName();
  }

  getRoot(): TFolder {
    return this.tree.root;
  }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.tree.get(normalizePath(path));
  }

  getFileByPath(path: string): TFile | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFile ? f : null;
  }

  getFolderByPath(path: string): TFolder | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFolder ? f : null;
  }

  getAllLoadedFiles(): TAbstractFile[] {
    return [this.tree.root, ...this.tree.entries()];
  }

  getAllFolders(includeRoot?: boolean): TFolder[] {
    return this.getAllLoadedFiles().filter((f): f is TFolder => f instanceof TFolder && (includeRoot || !f.isRoot()));
  }

  getFiles(): TFile[] {
    return this.tree.entries().filter((f): f is TFile => f instanceof TFile);
  }

  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((f) => f.extension === 'md');
  }

  /** Calls `cb` for `root` and every descendant, pre-order (Obsidian's `Vault.recurseChildren`). */
  static recurseChildren(root: O.TFolder, cb: (file: O.TAbstractFile) => any): void {
    cb(root);
    for (const child of root.children) {
      if (child instanceof TFolder) Vault.recurseChildren(child, cb);
      else cb(child);
    }
  }

  /** Creates a text file; throws "File already exists." if taken, ENOENT if the folder is missing. */
  async create(path: string, data: string, options?: O.DataWriteOptions): Promise<TFile> {
    return this.createWith(path, options, (p) => this.adapter.write(p, data, options), data);
  }

  /** Creates a binary file; same rules as `create`. */
  async createBinary(path: string, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<TFile> {
    return this.createWith(path, options, (p) => this.adapter.writeBinary(p, data, options), null);
  }

  /** Creates a folder and its missing parents; throws "Folder already exists." if present. */
  async createFolder(path: string): Promise<TFolder> {
    const p = this.checkedPath(path);
    return this.exclusive(`path:${p}`, async () => {
      if (this.tree.get(p) || (await this.adapter.exists(p))) throw new Error('Folder already exists.');
      await this.adapter.mkdir(p);
      for (const folder of this.tree.ensureFolder(p)) this.trigger('create', folder);
      return this.tree.get(p) as TFolder;
    });
  }

  /** Reads the file's text from disk. */
  async read(file: TFile): Promise<string> {
    const data = await this.adapter.read(file.path);
    this.contents.set(file.path, { mtime: file.stat.mtime, size: file.stat.size, data });
    return data;
  }

  /** The file's text, from memory when the file is unchanged since it was last read or written. */
  async cachedRead(file: TFile): Promise<string> {
    const c = this.contents.get(file.path);
    if (c && c.mtime === file.stat.mtime && c.size === file.stat.size) return c.data;
    return this.read(file);
  }

  async readBinary(file: TFile): Promise<ArrayBuffer> {
    return this.adapter.readBinary(file.path);
  }

  getResourcePath(file: TFile): string {
    return `${this.adapter.getResourcePath(file.path)}?${file.stat.mtime}`;
  }

  /** Replaces the file's text; fires `modify`. */
  async modify(file: TFile, data: string, options?: O.DataWriteOptions): Promise<void> {
    await this.writeExisting(file, options, () => this.adapter.write(file.path, data, options), () => data);
  }

  async modifyBinary(file: TFile, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
    await this.writeExisting(file, options, () => this.adapter.writeBinary(file.path, data, options), () => null);
  }

  /** Appends text; fires `modify`. */
  async append(file: TFile, data: string, options?: O.DataWriteOptions): Promise<void> {
    let next = '';
    await this.writeExisting(
      file,
      options,
      async () => {
        next = (await this.adapter.read(file.path)) + data;
        await this.adapter.write(file.path, next, options);
      },
      () => next,
    );
  }

  async appendBinary(file: TFile, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
    await this.writeExisting(file, options, () => this.adapter.appendBinary(file.path, data, options), () => null);
  }

  /**
   * Atomic read-modify-write: reads the current text from disk, calls the synchronous `fn`,
   * writes its result and fires `modify` (nothing is written when `fn` returns the same text).
   * Calls on one file run one after another. Returns the text now in the file; rethrows what
   * `fn` throws, leaving the file untouched.
   */
  async process(file: TFile, fn: (data: string) => string, options?: O.DataWriteOptions): Promise<string> {
    return this.exclusive(file, async () => {
      this.assertLoaded(file);
      const current = await this.adapter.read(file.path);
      const next = fn(current);
      if (typeof next !== 'string') throw new Error('vault.process callback must return the new text as a string.');
      if (next === current) return current;
      await this.adapter.write(file.path, next, options);
      await this.afterWrite(file, options, next);
      return next;
    });
  }

  /** Renames or moves a file or folder; throws "Destination file already exists!" if taken. */
  async rename(file: TAbstractFile, newPath: string): Promise<void> {
    const p = this.checkedPath(newPath);
    await this.exclusive(file, async () => {
      this.assertLoaded(file);
      if (p === file.path) return;
      const caseOnly = p.toLowerCase() === file.path.toLowerCase();
      if (this.tree.get(p) || (!caseOnly && (await this.adapter.exists(p)))) {
        throw new Error('Destination file already exists!');
      }
      await this.adapter.rename(file.path, p);
      for (const folder of this.tree.ensureFolder(parentPath(p))) this.trigger('create', folder);
      for (const [entry, oldPath] of this.tree.move(file, p)) {
        const c = this.contents.get(oldPath);
        this.contents.delete(oldPath);
        if (c) this.contents.set(entry.path, c);
        this.trigger('rename', entry, oldPath);
      }
    });
  }

  /**
   * Deletes a file or folder from disk; fires `delete` for each entry, deepest first. Hidden
   * children of a folder are always removed with it, so `_force` changes nothing here.
   */
  async delete(file: TAbstractFile, _force?: boolean): Promise<void> {
    await this.removeWith(file, async () => {
      if (file instanceof TFolder) await this.adapter.rmdir(file.path, true);
      else await this.adapter.remove(file.path);
    });
  }

  /**
   * Moves a file or folder to the trash: the system trash when `system` is true and available
   * (never from Node), else `<vault>/.trash/` like Obsidian's local trash. Fires `delete`.
   */
  async trash(file: TAbstractFile, system: boolean): Promise<void> {
    await this.removeWith(file, async () => {
      if (!(system && (await this.adapter.trashSystem(file.path)))) await this.adapter.trashLocal(file.path);
    });
  }

  /** Copies a file or folder to `newPath` (must be free); fires `create` for what appears. */
  async copy<T extends O.TAbstractFile>(file: T, newPath: string): Promise<T> {
    const p = this.checkedPath(newPath);
    return this.exclusive(`path:${p}`, async () => {
      this.assertLoaded(file as unknown as TAbstractFile);
      if (this.tree.get(p) || (await this.adapter.exists(p))) {
        throw new Error(file instanceof TFolder ? 'Folder already exists.' : 'File already exists.');
      }
      this.assertParentLoaded(p);
      await this.adapter.copy(file.path, p);
      await loadSubtree(this.tree, this.adapter, p, this.configDir, (entry) => this.trigger('create', entry));
      return this.tree.get(p) as unknown as T;
    });
  }

  private checkedPath(path: string): string {
    const p = normalizePath(path);
    if (p === '/') throw new Error('The vault root cannot be used here; give a path inside the vault.');
    assertInsideVault(p);
    return p;
  }

  private assertLoaded(file: TAbstractFile): void {
    if (this.tree.get(file.path) !== file) throw new Error(`"${file.path}" is no longer in the vault (deleted or moved).`);
  }

  private assertParentLoaded(path: string): void {
    const parent = parentPath(path);
    if (!(this.tree.get(parent) instanceof TFolder)) {
      const err = new Error(`ENOENT: folder "${parent}" does not exist; create it first with vault.createFolder.`);
      (err as NodeJS.ErrnoException).code = 'ENOENT';
      throw err;
    }
  }

  private async createWith(path: string, options: O.DataWriteOptions | undefined, write: (p: string) => Promise<void>, text: string | null): Promise<TFile> {
    const p = this.checkedPath(path);
    return this.exclusive(`path:${p}`, async () => {
      if (this.tree.get(p) || (await this.adapter.exists(p))) throw new Error('File already exists.');
      this.assertParentLoaded(p);
      await write(p);
      const file = this.tree.addFile(p, { ctime: 0, mtime: 0, size: 0 });
      await this.refreshStat(file, options, text);
      this.trigger('create', file);
      return file;
    });
  }

  private async writeExisting(file: TFile, options: O.DataWriteOptions | undefined, write: () => Promise<void>, text: () => string | null): Promise<void> {
    await this.exclusive(file, async () => {
      this.assertLoaded(file);
      await write();
      await this.afterWrite(file, options, text());
    });
  }

  private async afterWrite(file: TFile, options: O.DataWriteOptions | undefined, text: string | null): Promise<void> {
    await this.refreshStat(file, options, text);
    this.trigger('modify', file);
  }

  private async removeWith(file: TAbstractFile, remove: () => Promise<void>): Promise<void> {
    await this.exclusive(file, async () => {
      this.assertLoaded(file);
      if (file === this.tree.root) throw new Error('The vault root cannot be deleted.');
      await remove();
      for (const entry of this.tree.remove(file)) {
        this.contents.delete(entry.path);
        this.trigger('delete', entry);
      }
    });
  }

  /** Reloads `file.stat` from disk (ctime from `options` when given) and caches `text`. */
  private async refreshStat(file: TFile, options: O.DataWriteOptions | undefined, text: string | null): Promise<void> {
    const s = await this.adapter.stat(file.path);
    if (s) file.stat = { ctime: options?.ctime ?? s.ctime, mtime: s.mtime, size: s.size };
    if (text === null) this.contents.delete(file.path);
    else this.contents.set(file.path, { mtime: file.stat.mtime, size: file.stat.size, data: text });
  }

  /**
   * Runs `fn` after every earlier operation holding `key` (a TAbstractFile or `path:<p>`),
   * counting it as a host write so the disk poller ignores the window.
   */
  private async exclusive<T>(key: unknown, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.locks.set(key, tail);
    await previous;
    this.busy++;
    this.epoch++;
    try {
      return await fn();
    } finally {
      this.busy--;
      this.epoch++;
      release();
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }
}
