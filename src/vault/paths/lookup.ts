import { TFile, TFolder, type TAbstractFile, type Vault } from 'obsidian';
import { foldPath } from './paths';

/**
 * Finding files in the vault tree by a normalized path when the exact spelling may differ
 * from the one on disk: a name stored in NFD (macOS) matches its NFC spelling, and on any
 * disk a path whose case differs matches the one existing entry with that name ignoring
 * case (docs/architecture.md#trust-model: "case on case-insensitive disks"). Two entries differing only by case
 * (possible on Linux) make the case-insensitive step match nothing rather than guess; NotePolicy
 * refuses such a folder spelling as ambiguous ({@link ambiguousFolder}) and any new name equal to
 * an existing one ignoring case ({@link caseTwins}).
 */

/**
 * The file or folder at `path`, trying the exact path first, then a segment-by-segment
 * walk from the vault root (exact name → NFC-equal name → unique case-insensitive name).
 * @param path vault-relative, normalized; `''` is the vault root.
 * @returns the entry, or null when nothing matches.
 */
export function findEntry(vault: Vault, path: string): TAbstractFile | null {
  if (path === '') return vault.getRoot();
  const exact = vault.getAbstractFileByPath(path);
  if (exact) return exact;
  const { entry, matched } = walk(vault, path);
  return matched === path.split('/').length ? entry : null;
}

/**
 * The file whose vault path is exactly `path` (a path Obsidian itself handed out: a
 * `metadataCache.resolvedLinks` key, a TFile's path kept by an index), or null. `vault.getFileByPath`
 * passes its argument through `normalizePath`, which reads a backslash as a folder separator: for a
 * file a POSIX disk holds as `bs\x.md` it answers `bs/x.md`, another file. So the answer must
 * carry the asked path; only a path holding a backslash is then looked for name by name from the
 * vault root (rare: such a file is quarantined, and no index keeps its path).
 * @param path a vault path as Obsidian spells it (NFC, `/` separated).
 * @returns the file with that very path, or null.
 */
export function fileAtExactPath(vault: Vault, path: string): TFile | null {
  const file = vault.getFileByPath(path);
  if (file?.path === path) return file;
  if (!path.includes('\\')) return null;
  // Name by name from the root, each segment as spelt (a backslash in it is part of the name).
  let entry: TAbstractFile | undefined = vault.getRoot();
  for (const name of path.split('/')) entry = entry instanceof TFolder ? entry.children.find((c) => c.name === name) : undefined;
  return entry instanceof TFile && entry.path === path ? entry : null;
}

/**
 * `path` with each leading segment that names an existing folder or file replaced by that
 * entry's real spelling; segments past the first missing one are kept as given. Lets a new
 * note in `projects/alpha/` land in the existing `Projects/Alpha/`.
 * @param path vault-relative, normalized, not empty.
 */
export function canonicalPath(vault: Vault, path: string): string {
  if (path === '' || vault.getAbstractFileByPath(path)) return path;
  const segments = path.split('/');
  const { entry, matched } = walk(vault, path);
  if (!entry || matched === 0) return path;
  return [entry.path, ...segments.slice(matched)].join('/');
}

/**
 * The first folder segment of `path` (not its last segment) that matches several existing
 * folders ignoring case and none exactly or in another Unicode form: `CT/NOTES/x` beside the
 * case twins `CT/Notes` and `CT/notes` (which a Linux disk can hold). Such a path names no one
 * folder: a lookup must not guess, and a write must not make a third spelling.
 * @param path vault-relative, normalized.
 * @param folderPath the whole path names a folder (a folder argument): its last segment counts too.
 * @returns the path up to that segment (earlier segments in their real spelling) and the real
 *   paths of the folders it matches, sorted; null when every folder segment matches at most one.
 */
export function ambiguousFolder(vault: Vault, path: string, folderPath = false): { typed: string; folders: string[] } | null {
  if (path === '' || vault.getAbstractFileByPath(path)) return null;
  // Every folder segment there exactly (the usual case: one map lookup, no pass over a folder's children per call).
  const slash = path.lastIndexOf('/');
  if (!folderPath && (slash < 0 || vault.getAbstractFileByPath(path.slice(0, slash)) instanceof TFolder)) return null;
  const { entry, matched, twins } = walk(vault, path);
  if (!twins) {
    if (!folderPath || matched === path.split('/').length) return null;
    const last = caseTwins(vault, path);
    if (last.length < 2 || !last.every((t) => t instanceof TFolder)) return null;
    return { typed: canonicalPath(vault, path), folders: last.map((t) => t.path).sort() };
  }
  const typed = [...(entry ? [entry.path] : []), path.split('/')[matched]].join('/');
  return { typed, folders: twins.map((t) => t.path).sort() };
}

/**
 * Every entry (file or folder) of `path`'s parent folder whose name equals `path`'s last
 * segment ignoring case and Unicode form, the exact one included. A new entry there would be
 * a case twin of each: one file on a case-insensitive disk (macOS, Windows) or after a sync.
 * @param path vault-relative, normalized, not empty.
 * @returns the entries; empty when the parent is no folder or none matches.
 */
export function caseTwins(vault: Vault, path: string): TAbstractFile[] {
  const slash = path.lastIndexOf('/');
  const parent = slash < 0 ? vault.getRoot() : findEntry(vault, path.slice(0, slash));
  if (!(parent instanceof TFolder)) return [];
  const folded = foldPath(path.slice(slash + 1));
  return parent.children.filter((c) => foldPath(c.name) === folded);
}

/**
 * Walks down from the root as far as segments match; returns the deepest entry and how many
 * segments matched, and `twins` when it stopped at a folder segment matching several folders
 * ignoring case (see {@link ambiguousFolder}).
 */
function walk(vault: Vault, path: string): { entry: TAbstractFile | null; matched: number; twins?: TAbstractFile[] } {
  const segments = path.split('/');
  let folder: TFolder = vault.getRoot();
  let entry: TAbstractFile | null = null;
  for (let i = 0; i < segments.length; i++) {
    const last = i === segments.length - 1;
    // By matchName; only folders count in its case-insensitive step where more path follows (several: twins).
    const child = matchName(
      folder.children,
      segments[i],
      (c) => c.name,
      (c) => last || c instanceof TFolder,
    );
    if (Array.isArray(child)) return last ? { entry, matched: i } : { entry, matched: i, twins: child };
    if (!child) return { entry, matched: i };
    entry = child;
    if (last) return { entry, matched: segments.length };
    if (!(child instanceof TFolder)) return { entry, matched: i + 1 };
    folder = child;
  }
  return { entry, matched: segments.length };
}

/**
 * The one rule by which a typed name names an existing entry of a folder, whoever lists the folder
 * (the vault tree here; `npm start`'s check of key roots lists the disk, scripts/start/run-vault.ts, before
 * any vault is loaded): the entry spelt exactly, else one equal in Unicode form (NFC), else the single
 * entry equal ignoring case as the case-insensitive disks fold names ({@link foldPath}), on every disk.
 * Case twins (possible on Linux) make that last step choose none.
 * @param entries the folder's entries. @param name one path segment as typed.
 * @param nameOf an entry's name. @param loose which entries the case-insensitive step may take (default all).
 * @returns the entry; the entries equal ignoring case when several are (case twins); null when none.
 */
export function matchName<T>(
  entries: readonly T[],
  name: string,
  nameOf: (entry: T) => string,
  loose: (entry: T) => boolean = () => true,
): T | T[] | null {
  const nfc = name.normalize('NFC');
  const ignoringCase = (): T | T[] | null => {
    const folded = foldPath(name);
    const matches = entries.filter((e) => foldPath(nameOf(e)) === folded && loose(e));
    return matches.length > 1 ? matches : (matches[0] ?? null);
  };
  return entries.find((e) => nameOf(e) === name) ?? entries.find((e) => nameOf(e).normalize('NFC') === nfc) ?? ignoringCase();
}
