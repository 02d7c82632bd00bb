import { foldPath, lexicalVaultPath } from '../paths/paths';

/**
 * Quarantine: parts of the vault no tool reads, lists, searches or writes
 * (docs/architecture.md#trust-model). Built-ins always apply: the config folder (`vault.configDir`),
 * every dot-folder or dot-file at any depth (Obsidian itself does not index them), and every
 * folder named `_private` at any depth. The user's own list comes from settings
 * (`access.quarantine`) and is re-read on every check so edits apply at once.
 * Comparison is case- and normalization-insensitive: on a case-insensitive disk `_Private/`
 * is `_private/`, and refusing too much is the safe side.
 */
export class Quarantine {
  /** The last user list seen and the folder prefixes derived from it (re-derived when it changes). */
  private cached: { key: string; folders: string[]; folded: string[] } | null = null;
  /** The last folder path whose every name passed {@link isClosedName} (a fact of the path alone, so it never goes stale). */
  private openFolder: string | null = null;

  /**
   * @param configDir `app.vault.configDir` (usually `.obsidian`).
   * @param userFolders returns the user-listed folders (vault-relative; entries that are not
   *   valid vault paths are ignored).
   */
  constructor(
    private readonly configDir: string,
    private readonly userFolders: () => string[],
  ) {}

  /**
   * True when the vault-relative, normalized `path` (file or folder) is quarantined.
   * The vault root (`''`) itself is never quarantined.
   */
  contains(path: string): boolean {
    if (path === '') return false;
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    // A scan asks for the notes of one folder after another: the folder's own names are checked once for all of them.
    if (folder !== this.openFolder) {
      if (folder !== '' && folder.split('/').some(isClosedName)) return true;
      this.openFolder = folder;
    }
    return isClosedName(path.slice(slash + 1)) || this.closingFolder(path) !== undefined;
  }

  /**
   * Why the vault-relative, normalized `path` is quarantined, as the sentence a tool answers
   * with: the rule and the name or folder that closes it (a hidden name, `_private`, the
   * config folder, a folder the user listed), and what to do instead. It says the same whether
   * or not anything is at `path`, and calls a hidden last name a "file or folder" for that reason.
   * @returns the sentence, or null when `path` is not quarantined (the vault root never is).
   */
  refusal(path: string): string | null {
    if (path === '') return null;
    const segments = path.split('/');
    let at = '';
    let what = '';
    for (let i = 0; i < segments.length && what === ''; i++) {
      at = segments.slice(0, i + 1).join('/');
      if (!isClosedName(segments[i])) continue;
      what = segments[i].startsWith('.') ? "a hidden file or folder (its name starts with '.')" : "a '_private' folder";
    }
    if (what === '') {
      const folder = this.closingFolder(path);
      if (folder === undefined) return null;
      at = segments.slice(0, folder.split('/').length).join('/');
      what = foldPath(folder) === foldPath(this.configDir) ? "Obsidian's config folder" : 'a folder the user closed to agents';
    }
    return `Path '${path}' ${at === path ? 'is' : `is inside '${at}',`} ${what}, which agents may not access; use a path outside it.`;
  }

  /**
   * The first quarantined folder prefix besides the segment rules (configDir, then the user's
   * list) that `path` is or lies inside, compared case- and normalization-insensitively as
   * `isPathInside(path, folder, true)` does; undefined when none.
   */
  private closingFolder(path: string): string | undefined {
    const { folders, folded } = this.folders();
    const p = foldPath(path);
    for (let i = 0; i < folders.length; i++) if (p === folded[i] || p.startsWith(`${folded[i]}/`)) return folders[i];
    return undefined;
  }

  /**
   * The quarantined folder prefixes besides the segment rules: configDir plus the user's list,
   * and each one folded (foldPath). Called once per note on list and search paths, so the parsed
   * list is reused until the user's list changes (compared by content, since settings may be
   * edited in place).
   */
  private folders(): { folders: string[]; folded: string[] } {
    const source = this.userFolders();
    const key = source.join('\u0000');
    if (this.cached?.key === key) return this.cached;
    const out: string[] = [];
    for (const entry of [this.configDir, ...source]) {
      if (typeof entry !== 'string') continue;
      try {
        const folder = lexicalVaultPath(entry.trim());
        if (folder !== '') out.push(folder);
      } catch {
        // A malformed settings entry (empty, absolute, escaping) quarantines nothing.
      }
    }
    this.cached = { key, folders: out, folded: out.map(foldPath) };
    return this.cached;
  }
}

/** True when one path segment closes everything at and below it: a hidden name (starts with `.`) or `_private` in any case or Unicode form. */
function isClosedName(segment: string): boolean {
  return segment.startsWith('.') || foldPath(segment) === '_private';
}
