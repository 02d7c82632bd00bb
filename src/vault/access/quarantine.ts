import { ToolError } from '../../errors';
import { foldPath, lexicalVaultPath } from '../paths/paths';

/** The verdict on one quarantine entry ({@link readQuarantineEntry}): the vault folder it names, or why it names none. */
export type QuarantineEntryVerdict = { ok: true; folder: string } | { ok: false; reason: string };

/** What to write instead, shared by every route's refusal of an entry. */
export const QUARANTINE_ADVICE = 'give a folder of the vault, relative to it, such as "Journal" or "Work/HR"';

/** Wildcards: entries are folder paths, never patterns (Obsidian refuses `*` and `?` in names, as Windows does). */
const WILDCARDS = /[*?]/;

/**
 * The one rule for an entry of the user's quarantine list (`access.quarantine`), on every route
 * (the plugin's check of every path, the settings tab's field, `npm start`'s settings file): spaces at its ends kept,
 * made vault-relative by `toVaultPath` (the plugin passes NotePolicy.literalPath, so an absolute path
 * or `file://` URL inside the vault is read as the vault folder below it, as key roots and tools
 * read it), it must name a place inside the vault other than the vault itself. Refused: not text,
 * empty or blank, wildcards (`*`, `?`), what `toVaultPath` refuses (control characters, `..` out of
 * the vault, an absolute path outside it), and what normalizes to the vault itself (`/`, `.`, the
 * vault's own folder). Case is kept: matching ignores it (Quarantine.contains). Lexical only; never throws.
 * @param raw the entry as saved or typed (anything: a synced data.json may hold any JSON value).
 * @param toVaultPath makes the entry vault-relative, throwing ToolError as paths.ts
 *   lexicalVaultPath does; default lexicalVaultPath without the vault (every absolute path refused).
 * @returns `{ok: true, folder}` (`./Journal/` → `Journal`), or `{ok: false, reason}`: a clause to
 *   follow the quoted entry, such as `names the vault itself, not a folder in it`.
 */
export function readQuarantineEntry(
  raw: unknown,
  toVaultPath: (entry: string) => string = (e) => lexicalVaultPath(e),
): QuarantineEntryVerdict {
  if (typeof raw !== 'string') return { ok: false, reason: 'is not text' };
  // Spaces at the ends are kept, as in every vault path (` Sp ` and `Sp` are two folders): trimmed, the entry closed the
  // other one and left the folder it names open.
  const entry = raw;
  if (entry.trim() === '') return { ok: false, reason: 'is empty, so it names no folder' };
  if (WILDCARDS.test(entry)) return { ok: false, reason: 'holds a wildcard (* or ?), but entries are folder paths, not patterns' };
  let folder: string;
  try {
    folder = toVaultPath(entry);
  } catch (error) {
    // A ToolError of the path rules; anything else (never expected) names no folder either: a check never throws.
    const fault = error instanceof ToolError ? error : null;
    if (fault?.code === 'forbidden') return { ok: false, reason: 'climbs out of the vault with ".."' };
    if (/control characters/.test(fault?.message ?? '')) return { ok: false, reason: 'contains control characters' };
    return {
      ok: false,
      reason: /absolute/.test(fault?.message ?? '') ? 'is an absolute path or URL outside the vault' : 'is not a valid vault path',
    };
  }
  return folder === '' ? { ok: false, reason: 'names the vault itself, not a folder in it' } : { ok: true, folder };
}

/**
 * Why a quarantine entry that names an existing file (a note, an attachment) is refused as an
 * entry: quarantine takes folders (docs/security.md#quarantine). Such an entry hides that one
 * file (Quarantine matches it as it matches a folder's path), so one already saved (a synced or
 * hand-edited data.json) keeps hiding it; but the settings tab and `npm start` refuse it where it
 * is typed, since it would be shown as a quarantined folder while it closes one file.
 * @param file the file's vault path, in the vault's spelling (`Work/Plan.md`).
 * @returns a clause to follow the quoted entry: `names the note "Work/Plan.md", not a folder;
 *   quarantine takes folders: …`, naming the file's folder to quarantine instead (or, at the top
 *   of the vault, moving it into a quarantined folder) and, for a note, `access: private`.
 */
export function quarantineFileReason(file: string): string {
  const slash = file.lastIndexOf('/');
  const what = fileKind(file);
  const note = what === 'note';
  const options = [
    slash < 0 ? `move the ${what} into a quarantined folder` : `give its folder "${file.slice(0, slash)}" (which closes everything in it)`,
    note
      ? 'add "access: private" to the note\'s frontmatter to hide that note alone'
      : slash < 0
        ? ''
        : `move the ${what} into a quarantined folder`,
  ].filter(Boolean);
  return `names the ${what} "${file}", not a folder; quarantine takes folders: ${options.join(', or ')}`;
}

/**
 * The existing file (note or attachment) a quarantine entry's folder path names, for
 * {@link quarantineFileReason}: looked up as every vault path is (exact, then NFC, then the one
 * entry equal ignoring case), so `home.md` names `Home.md`.
 * @param notes the vault's lookups: `folderAt` (NoteStore's) and `policy.entryAt` (NotePolicy's).
 * @returns a function from the entry's vault path to the file's path, or null when a folder or
 *   nothing is there.
 */
export function quarantinedFileAt(notes: {
  folderAt(path: string): { path: string } | null;
  policy: { entryAt(path: string): { path: string } | null };
}): (folder: string) => string | null {
  return (folder) => (notes.folderAt(folder) === null ? (notes.policy.entryAt(folder)?.path ?? null) : null);
}

/**
 * The warning for saved quarantine entries that name no folder (a hand-edited or synced
 * data.json; the plugin's lenient load keeps them as written, so the user can see and fix them),
 * shown as a Notice when the plugin has loaded the vault or picks up an outside edit, and beside
 * the entry in the settings tab. An entry that names an existing file keeps hiding that file (the
 * safe side) and is named too ({@link quarantineFileReason}).
 * @param entries `access.quarantine` as saved. @param toVaultPath as {@link readQuarantineEntry}'s.
 * @param fileAt the existing file an entry's vault path names ({@link quarantinedFileAt}), or
 *   null; default: none (lexical only).
 * @returns `Vault MCP: ` and one sentence per such entry, or null when every entry names a folder.
 */
export function quarantineNotice(
  entries: readonly unknown[],
  toVaultPath?: (entry: string) => string,
  fileAt: (folder: string) => string | null = () => null,
): string | null {
  const problems: string[] = [];
  for (const entry of entries) {
    const verdict = readQuarantineEntry(entry, toVaultPath);
    const quoted = JSON.stringify(entry) ?? String(entry);
    if (!verdict.ok) {
      problems.push(`The quarantine entry ${quoted} ${verdict.reason}, so it quarantines nothing.`);
      continue;
    }
    const file = fileAt(verdict.folder);
    if (file !== null) problems.push(`The quarantine entry ${quoted} hides only that ${fileKind(file)}: it ${quarantineFileReason(file)}.`);
  }
  return problems.length === 0 ? null : `Vault MCP: ${problems.join(' ')} Fix it in Vault MCP settings → Access (${QUARANTINE_ADVICE}).`;
}

/** `note` for a Markdown file, else `file`, as {@link quarantineFileReason} calls it. */
export function fileKind(file: string): 'note' | 'file' {
  return /\.md$/i.test(file) ? 'note' : 'file';
}

/**
 * Quarantine: parts of the vault no tool reads, lists, searches or writes
 * (docs/architecture.md#trust-model). Built-ins always apply: the config folder (`vault.configDir`),
 * every dot-folder or dot-file at any depth (Obsidian itself does not index them), every
 * folder named `_private` at any depth, and every file or folder whose name holds a backslash
 * (no vault path reaches it: {@link isClosedName}). The user's own list comes from settings
 * (`access.quarantine`) and is re-read on every check so edits apply at once.
 * Comparison is case- and normalization-insensitive: on a case-insensitive disk `_Private/`
 * is `_private/`, and refusing too much is the safe side.
 */
export class Quarantine {
  /** A copy of the last user list seen and the folder prefixes derived from it (re-derived when it changes): each folded prefix to its folder. */
  private cached: { list: string[]; folders: Map<string, string> } | null = null;
  /** The last folder path whose every name passed {@link isClosedName} (a fact of the path alone, so it never goes stale). */
  private openFolder: string | null = null;

  /**
   * @param configDir `app.vault.configDir` (usually `.obsidian`).
   * @param userFolders returns the user-listed folders, each read by {@link readQuarantineEntry}
   *   (an entry that names no folder quarantines nothing; quarantineNotice tells the user).
   * @param toVaultPath makes an entry vault-relative (NotePolicy passes its literalPath, so an
   *   absolute path or `file://` URL inside the vault names the folder); default: without the vault.
   */
  constructor(
    private readonly configDir: string,
    private readonly userFolders: () => string[],
    private readonly toVaultPath?: (entry: string) => string,
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
      what = segments[i].startsWith('.')
        ? "a hidden file or folder (its name starts with '.')"
        : segments[i].includes('\\')
          ? 'a name holding a backslash (Obsidian reads it as a folder separator, so no vault path reaches it)'
          : "a '_private' folder";
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
   * The outermost quarantined folder besides the segment rules (configDir or one of the user's
   * list) that `path` is or lies inside, compared case- and normalization-insensitively as
   * `isPathInside(path, folder, true)` does; undefined when none. One lookup per folder of
   * `path`, however long the list (a list of 100,000 folders was scanned whole per path).
   */
  private closingFolder(path: string): string | undefined {
    const folders = this.folders();
    const p = foldPath(path);
    for (let slash = p.indexOf('/'); slash >= 0; slash = p.indexOf('/', slash + 1)) {
      const folder = folders.get(p.slice(0, slash));
      if (folder !== undefined) return folder;
    }
    return folders.get(p);
  }

  /**
   * The quarantined folders besides the segment rules, configDir first and then the user's list,
   * by their folded form (foldPath; the first of two that fold alike is kept). Called once per
   * note on list and search paths, so the parsed list is reused until the user's list changes
   * (compared entry by entry with a copy, since settings may be edited in place).
   */
  private folders(): Map<string, string> {
    const source = this.userFolders();
    const cached = this.cached;
    if (cached !== null && cached.list.length === source.length && cached.list.every((entry, i) => entry === source[i]))
      return cached.folders;
    const folders = new Map<string, string>();
    for (const entry of [this.configDir, ...source]) {
      const verdict = readQuarantineEntry(entry, this.toVaultPath);
      const folded = verdict.ok ? foldPath(verdict.folder) : '';
      if (verdict.ok && !folders.has(folded)) folders.set(folded, verdict.folder);
    }
    this.cached = { list: [...source], folders };
    return folders;
  }
}

/**
 * True when one path segment closes everything at and below it: a hidden name (starts with `.`),
 * `_private` in any case or Unicode form, or a name holding a backslash. Obsidian's
 * `normalizePath` (obsidian.d.ts; every vault lookup passes through it) reads `\` as a folder
 * separator, so a file a POSIX disk holds as `bs\x.md` cannot be reached by its own path: every
 * lookup of that path lands on `bs/x.md`. Shown to an agent, its name would lead reads and writes
 * to that other note; closed, it is left out of every route as Obsidian's hidden files are
 * (docs/limits.md). Agent-typed paths never hold one: PathSpelling reads backslashes as `/` first.
 */
function isClosedName(segment: string): boolean {
  return segment.startsWith('.') || segment.includes('\\') || foldPath(segment) === '_private';
}
