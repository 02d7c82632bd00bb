import { promises as fsp, watch, type Dirent, type FSWatcher, type Stats } from 'node:fs';
import * as nodePath from 'node:path';
import { isHiddenPath, joinPath } from './path';
import { createdOf } from './vault-adapter';

/** What the disk holds at one vault path (times in ms since the epoch, size in bytes). */
export interface DiskEntry {
  type: 'file' | 'folder';
  ctime: number;
  mtime: number;
  size: number;
  /** Set when `ctime` is the file's birth time (the file system keeps one), so a new value means a new file there. */
  birth?: true;
  /** The name as stored on disk when it differs from the NFC name in the key (a macOS NFD name). */
  diskName?: string;
}

/** Whether `inner` is `outer` or lies below it (absolute disk paths). */
function isAtOrBelow(inner: string, outer: string): boolean {
  const rel = nodePath.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

/**
 * Whether Obsidian leaves out the symbolic link (or Windows junction) at disk path `full`, so
 * nothing is listed under its path and no event fires for it. Obsidian's help page "Symbolic
 * links and junctions" (help.obsidian.md/symlinks): "Symlink targets must be fully disjoint from
 * the vault root [...] Obsidian ignores any symlink to a parent folder of the vault, or from one
 * folder in the vault to another folder in the same vault", and "Symlink loops are disallowed".
 * So a link to a folder is ignored when its real target (every link followed) is the vault
 * folder, lies inside it, or contains it, or when it contains the folder the link itself lies in
 * (a loop, e.g. a link inside a linked outside folder back to that folder). A link to a folder
 * outside the vault and not overlapping it is followed. A link to a single file is kept wherever
 * it leads: the page says only that file symlinks "may work, but aren't officially supported",
 * nothing about ignoring them. Returns false for an entry that is not a link, and for a link
 * that leads nowhere (the scan skips that one itself).
 * @param full absolute disk path of the entry.
 * @param realBase the vault folder's real path (`fs.realpath` of the adapter's base path).
 */
export async function isIgnoredLink(full: string, realBase: string): Promise<boolean> {
  const l = await fsp.lstat(full).catch(() => null);
  if (!l?.isSymbolicLink()) return false;
  const real = await fsp.realpath(full).catch(() => null);
  if (real === null) return false;
  const s = await fsp.stat(real).catch(() => null);
  if (!s?.isDirectory()) return false;
  if (isAtOrBelow(real, realBase) || isAtOrBelow(realBase, real)) return true;
  const home = await fsp.realpath(nodePath.dirname(full)).catch(() => null);
  return home !== null && isAtOrBelow(home, real);
}

/** Names already reported by {@link reportLeftOut}: one line per name a process, not one per scan. */
const reportedLeftOut = new Set<string>();

/**
 * Says once (console.warn) that the file or folder at `shown` (its folder path and disk name) is
 * left out of the vault, and `why`, so a note the scan cannot list is not missing unsaid.
 */
function reportLeftOut(shown: string, why: string): void {
  if (reportedLeftOut.has(shown)) return;
  reportedLeftOut.add(shown);
  console.warn(`[host] left out "${shown}": ${why}`);
}

/**
 * {@link reportLeftOut} for a name holding a backslash, which Obsidian's `normalizePath` reads as a
 * folder separator (obsidian.d.ts; the app refuses `\\` in new names), so no vault path reaches it.
 */
function skipBackslashName(shown: string): void {
  reportLeftOut(shown, 'a vault path cannot hold a backslash (Obsidian reads it as a folder separator); rename it on disk to use it.');
}

/**
 * Lists every file and folder Obsidian would load from `basePath`: skips dot-files,
 * dot-folders, `node_modules`, the config dir (see isHiddenPath) and the symbolic links Obsidian
 * ignores (folder links into the vault, to a parent of it, or in a loop: {@link isIgnoredLink});
 * other links are followed, a folder link's files listed under its path; a name holding a backslash
 * is left out with one warning ({@link skipBackslashName}), or listed under that name when
 * `listBackslashNames` (VaultOptions). Returns a Map from vault
 * path to DiskEntry. Vault paths are Unicode NFC, as Obsidian's `normalizePath` makes them; a
 * name stored in another form on disk (NFD, as macOS-synced vaults have) keeps its disk
 * spelling in `diskName`; of two names of one folder that differ only in Unicode form, the NFC one is
 * listed and the other left out with one warning. Entries that vanish mid-scan are skipped; an unreadable vault root throws.
 * `under` (a vault folder path, default the root) with its disk path `underFull` scans only
 * below that folder (the folder itself is not listed).
 */
export async function scanVaultFolder(
  basePath: string,
  configDir: string,
  under = '/',
  underFull = basePath,
  listBackslashNames = false,
): Promise<Map<string, DiskEntry>> {
  const out = new Map<string, DiskEntry>();
  const realBase = await fsp.realpath(basePath).catch(() => basePath);
  const walk = async (folder: string, full: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(full, { withFileTypes: true });
    } catch (err) {
      if (folder === under) throw err;
      return;
    }
    // Two names of one folder that differ only in Unicode form are one vault path: the one already in NFC is kept,
    // whatever order readdir gives or the stats below finish in (each entry was judged before any had been set).
    const nfcNames = new Set(entries.map((entry) => entry.name).filter((name) => name === name.normalize('NFC')));
    await Promise.all(
      entries.map(async (entry) => {
        const name = entry.name;
        if (!listBackslashNames && name.includes('\\')) return skipBackslashName(joinPath(folder, name));
        const nfc = name.normalize('NFC');
        const path = joinPath(folder, nfc);
        if (isHiddenPath(path, configDir) || out.has(path)) return;
        if (nfc !== name && nfcNames.has(nfc)) {
          return reportLeftOut(
            joinPath(folder, name),
            `its name differs from "${nfc}" beside it only in Unicode form (NFD against NFC), and a vault path is NFC, so both would be one path; rename one on disk to use it.`,
          );
        }
        const diskName = nfc === name ? {} : { diskName: name };
        if (entry.isSymbolicLink() && (await isIgnoredLink(nodePath.join(full, name), realBase))) return;
        let s;
        try {
          s = await fsp.stat(nodePath.join(full, name));
        } catch {
          return;
        }
        const ctime = ctimeOf(s);
        if (s.isDirectory()) {
          out.set(path, { type: 'folder', ctime, mtime: Math.round(s.mtimeMs), size: 0, ...diskName });
          await walk(path, nodePath.join(full, name));
        } else if (s.isFile()) {
          out.set(path, { type: 'file', ctime, mtime: Math.round(s.mtimeMs), size: s.size, ...born(s), ...diskName });
        }
      }),
    );
  };
  await walk(under, underFull);
  return out;
}

/**
 * Scans what the disk holds at each of `paths` (vault paths) for a targeted sync: a file
 * gives its entry, a folder its entry and everything Obsidian would load under it, a missing
 * path or a folder link Obsidian ignores ({@link isIgnoredLink}) nothing. Paths under a hidden
 * segment (see isHiddenPath) are skipped, and so are paths holding a backslash unless
 * `listBackslashNames` (as {@link scanVaultFolder} leaves such names out: the disk watcher
 * reports them by name, and `fullPathOf` would read the backslash as a separator and stat another file).
 * @param fullPathOf the absolute disk path of a vault path (FileSystemAdapter.getFullPath)
 * @returns the entries found, keyed by vault path.
 */
export async function scanVaultPaths(
  basePath: string,
  configDir: string,
  paths: readonly string[],
  fullPathOf: (path: string) => string,
  listBackslashNames = false,
): Promise<Map<string, DiskEntry>> {
  const out = new Map<string, DiskEntry>();
  const realBase = await fsp.realpath(basePath).catch(() => basePath);
  for (const path of paths) {
    if (isHiddenPath(path, configDir)) continue;
    if (!listBackslashNames && path.includes('\\')) {
      skipBackslashName(path);
      continue;
    }
    let full: string;
    try {
      full = fullPathOf(path);
    } catch {
      continue;
    }
    let s = await fsp.stat(full).catch(() => null);
    if (!s) {
      // A new name stored in another Unicode form (NFD) is not known to the adapter yet.
      const name = await diskSpelling(nodePath.dirname(full), path.slice(path.lastIndexOf('/') + 1));
      if (name === null) continue;
      full = nodePath.join(nodePath.dirname(full), name);
      s = await fsp.stat(full).catch(() => null);
      if (!s) continue;
    }
    // The disk spelling whether it was just found or already known (fullPathOf spells known names as on disk): a
    // rescan of a known NFD name must keep it, or the adapter forgets it and every later write goes to an NFC twin.
    if (s.isDirectory() && (await isIgnoredLink(full, realBase))) continue;
    const onDisk = nodePath.basename(full);
    const diskName: { diskName?: string } = onDisk !== onDisk.normalize('NFC') ? { diskName: onDisk } : {};
    if (s.isFile()) {
      out.set(path, { type: 'file', ctime: ctimeOf(s), mtime: Math.round(s.mtimeMs), size: s.size, ...born(s), ...diskName });
    } else if (s.isDirectory()) {
      out.set(path, { type: 'folder', ctime: ctimeOf(s), mtime: Math.round(s.mtimeMs), size: 0, ...diskName });
      const below = await scanVaultFolder(basePath, configDir, path, full, listBackslashNames);
      for (const [p, e] of below) out.set(p, e);
    }
  }
  return out;
}

/**
 * Follows changes other programs make in the vault folder with one non-recursive `fs.watch`
 * per loaded folder (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows).
 * Node 20's `recursive: true` on Linux opens a watcher and runs a synchronous `stat` per
 * *file* (14k of them on a large vault), so folders are watched one by one instead: a folder
 * watcher reports its children's creates, writes, deletes and renames by name.
 * Changed vault paths are gathered for `delayMs` and handed to `onChange` in one batch; a
 * batch `onChange` asks to retry (returns false) is kept and offered again. Folders come and
 * go through `watchFolder` / `unwatchFolder` (the Vault calls them from its own events).
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  /**
   * @param fullPathOf the absolute disk path of a vault folder (FileSystemAdapter.getFullPath)
   * @param onChange applies a batch of changed vault paths; resolves false to have the batch
   *   retried after `delayMs` (e.g. while a host write is in flight). Errors are logged.
   * @param delayMs how long events are gathered before a batch is applied (ms).
   * @param listBackslashNames report a name holding a backslash (VaultOptions `listBackslashNames`);
   *   by default it is left out with one warning, as {@link scanVaultFolder} leaves it out.
   */
  constructor(
    private readonly fullPathOf: (path: string) => string,
    private readonly onChange: (paths: string[]) => Promise<boolean>,
    private readonly delayMs: number,
    private readonly listBackslashNames = false,
  ) {}

  /**
   * Watches the folder at vault path `path` (`/` = the vault root); no-op if watched or
   * stopped. `rescan` also queues the folder itself, for a folder that appeared while
   * running: whatever was written into it before its watch began is picked up too.
   */
  watchFolder(path: string, rescan = false): void {
    if (this.stopped || this.watchers.has(path)) return;
    if (rescan) this.queue(path);
    let watcher: FSWatcher;
    try {
      watcher = watch(this.fullPathOf(path), { persistent: false }, (_event, name) => {
        if (name === null) return this.queue(path);
        const shown = joinPath(path, String(name).normalize('NFC'));
        // Not queued: its path would read the backslash as a separator and reach another file (scanVaultFolder leaves it out too).
        if (!this.listBackslashNames && shown.includes('\\')) return skipBackslashName(joinPath(path, String(name)));
        this.queue(shown);
      });
    } catch {
      return; // gone already: its parent's watcher reports the removal
    }
    watcher.on('error', () => this.unwatchFolder(path));
    this.watchers.set(path, watcher);
  }

  /** Stops watching the folder at `path` and every watched folder below it. */
  unwatchFolder(path: string): void {
    for (const [p, w] of this.watchers) {
      if (p === path || p.startsWith(path + '/')) {
        w.close();
        this.watchers.delete(p);
      }
    }
  }

  /** Number of folders watched (one OS watch each). */
  get size(): number {
    return this.watchers.size;
  }

  /** Closes every watcher and waits for a batch being applied. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.pending.clear();
    await this.running;
  }

  private queue(path: string): void {
    if (this.stopped) return;
    this.pending.add(path === '' ? '/' : path);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.running || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = [...this.pending];
      this.pending.clear();
      this.running = this.onChange(batch)
        .then((done) => {
          if (!done) for (const p of batch) this.pending.add(p);
        })
        .catch((err) => console.error('[host] applying disk changes failed:', err))
        .finally(() => {
          this.running = null;
          if (this.pending.size) this.schedule();
        });
    }, this.delayMs);
    this.timer.unref();
  }
}

/** The on-disk name in folder `dir` whose NFC form is `nfcName`, or null when there is none. */
async function diskSpelling(dir: string, nfcName: string): Promise<string | null> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  return names.find((n) => n !== nfcName && n.normalize('NFC') === nfcName) ?? null;
}

/** `{birth: true}` when `s` has a birth time (see DiskEntry.birth), else nothing. */
function born(s: Stats): { birth?: true } {
  return s.birthtimeMs > 0 ? { birth: true } : {};
}

function ctimeOf(s: Stats): number {
  return createdOf(s);
}
