import type * as O from 'obsidian';
import { Events } from '../events';
import { TAbstractFile, TFile, TFolder } from './abstract-file';
import { FileSystemAdapter } from './vault-adapter';
import { VaultTree } from './vault-tree';
import { FolderWatcher, scanVaultFolder, scanVaultPaths } from './watcher';
import { assertInsideVault, isHiddenPath, normalizePath, parentPath } from './path';
import { loadSubtree, syncTreeWithDisk } from './vault-sync';

/** Options of the host Vault. */
export interface VaultOptions {
  /** The config folder, vault-relative (Obsidian's `vault.configDir`); default `.obsidian`. */
  configDir?: string;
  /**
   * Load a file or folder whose disk name holds a backslash under that name (its vault path then
   * holds `\`, which `getAbstractFileByPath` reads as `/`, as Obsidian does), and let the adapter
   * reach it by that path, as Obsidian's desktop adapter joins a path to the vault folder without
   * turning `\` into a separator (a plugin writing `a\b.md` on Linux makes a file of that name).
   * Obsidian does not document whether it lists such names; default false: left out with one
   * warning (watcher.ts skipBackslashName), at the start scan and from the disk watcher alike.
   */
  listBackslashNames?: boolean;
}

/**
 * Obsidian's `Vault` (obsidian.d.ts) over a real folder. Writes go to disk in place, as
 * Obsidian's desktop adapter makes them (the file keeps its inode and birth time), and update the
 * file index before the promise resolves; a write keeps the file's `stat.ctime` (its creation
 * time, as Obsidian keeps it), and so does a rename; events
 * `create`/`modify`/`delete`/`rename` fire like Obsidian's. Text writes (`modify`, `append`,
 * `process`) are serialized per file, so concurrent `process` calls never lose an update.
 * Dot-files, dot-folders, `node_modules`, the config dir and the symbolic links Obsidian ignores
 * (into the vault, to a parent of it, loops: see isIgnoredLink) are not loaded as TFiles.
 * Changes made on disk by other programs are picked up by a folder watcher (`startWatching`)
 * or a full scan (`syncFromDisk`), never double-firing for the host's own writes.
 */
export class Vault extends Events implements O.Vault {
  adapter: FileSystemAdapter;
  configDir: string;
  private readonly tree: VaultTree;
  private readonly locks = new Map<unknown, Promise<void>>();
  private readonly contents = new Map<string, { mtime: number; size: number; data: string }>();
  /**
   * The longest text (chars) kept in memory for `cachedRead`, as Obsidian's own `vault.cacheLimit`
   * (unofficial; 65,536 by default: `TFile.cache` keeps a text up to it and drops a longer one,
   * per the obsidian-typings declarations of `TFile.updateCacheLimit`). A longer note is read
   * from disk on every `cachedRead`.
   */
  cacheLimit = 65_536;
  private busy = 0;
  private epoch = 0;
  private watcher: FolderWatcher | null = null;
  private watchRefs: O.EventRef[] = [];
  /** VaultOptions `listBackslashNames`. */
  private readonly listBackslashNames: boolean;

  /** Creates a vault over `basePath`; call `load()` before use. */
  constructor(basePath: string, options: VaultOptions = {}) {
    super();
    this.listBackslashNames = options.listBackslashNames === true;
    this.adapter = new FileSystemAdapter(basePath, { keepBackslashes: this.listBackslashNames });
    this.configDir = normalizePath(options.configDir ?? '.obsidian');
    this.tree = new VaultTree(this);
  }

  /** Host: loads the folder's files into the index (no events, like the initial vault scan). */
  async load(): Promise<void> {
    const disk = await scanVaultFolder(this.adapter.basePath, this.configDir, '/', this.adapter.basePath, this.listBackslashNames);
    this.adapter.rememberDiskNames(disk);
    syncTreeWithDisk(this.tree, disk, () => undefined);
  }

  /**
   * Host: watches every loaded folder for changes made by other programs (see FolderWatcher)
   * and applies them as create/modify/delete events after gathering them for `delayMs` ms.
   * A rename by another program arrives as a delete of the old path and a create of the new.
   * Folders the vault gains or loses later are watched or dropped through its own events.
   */
  startWatching(delayMs: number): void {
    if (this.watcher) return;
    const watcher = new FolderWatcher(
      (p) => this.adapter.getFullPath(p),
      (paths) => this.applyDiskChanges(paths),
      delayMs,
      this.listBackslashNames,
    );
    this.watcher = watcher;
    watcher.watchFolder('/');
    for (const folder of this.getAllFolders(false)) watcher.watchFolder(folder.path);
    const watchTree = (folder: TFolder): void => {
      watcher.watchFolder(folder.path, true);
      for (const entry of this.tree.descendants(folder)) if (entry instanceof TFolder) watcher.watchFolder(entry.path, true);
    };
    this.watchRefs = [
      this.on('create', (f: TAbstractFile) => {
        if (f instanceof TFolder) watchTree(f);
      }),
      this.on('delete', (f: TAbstractFile) => {
        if (f instanceof TFolder) watcher.unwatchFolder(f.path);
      }),
      this.on('rename', (f: TAbstractFile, oldPath: string) => {
        if (!(f instanceof TFolder)) return;
        watcher.unwatchFolder(oldPath);
        watchTree(f);
      }),
    ];
  }

  /** Host: stops watching and waits for a batch of disk changes being applied. */
  async stopWatching(): Promise<void> {
    for (const ref of this.watchRefs.splice(0)) this.offref(ref);
    await this.watcher?.stop();
    this.watcher = null;
  }

  /** Host: number of folders the disk watcher holds an OS watch on (0 when not watching). */
  get watchedFolderCount(): number {
    return this.watcher?.size ?? 0;
  }

  /**
   * Host: scans the folder once and applies what changed on disk since the last look
   * (create/modify/delete events). Skipped while a host write is in flight, and discarded if
   * one started during the scan, so host writes are never reported twice.
   */
  async syncFromDisk(): Promise<void> {
    if (this.busy > 0) return;
    const epoch = this.epoch;
    const disk = await scanVaultFolder(this.adapter.basePath, this.configDir, '/', this.adapter.basePath, this.listBackslashNames);
    if (this.busy > 0 || epoch !== this.epoch) return;
    this.adapter.rememberDiskNames(disk);
    syncTreeWithDisk(this.tree, disk, (name, file) => {
      if (name !== 'create') this.contents.delete(file.path);
      this.trigger(name, file);
    });
  }

  /**
   * Host: applies what the disk holds at `paths` (vault paths a watcher reported) and below
   * them. A path whose parent folder is not loaded is widened to its outermost missing
   * ancestor, so new folders arrive whole. `/` means the whole vault (see syncFromDisk).
   * @returns false, without applying anything, when a host write was in flight before or
   *   during the scan (the caller retries later), so host writes are never reported twice.
   */
  private async applyDiskChanges(paths: string[]): Promise<boolean> {
    if (this.busy > 0) return false;
    if (paths.includes('/')) {
      const epoch = this.epoch;
      await this.syncFromDisk();
      return this.epoch === epoch;
    }
    const roots = this.syncRoots(paths);
    if (roots.length === 0) return true;
    const epoch = this.epoch;
    const disk = await scanVaultPaths(
      this.adapter.basePath,
      this.configDir,
      roots,
      (p) => this.adapter.getFullPath(p),
      this.listBackslashNames,
    );
    if (this.busy > 0 || epoch !== this.epoch) return false;
    this.adapter.rememberDiskNames(disk, roots);
    syncTreeWithDisk(
      this.tree,
      disk,
      (name, file) => {
        if (name !== 'create') this.contents.delete(file.path);
        this.trigger(name, file);
      },
      roots,
    );
    return true;
  }

  /** Visible `paths` widened to their outermost ancestor missing from the index, without paths below another. */
  private syncRoots(paths: string[]): string[] {
    const widened = new Set<string>();
    for (const path of paths) {
      if (isHiddenPath(path, this.configDir)) continue;
      let p = path;
      while (parentPath(p) !== '/' && !(this.tree.get(parentPath(p)) instanceof TFolder)) p = parentPath(p);
      widened.add(p);
    }
    return [...widened].filter((p) => ![...widened].some((q) => q !== p && p.startsWith(q + '/')));
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
    this.remember(file, data);
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
    await this.writeExisting(
      file,
      options,
      () => this.adapter.write(file.path, data, options),
      () => data,
    );
  }

  async modifyBinary(file: TFile, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
    await this.writeExisting(
      file,
      options,
      () => this.adapter.writeBinary(file.path, data, options),
      () => null,
    );
  }

  /**
   * Appends text with an append-mode write (the adapter's `append`: `O_APPEND`, as Obsidian's
   * desktop adapter does), so another program appending at the same time loses nothing;
   * fires `modify`. The cached text is dropped (the file may hold more than this process wrote).
   */
  async append(file: TFile, data: string, options?: O.DataWriteOptions): Promise<void> {
    await this.writeExisting(
      file,
      options,
      () => this.adapter.append(file.path, data, options),
      () => null,
    );
  }

  async appendBinary(file: TFile, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
    await this.writeExisting(
      file,
      options,
      () => this.adapter.appendBinary(file.path, data, options),
      () => null,
    );
  }

  /**
   * Read-modify-write, atomic against the host's other writes to the file (not on disk: the text
   * is written in place, as Obsidian does): reads the current text from disk, calls the synchronous
   * `fn`, writes its result and fires `modify` (nothing is written when `fn` returns the same text).
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

  /**
   * Host: whether `file` is the loaded entry at its own path (not deleted, moved or replaced). Unlike
   * `getFileByPath(file.path) === file` it holds for a path with a backslash (VaultOptions
   * `listBackslashNames`), which `getFileByPath` reads as a separator.
   */
  holds(file: TAbstractFile): boolean {
    return this.tree.get(file.path) === file;
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

  private async createWith(
    path: string,
    options: O.DataWriteOptions | undefined,
    write: (p: string) => Promise<void>,
    text: string | null,
  ): Promise<TFile> {
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

  private async writeExisting(
    file: TFile,
    options: O.DataWriteOptions | undefined,
    write: () => Promise<void>,
    text: () => string | null,
  ): Promise<void> {
    await this.exclusive(file, async () => {
      this.assertLoaded(file);
      await write();
      await this.afterWrite(file, options, text());
    });
  }

  /**
   * After `modify`, `process` or `append` of an existing file: mtime and size from disk, but
   * ctime stays the file's creation time (obsidian.d.ts `FileStats.ctime`: "Time of creation"),
   * as in Obsidian, whose desktop adapter rewrites the file in place (so does the host's adapter;
   * where the file system keeps no birth time, the time read from disk is that of the last change,
   * and the index keeps the one it had). `options.ctime` still sets it, as `DataWriteOptions` documents.
   */
  private async afterWrite(file: TFile, options: O.DataWriteOptions | undefined, text: string | null): Promise<void> {
    const created = file.stat.ctime;
    await this.refreshStat(file, options?.ctime === undefined && created > 0 ? { ...options, ctime: created } : options, text);
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
    this.remember(file, text);
  }

  /** Keeps `text` as `file`'s cached text when it is at most {@link cacheLimit} chars, else forgets any (null forgets). */
  private remember(file: TFile, text: string | null): void {
    if (text === null || text.length > this.cacheLimit) this.contents.delete(file.path);
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
