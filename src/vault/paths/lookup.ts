import { TFolder, type TAbstractFile, type Vault } from 'obsidian';
import { foldPath } from './paths';

/**
 * Finding files in the vault tree by a normalized path when the exact spelling may differ
 * from the one on disk: a name stored in NFD (macOS) matches its NFC spelling, and on any
 * disk a path whose case differs matches the one existing entry with that name ignoring
 * case (docs/architecture.md#trust-model: "case on case-insensitive disks"). Two entries differing only by case
 * (possible on Linux) make the case-insensitive step match nothing rather than guess.
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

/** Walks down from the root as far as segments match; returns the deepest entry and how many segments matched. */
function walk(vault: Vault, path: string): { entry: TAbstractFile | null; matched: number } {
  const segments = path.split('/');
  let folder: TFolder = vault.getRoot();
  let entry: TAbstractFile | null = null;
  for (let i = 0; i < segments.length; i++) {
    const child = matchChild(folder, segments[i]);
    if (!child) return { entry, matched: i };
    entry = child;
    if (i === segments.length - 1) return { entry, matched: segments.length };
    if (!(child instanceof TFolder)) return { entry, matched: i + 1 };
    folder = child;
  }
  return { entry, matched: segments.length };
}

/** The child of `folder` named `name`: exact, else NFC-equal, else the single case-insensitive match. */
function matchChild(folder: TFolder, name: string): TAbstractFile | null {
  const exact = folder.children.find((c) => c.name === name);
  if (exact) return exact;
  const nfc = name.normalize('NFC');
  const sameNfc = folder.children.find((c) => c.name.normalize('NFC') === nfc);
  if (sameNfc) return sameNfc;
  const folded = foldPath(name);
  const loose = folder.children.filter((c) => foldPath(c.name) === folded);
  return loose.length === 1 ? loose[0] : null;
}
