import { promises as fsp } from 'node:fs';
import type { FileSystemAdapter } from './vault-adapter';
import type { VaultTree } from './vault-tree';
import { isIgnoredLink, type DiskEntry } from './watcher';
import { TAbstractFile, TFile, TFolder } from './abstract-file';
import { isHiddenPath } from './path';

/** Receives one vault event to fire for an entry the disk sync added, changed or removed. */
export type SyncEmit = (name: 'create' | 'modify' | 'delete', entry: TAbstractFile) => void;

function depth(path: string): number {
  return path.split('/').length;
}

/**
 * Makes the file index match a disk scan, synchronously: entries gone from disk (or that
 * changed between file and folder) are removed (`delete`, deepest first), new paths are added
 * parents first (`create`), and files whose mtime or size differ, or whose birth time does (a file put there anew,
 * renamed over it or copied with its times), get the new stat (`modify`).
 * `roots` (vault paths whose parents are loaded) limits the sync to those paths and what lies
 * below them, for a scan of only those (see scanVaultPaths); without it the scan is the vault.
 */
export function syncTreeWithDisk(tree: VaultTree, disk: Map<string, DiskEntry>, emit: SyncEmit, roots?: readonly string[]): void {
  const scope = roots === undefined ? tree.entries() : entriesAt(tree, roots);
  const gone = scope.filter((e) => {
    const d = disk.get(e.path);
    return !d || (d.type === 'folder') !== e instanceof TFolder;
  });
  gone.sort((a, b) => depth(a.path) - depth(b.path));
  for (const e of gone) {
    if (tree.get(e.path) === e) for (const r of tree.remove(e)) emit('delete', r);
  }
  const added = [...disk.keys()].filter((p) => !tree.get(p));
  added.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (const p of added) {
    const d = disk.get(p) as DiskEntry;
    if (d.type === 'folder') for (const f of tree.ensureFolder(p)) emit('create', f);
    else emit('create', tree.addFile(p, { ctime: d.ctime, mtime: d.mtime, size: d.size }));
  }
  const fresh = new Set(added);
  for (const e of scope) {
    const d = disk.get(e.path);
    if (!(e instanceof TFile) || !d || fresh.has(e.path) || tree.get(e.path) !== e) continue;
    // A file put there anew (a rename over it, `cp -a`) may keep the old mtime and size; its birth time tells it.
    if (d.mtime !== e.stat.mtime || d.size !== e.stat.size || (d.birth && d.ctime !== e.stat.ctime)) {
      e.stat = { ctime: d.ctime, mtime: d.mtime, size: d.size };
      emit('modify', e);
    }
  }
}

/** The entries at `roots` and below them (roots that are not loaded are skipped). */
function entriesAt(tree: VaultTree, roots: readonly string[]): TAbstractFile[] {
  return roots.flatMap((root) => {
    const entry = tree.get(root);
    return entry && entry !== tree.root ? [entry, ...tree.descendants(entry)] : entry ? tree.entries() : [];
  });
}

/**
 * Adds `path` (a file, or a folder with everything Obsidian would load under it) to the
 * index after a host operation created it on disk, emitting `create` parents first. A folder
 * link Obsidian ignores ({@link isIgnoredLink}: into the vault, to a parent of it, a loop) is
 * left out, at `path` or below it, as the initial scan leaves it out.
 */
export async function loadSubtree(
  tree: VaultTree,
  adapter: FileSystemAdapter,
  path: string,
  configDir: string,
  emit: (entry: TAbstractFile) => void,
): Promise<void> {
  const realBase = await fsp.realpath(adapter.basePath).catch(() => adapter.basePath);
  if (await isIgnoredLink(adapter.getFullPath(path), realBase)) return;
  const s = await adapter.stat(path);
  if (!s) return;
  if (s.type === 'file') {
    emit(tree.addFile(path, { ctime: s.ctime, mtime: s.mtime, size: s.size }));
    return;
  }
  for (const f of tree.ensureFolder(path)) emit(f);
  const listed = await adapter.list(path);
  for (const child of [...listed.folders, ...listed.files].sort()) {
    if (!isHiddenPath(child, configDir)) await loadSubtree(tree, adapter, child, configDir, emit);
  }
}
