import type * as O from 'obsidian';
import { promises as fsp, type Stats } from 'node:fs';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { normalizePath, assertInsideVault, splitExtension } from './path';

/** Copies the bytes of a Node Buffer into a standalone ArrayBuffer. */
function toArrayBuffer(buf: Buffer): ArrayBuffer {
  const out = new ArrayBuffer(buf.byteLength);
  new Uint8Array(out).set(buf);
  return out;
}

/**
 * The creation time (ms since the epoch) of the file `s` describes, as Obsidian's adapter
 * reports it: its birth time, or its change time where the file system keeps none (Node's
 * `birthtimeMs` is then 0). Writes keep a file's birth time, since they are made in place
 * ({@link writeInPlace}).
 */
export function createdOf(s: Stats): number {
  return s.birthtimeMs > 0 ? Math.round(s.birthtimeMs) : Math.round(s.ctimeMs);
}

/**
 * Writes `data` to `fullPath` in place, as Obsidian's desktop adapter does (Node's
 * `fs.writeFile`): an existing file is truncated and rewritten, so it keeps its device, inode and
 * birth time (what a revert's identity check relies on, across restarts too); a missing one is
 * created. A `fullPath` that is a symbolic link is written through: the file it leads to gets the
 * data and the link stays (a link whose target is missing creates that target), as `fs.writeFile`
 * follows links. Applies `options.mtime` (ms) with utimes. Not atomic, as Obsidian's write is not:
 * a disk that fills up, or a crash, mid-write can leave part of the new text.
 * @throws the fs error (ENOENT when the folder is missing, ENOSPC, EACCES, ...).
 */
export async function writeInPlace(fullPath: string, data: string | Uint8Array, options?: O.DataWriteOptions): Promise<void> {
  await fsp.writeFile(fullPath, data);
  if (options?.mtime !== undefined) await fsp.utimes(fullPath, new Date(options.mtime), new Date(options.mtime));
}

/**
 * Obsidian's desktop `FileSystemAdapter` (obsidian.d.ts `DataAdapter`) over a real folder.
 * Paths are vault-relative and normalized with `normalizePath`; `..` segments are refused.
 * Like Obsidian's adapter, it does not fire vault events itself: changes made through it are
 * picked up by the host's disk watcher, as Obsidian's file watcher would.
 */
export class FileSystemAdapter implements O.DataAdapter {
  /** Absolute path of the vault folder on disk. */
  readonly basePath: string;
  /**
   * On-disk names that differ from their NFC vault path (macOS NFD names), by vault path:
   * `Cafés` (NFC, what Obsidian's paths use) → `Cafe\u0301s` (what the disk holds).
   */
  private readonly diskNames = new Map<string, string>();

  /** Host: a backslash in a path names a character of a disk name, not a separator (VaultOptions `listBackslashNames`). */
  private readonly keepBackslashes: boolean;

  /**
   * Creates an adapter over `basePath` (an absolute or cwd-relative folder path). `keepBackslashes`
   * (default false): paths keep `\` as part of a name, as Obsidian's desktop adapter joins them to
   * the vault folder (VaultOptions `listBackslashNames`); by default `\` is a separator, as `normalizePath` reads it.
   */
  constructor(basePath: string, options: { keepBackslashes?: boolean } = {}) {
    this.basePath = nodePath.resolve(basePath);
    this.keepBackslashes = options.keepBackslashes === true;
  }

  /** `normalizePath(path)`, a backslash kept as a name's character when {@link keepBackslashes}. */
  private normalized(path: string): string {
    if (!this.keepBackslashes || !path.includes('\\')) return normalizePath(path);
    return normalizePath(path.replace(/\\/g, '\uE000')).replace(/\uE000/g, '\\');
  }

  /** The vault folder's name. */
  getName(): string {
    return nodePath.basename(this.basePath);
  }

  /** Absolute path of the vault folder. */
  getBasePath(): string {
    return this.basePath;
  }

  /**
   * Absolute disk path for a vault path, each segment spelled as on disk (see
   * rememberDiskNames); throws when the path would leave the vault.
   */
  getFullPath(normalizedPath: string): string {
    const p = this.normalized(normalizedPath);
    if (p === '/') return this.basePath;
    assertInsideVault(p);
    const segments = p.split('/');
    const onDisk = segments.map((segment, i) => this.diskNames.get(segments.slice(0, i + 1).join('/')) ?? segment);
    return nodePath.join(this.basePath, ...onDisk);
  }

  /**
   * Host: records the disk spelling of names a scan found in a non-NFC form (DiskEntry
   * `diskName`), and forgets recorded names the scan no longer saw. `roots` (vault paths)
   * says the scan covered only those paths and what lies below them; names elsewhere stay.
   */
  rememberDiskNames(entries: Map<string, { diskName?: string }>, roots?: readonly string[]): void {
    const covered = (path: string): boolean => roots === undefined || roots.some((r) => path === r || path.startsWith(r + '/'));
    for (const path of [...this.diskNames.keys()]) if (covered(path) && !entries.get(path)?.diskName) this.diskNames.delete(path);
    for (const [path, entry] of entries) if (entry.diskName) this.diskNames.set(path, entry.diskName);
  }

  /** Re-keys or drops recorded disk names under `path` after it moved to `newPath` (null: removed). */
  private moveDiskNames(path: string, newPath: string | null): void {
    const p = normalizePath(path);
    for (const [key, name] of [...this.diskNames]) {
      if (key !== p && !key.startsWith(p + '/')) continue;
      this.diskNames.delete(key);
      if (newPath !== null && key !== p) this.diskNames.set(normalizePath(newPath) + key.slice(p.length), name);
    }
  }

  /** A `file://` URL for the file (the desktop app uses its own `app://` scheme). */
  getFilePath(normalizedPath: string): string {
    return pathToFileURL(this.getFullPath(normalizedPath)).href;
  }

  /** A resource URL for the browser engine, with the path URL-encoded. */
  getResourcePath(normalizedPath: string): string {
    return this.getFilePath(normalizedPath);
  }

  /** Whether something exists at the path; `sensitive` also requires an exact-case name match. */
  async exists(normalizedPath: string, sensitive?: boolean): Promise<boolean> {
    const full = this.getFullPath(normalizedPath);
    try {
      await fsp.stat(full);
    } catch {
      return false;
    }
    if (!sensitive) return true;
    const names = await fsp.readdir(nodePath.dirname(full));
    const wanted = nodePath.basename(full).normalize('NFC');
    return names.some((n) => n.normalize('NFC') === wanted);
  }

  /** `{type, ctime, mtime, size}` (ms, bytes) or null when nothing is there. */
  async stat(normalizedPath: string): Promise<O.Stat | null> {
    try {
      const s = await fsp.stat(this.getFullPath(normalizedPath));
      return {
        type: s.isDirectory() ? 'folder' : 'file',
        ctime: createdOf(s),
        mtime: Math.round(s.mtimeMs),
        size: s.size,
      };
    } catch {
      return null;
    }
  }

  /**
   * Direct children of a folder as vault paths, split into files and folders: a plain listing of
   * the disk, symbolic links followed (a link to a folder is listed as a folder), so it also names
   * a folder link the vault's index leaves out because Obsidian ignores it (into the vault, to a
   * parent of it: see isIgnoredLink in watcher.ts). The adapter is the disk; the index is what
   * Obsidian loads.
   */
  async list(normalizedPath: string): Promise<O.ListedFiles> {
    const base = this.normalized(normalizedPath);
    const full = this.getFullPath(base);
    const names = await fsp.readdir(full);
    const entries = await Promise.all(
      names.map(async (name) => {
        const s = await fsp.stat(nodePath.join(full, name)).catch(() => null);
        return { name, isDirectory: () => s?.isDirectory() === true };
      }),
    );
    const join = (n: string): string => {
      const path = base === '/' ? n.normalize('NFC') : `${base}/${n.normalize('NFC')}`;
      if (path !== (base === '/' ? n : `${base}/${n}`)) this.diskNames.set(path, n);
      return path;
    };
    return {
      files: entries.filter((e) => !e.isDirectory()).map((e) => join(e.name)),
      folders: entries.filter((e) => e.isDirectory()).map((e) => join(e.name)),
    };
  }

  /** Reads a text file as UTF-8 (a BOM, if any, is kept as U+FEFF). */
  async read(normalizedPath: string): Promise<string> {
    return fsp.readFile(this.getFullPath(normalizedPath), 'utf8');
  }

  /** Reads a file's bytes. */
  async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
    return toArrayBuffer(await fsp.readFile(this.getFullPath(normalizedPath)));
  }

  /** Writes text in place ({@link writeInPlace}); the folder must exist. */
  async write(normalizedPath: string, data: string, options?: O.DataWriteOptions): Promise<void> {
    await writeInPlace(this.getFullPath(normalizedPath), data, options);
  }

  /** Writes bytes in place ({@link writeInPlace}); the folder must exist. */
  async writeBinary(normalizedPath: string, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
    await writeInPlace(this.getFullPath(normalizedPath), new Uint8Array(data), options);
  }

  /**
   * Appends text with an append-mode write (`fs.appendFile`, `O_APPEND`): the bytes go at the
   * file's end as it is at that instant, so concurrent appenders never overwrite each other.
   * The file must exist (ENOENT otherwise, as a vault file's append would). `options.mtime` is applied.
   */
  async append(normalizedPath: string, data: string, options?: O.DataWriteOptions): Promise<void> {
    const full = this.getFullPath(normalizedPath);
    await fsp.access(full);
    await fsp.appendFile(full, data, { encoding: 'utf8', flag: 'a' });
    if (options?.mtime !== undefined) await fsp.utimes(full, new Date(options.mtime), new Date(options.mtime));
  }

  /** Appends bytes (read, concatenate, write in place). */
  async appendBinary(normalizedPath: string, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
    const current = new Uint8Array(await this.readBinary(normalizedPath));
    const next = new Uint8Array(current.byteLength + data.byteLength);
    next.set(current);
    next.set(new Uint8Array(data), current.byteLength);
    await writeInPlace(this.getFullPath(normalizedPath), next, options);
  }

  /** Read-modify-write with a synchronous `fn`; returns the text written (not serialized here). */
  async process(normalizedPath: string, fn: (data: string) => string, options?: O.DataWriteOptions): Promise<string> {
    const next = fn(await this.read(normalizedPath));
    await this.write(normalizedPath, next, options);
    return next;
  }

  /** Creates a folder and any missing parents (no error if it exists). */
  async mkdir(normalizedPath: string): Promise<void> {
    await fsp.mkdir(this.getFullPath(normalizedPath), { recursive: true });
  }

  /** The system trash is not reachable from Node: always returns false (callers fall back to local). */
  async trashSystem(_normalizedPath: string): Promise<boolean> {
    return false;
  }

  /**
   * Moves a file or folder into `<vault>/.trash/`, as Obsidian's local trash does; a name
   * already taken there gets ` 1`, ` 2`, ... before its extension.
   */
  async trashLocal(normalizedPath: string): Promise<void> {
    const trashDir = nodePath.join(this.basePath, '.trash');
    await fsp.mkdir(trashDir, { recursive: true });
    const name = nodePath.basename(this.getFullPath(normalizedPath));
    const [stem, ext] = splitExtension(name);
    let target = nodePath.join(trashDir, name);
    for (
      let n = 1;
      await fsp.stat(target).then(
        () => true,
        () => false,
      );
      n++
    ) {
      target = nodePath.join(trashDir, `${stem} ${n}${ext ? '.' + ext : ''}`);
    }
    await fsp.rename(this.getFullPath(normalizedPath), target);
    this.moveDiskNames(normalizedPath, null);
  }

  /** Removes a folder; without `recursive` the folder must be empty. */
  async rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
    const full = this.getFullPath(normalizedPath);
    if (recursive) await fsp.rm(full, { recursive: true });
    else await fsp.rmdir(full);
    this.moveDiskNames(normalizedPath, null);
  }

  /** Deletes a file. */
  async remove(normalizedPath: string): Promise<void> {
    await fsp.unlink(this.getFullPath(normalizedPath));
    this.moveDiskNames(normalizedPath, null);
  }

  /** Renames or moves a file or folder, creating the target's missing parent folders. */
  async rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    const target = this.getFullPath(normalizedNewPath);
    await fsp.mkdir(nodePath.dirname(target), { recursive: true });
    await fsp.rename(this.getFullPath(normalizedPath), target);
    this.moveDiskNames(normalizedPath, normalizedNewPath);
  }

  /** Copies a file or folder (recursively), failing if the target exists. */
  async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    await fsp.cp(this.getFullPath(normalizedPath), this.getFullPath(normalizedNewPath), {
      recursive: true,
      errorOnExist: true,
      force: false,
    });
  }
}
