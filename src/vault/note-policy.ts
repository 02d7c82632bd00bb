import { TFile, TFolder, type App, type TAbstractFile } from 'obsidian';
import { quoteInput, ToolError, withoutNames } from '../errors';
import { UNRESTRICTED_SCOPE, type AccessScope } from './access/access';
import { isWithinRoots, noteAccess, type NoteAccess } from './access/access-rules';
import { namesLabelRules } from './access/rule-keys';
import { ambiguousFolder, canonicalPath, caseTwins, fileAtExactPath, findEntry } from './paths/lookup';
import { frontmatterId, pathOfSyntheticId, unwrapWikilink } from './paths/note-ref';
import { assertPathInput } from './paths/paths';
import { PathSpelling } from './paths/path-spelling';
import { Quarantine } from './access/quarantine';
import { OutsideLinks, type EntryPlace, type FileOnDisk } from './access/outside-links';
import { FileNames } from './access/file-names';
import { textAccess } from './access/text-rules';
import { resolveLinkpath } from './paths/linkpath';
import { noteNotFound } from './writes/frontmatter/frontmatter-guard';
import { similarNotePaths } from './content/note-suggest';
import { MovedNotes } from './paths/moved-notes';
import { hasUnparsedFrontmatter, mayHideFrontmatter, UnparsedFrontmatter, type DiskStamp } from './access/unparsed-frontmatter';
import { foldPath, isPathInside, parentOf, rootsShown } from './paths/paths';
import { widgetsFolderPath } from './widgets/widget-folder';

/** The vault's local trash folder, where Obsidian's `vault.trash(file, false)` moves what it deletes (help.obsidian.md: "Deleted files"). */
const LOCAL_TRASH = '.trash';

/** What {@link NotePolicy} reads from the notes it rules on (NoteStore provides it). */
export interface NotePolicySource {
  /** Returns the user-listed quarantined folders (settings `access.quarantine`), read on every check. */
  quarantine: () => string[];
  /** Returns the vault paths of symbolic links the user trusts (settings `access.trustedSymlinks`), read on every check. */
  trustedSymlinks: () => string[];
  /** Returns the widgets folder setting (settings `widgets.folder`), read on every check; see {@link widgetsFolderPath}. */
  widgetsFolder: () => string;
  /** The Markdown notes `scope` may read, in vault order (NoteStore.readableNotes: built with {@link NotePolicy.canRead}). */
  readableNotes: (scope: AccessScope) => readonly TFile[];
  /** A note's frontmatter from the metadata cache (`{}` when it has none): for the `id` and aliases. */
  frontmatterOf: (file: TFile) => Record<string, unknown>;
  /** A note's frontmatter aliases: for "did you mean" suggestions. */
  aliasesOf: (file: TFile) => string[];
}

/**
 * The vault's path and access policy (docs/architecture.md#trust-model), shared by
 * reads, writes and proposals: how an agent-supplied path or note reference becomes a vault
 * path or TFile (normalization, real spelling, wikilink-style names, ids), and whether a key's
 * {@link AccessScope} may use it (quarantine, key roots, the `access` / `agent_overrides`
 * frontmatter). A note the scope may not read behaves as missing.
 */
export class NotePolicy {
  private readonly quarantine: Quarantine;
  private readonly outside: OutsideLinks;
  private readonly unparsed: UnparsedFrontmatter;
  /** {@link onAccessLearned}'s listeners, told by {@link placeJudgedAgain}. */
  private readonly placeListeners = new Set<(path: string) => void>();
  private readonly names: FileNames;
  private readonly spelling: PathSpelling;
  private readonly moved: MovedNotes;
  /** The widgets folder setting last seen and its vault path (asked once per note by every scan). */
  private widgets: { setting: string; path: string } | null = null;

  /** @param app the Obsidian app. @param source the quarantine list and the note reads the policy needs. */
  constructor(
    private readonly app: App,
    private readonly source: NotePolicySource,
  ) {
    this.spelling = new PathSpelling(app);
    // An entry is read as key roots are: an absolute path or file:// URL inside the vault names the folder below it.
    this.quarantine = new Quarantine(app.vault.configDir, source.quarantine, (entry) => this.spelling.literalPath(entry));
    this.outside = new OutsideLinks(app, source.trustedSymlinks);
    this.names = new FileNames(app, this.outside);
    this.unparsed = new UnparsedFrontmatter(app, (file, late) => this.names.othersOf(file, late));
    this.moved = new MovedNotes(app);
  }

  /** Stops following vault events (unparsed-frontmatter blocks, symbolic links); call when the plugin unloads. */
  close(): void {
    this.placeListeners.clear();
    this.unparsed.close();
    this.names.close();
    this.outside.close();
    this.moved.close();
  }

  /**
   * Calls `listener(path)` when the access of a note whose frontmatter does not parse becomes
   * known, or a change of a note may have changed its access before the metadata cache has
   * parsed it (see {@link UnparsedFrontmatter.onLearned}), or a refused read found the note
   * elsewhere on the disk ({@link placeJudgedAgain}): answers computed before may change.
   * @returns a function that unsubscribes.
   */
  onAccessLearned(listener: (path: string) => void): () => void {
    const unlearn = this.unparsed.onLearned(listener);
    this.placeListeners.add(listener);
    return () => {
      unlearn();
      this.placeListeners.delete(listener);
    };
  }

  /**
   * Tells the policy that a read of `path` was refused because the file did not lie on the disk
   * where `judged` placed it (DiskReads: another program swapped the note for a symbolic link, and
   * no vault event has told of it, nor may one: a file moved out and linked back in keeps its
   * stat). When the path's place, judged again now, differs from `judged` (outside the vault now,
   * or reached through another link), the {@link onAccessLearned} listeners hear, so the search
   * index drops the note as it would for a vault event: it is no longer counted in a search's
   * `total` or named in its messages. A file merely replaced by another one in place (a sync
   * tool's atomic save) lies where it did, and its vault event follows.
   * @param path vault-relative, normalized. @param judged the place the refused read was judged by.
   */
  placeJudgedAgain(path: string, judged: JudgedPlace): void {
    const now = this.outside.placeOf(path);
    if (now.outside === judged.outside && now.alias === judged.alias) return;
    for (const listener of this.placeListeners) listener(path);
  }

  /**
   * Tells the policy that `file` changed while the plugin was not running (its stat differs from
   * a stamp saved in the last run): its metadata cache entry may predate the change until Obsidian
   * parses it again, so its access is judged from its file meanwhile
   * (UnparsedFrontmatter.changedWhileAway); {@link onAccessLearned} listeners hear when its rules may have changed.
   */
  changedWhileAway(file: TFile): void {
    if (file.extension === 'md') this.unparsed.changedWhileAway(file);
  }

  /**
   * Normalizes an agent-supplied path and checks it may be used by `scope`: percent-escapes
   * decoded once (unless the literal spelling names an existing entry), backslashes, NFC,
   * `./` and `..`, leading slashes, Obsidian's `normalizePath`, then the real spelling of
   * existing folders/files when only case or Unicode form differs.
   * @returns the vault-relative path (the file need not exist).
   * @throws ToolError('invalid_argument') for an empty path, the vault root, control
   *   characters or an absolute file-system path; ToolError('forbidden') when the path leaves
   *   the vault, is quarantined, or lies outside `scope.roots`.
   */
  normalizePath(input: string, scope: AccessScope): string {
    const path = this.spelling.lexicalPath(input);
    if (path === '') {
      throw new ToolError(
        'invalid_argument',
        `Path ${quoteInput(input)} names the vault root; give a note or folder path such as 'Folder/Note.md'.`,
      );
    }
    this.assertAllowed(path, scope);
    this.assertUnambiguous(path);
    return path;
  }

  /**
   * Like {@link normalizePath} for a folder argument that may be the whole vault, except that
   * a folder that is itself a link out of the vault (in a place that is not quarantined) passes,
   * so that the caller answers it as a missing folder (check {@link isQuarantined}).
   * @param input undefined, `''`, `/` or `.` mean the vault root (returned as `''`).
   * @throws as {@link normalizePath}, except that the root is accepted.
   */
  normalizeFolderPath(input: string | undefined, scope: AccessScope): string {
    if (input === undefined || input.trim() === '') return '';
    const path = this.spelling.lexicalPath(input);
    // A folder that is itself a link out, in a place that is not, is left to the caller to answer as missing.
    if (path !== '' && (this.isQuarantinedPlace(path) || !this.isQuarantined(path))) this.assertAllowed(path, scope);
    this.assertUnambiguous(path, true);
    return path;
  }

  /**
   * Checks an already normalized vault path (e.g. one a write tool extended with `.md`) the way
   * {@link normalizePath} does, without decoding percent-escapes a second time.
   * @returns the path with the real spelling of existing folders/files.
   * @throws ToolError('invalid_argument') past {@link MAX_PATH_CHARS}; ToolError('forbidden')
   *   when it is quarantined or outside `scope.roots`.
   */
  checkedPath(path: string, scope: AccessScope): string {
    assertPathInput(path);
    const real = canonicalPath(this.app.vault, path);
    this.assertAllowed(real, scope);
    this.assertUnambiguous(real);
    return real;
  }

  /**
   * Refuses a path one of whose folders is spelt so that it matches several existing folders
   * differing only by case (`CT/NOTES/b` beside `CT/Notes` and `CT/notes`, which a Linux disk
   * or a sync can hold): it names no one folder, and writing there would make a third spelling,
   * the same folder on a case-insensitive disk (docs/security.md, case twins). Call after the
   * access check: folders equal ignoring case share quarantine, so naming them tells nothing new.
   * @param folderPath the whole path names a folder, so its last segment counts too.
   * @throws ToolError('invalid_argument') naming the folders' exact spellings.
   */
  private assertUnambiguous(path: string, folderPath = false): void {
    const twins = ambiguousFolder(this.app.vault, path, folderPath);
    if (!twins) return;
    const names = twins.folders.map((f) => `'${f}'`);
    throw new ToolError(
      'invalid_argument',
      `'${twins.typed}' matches the folders ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}, which differ only by case; give one of them exactly as it is spelt.`,
    );
  }

  /**
   * Every existing entry whose path equals `path` ignoring case and Unicode form in its last
   * name (lookup.ts caseTwins), whoever may see it. A write that would add a name beside any of
   * them is refused as taken: on a case-insensitive disk (macOS, Windows) or after a sync they
   * are one file.
   * @param path vault-relative, normalized.
   */
  caseTwins(path: string): TAbstractFile[] {
    return path === '' ? [] : caseTwins(this.app.vault, path);
  }

  /**
   * The vault path `input` spells, as typed ({@link PathSpelling.spelledPath}).
   * @throws as {@link normalizePath}'s path rules.
   */
  spelledPath(input: string): string {
    return this.spelling.spelledPath(input);
  }

  /**
   * True when an agent-supplied path ends in a separator ({@link PathSpelling.namesFolder}):
   * it names a folder, never the note normalization would otherwise reach (`Inbox.md/` is not `Inbox.md`).
   */
  namesFolder(input: string): boolean {
    return this.spelling.namesFolder(input);
  }

  /**
   * A path made vault-relative by the lexical rules alone ({@link PathSpelling.literalPath}).
   * @throws as lexicalVaultPath.
   */
  literalPath(input: string): string {
    return this.spelling.literalPath(input);
  }

  /**
   * Whatever occupies a normalized path (file or folder, matched ignoring case and Unicode
   * form), or null. No access check: write tools use it to refuse taken targets, including
   * ones the caller may not see, with an answer that does not say which.
   */
  entryAt(path: string): TAbstractFile | null {
    return path === '' ? null : findEntry(this.app.vault, path);
  }

  /**
   * True when a vault-relative path (file or folder) is closed to note tools: quarantined
   * (config dir, dot-folders, `_private/`, the user's list, or an entry whose real path is
   * outside the vault, a symbolic link out or anything below one, unless the user trusts that
   * link: see {@link OutsideLinks}) or inside the widgets folder (see {@link isWidgetPath}).
   */
  isQuarantined(path: string): boolean {
    if (this.quarantine.contains(path) || this.isWidgetPath(path)) return true;
    const place = this.outside.placeOf(path);
    return place.outside || (place.alias !== null && (this.quarantine.contains(place.alias) || this.isWidgetPath(place.alias)));
  }

  /**
   * True when `path` (file or folder, existing or not) is within `roots` (isWithinRoots), and so
   * is the place it really lies when a symbolic link inside the vault leads there
   * (OutsideLinks.placeOf): a key confined to `Projects` may not reach `People/Ana.md` as
   * `Projects/PeopleLink/Ana.md`. No roots: everything is within.
   */
  isWithinRoots(path: string, roots: readonly string[]): boolean {
    if (roots.length === 0) return true;
    if (!isWithinRoots(path, roots)) return false;
    const alias = this.outside.placeOf(path).alias;
    return alias === null || isWithinRoots(alias, roots);
  }

  /**
   * The vault path where the entry at the normalized `path` really lies when a symbolic link
   * inside the vault leads there (OutsideLinks.placeOf: `Projects/J → ../Journal` makes
   * `Projects/J/a.md` lie at `Journal/a.md`), or null when it lies where its path says. A rule
   * about a place (the skills folder, an AGENTS.md) must hold at the link's path too.
   */
  realPathOf(path: string): string | null {
    return this.outside.placeOf(path).alias;
  }

  /**
   * The vault path a symbolic link at `path` names, whether or not its target exists (a dangling
   * link's would-be target; OutsideLinks.linkTargetOf); null when `path` is no link into the vault.
   */
  linkTargetOf(path: string): string | null {
    return this.outside.linkTargetOf(path);
  }

  /**
   * The vault path the entry at the normalized `path` really lies at, judged on disk now and not
   * cached (OutsideLinks.vaultPathOnDisk): for paths Obsidian does not list (`.claude`'s files),
   * which {@link realPathOf} does not know. Null when it lies where its path says, outside the
   * vault or behind a dangling link.
   */
  vaultPathOnDisk(path: string): string | null {
    return this.outside.vaultPathOnDisk(path);
  }

  /**
   * True when trusted links lead `path` out of the vault to where one of `places` lies outside it
   * too, at or below it (OutsideLinks.sharesOutsidePlace).
   */
  sharesOutsidePlace(path: string, places: readonly string[]): boolean {
    return this.outside.sharesOutsidePlace(path, places);
  }

  /**
   * The refusal of a delete while the vault's local trash folder (`.trash`, where
   * `vault.trash` moves a file when the system trash is unavailable) is a symbolic link the user
   * does not trust (settings `access.trustedSymlinks`): one leading out of the vault would carry the
   * file there, one leading nowhere makes the move fail. Judged on the disk now (one `lstat`
   * per segment); the system trash may not be used, so it is judged before every delete.
   * @returns the ToolError('unavailable') naming the link, or null when `.trash` is a plain folder,
   *   missing, or a trusted link.
   */
  localTrashRefusal(): ToolError | null {
    const now = this.outside.placeNow(LOCAL_TRASH);
    if (now === null || (now.entry !== 'link' && !now.place.outside)) return null;
    return new ToolError(
      'unavailable',
      `The vault's trash folder '${LOCAL_TRASH}' is a symbolic link (to somewhere else or to nothing), so a deleted file could land outside the vault; nothing was deleted. Ask the user to replace the link '${LOCAL_TRASH}' with a folder.`,
    );
  }

  /**
   * The file on disk behind `path`: its device-and-inode `id` (the same for hard links of one
   * file) and how many names it has (OutsideLinks.fileOf); null when there is no such file on disk.
   */
  fileOf(path: string): FileOnDisk | null {
    return this.outside.fileOf(path);
  }

  /** {@link fileOf} not following a link at `path` itself unless the user trusts it (OutsideLinks.ownFileOf): null when another link, or no regular file, is there. */
  ownFileOf(path: string): FileOnDisk | null {
    return this.outside.ownFileOf(path);
  }

  /**
   * True when `path` is the widgets folder or inside it (case-insensitively): widgets are
   * written by widget_write only, so note tools neither read nor create anything there.
   */
  isWidgetPath(path: string): boolean {
    return path !== '' && isPathInside(path, this.widgetsFolder(), true);
  }

  /** The widgets folder's vault path now (settings `widgets.folder`, see {@link widgetsFolderPath}; derived again only when the setting changed). */
  widgetsFolder(): string {
    const setting = this.source.widgetsFolder();
    if (this.widgets?.setting !== setting) this.widgets = { setting, path: widgetsFolderPath(setting) };
    return this.widgets.path;
  }

  /**
   * The widgets folder, checked for `scope` as a path is: widgets are off limits to a key when
   * the folder is quarantined or outside the key's roots.
   * @returns the folder's vault path.
   * @throws ToolError('forbidden') saying which rule closes it.
   */
  widgetsFolderFor(scope: AccessScope): string {
    const folder = this.widgetsFolder();
    if (this.isHidden(folder)) {
      throw new ToolError(
        'forbidden',
        `The widgets folder '${folder}' is in a folder agents may not access; the user can choose another widgets folder in the settings.`,
        'closed',
      );
    }
    if (!this.isWithinRoots(folder, scope.roots)) {
      throw new ToolError(
        'forbidden',
        `The widgets folder '${folder}' is outside the folders this key may use (${rootsShown(scope.roots)}); widgets need a key whose roots include it.`,
        'roots',
      );
    }
    return folder;
  }

  /**
   * True when the widget file at `path` (an entry the vault lists in the widgets folder) is closed
   * to every route: quarantined, or, judged on the disk now (OutsideLinks.placeNow, no cached
   * answer), anything but a plain file lying where its path says with one name: a symbolic link
   * (out of the vault, dangling, or into it: `Widgets/ro.html → ../ro/locked.md` would list a
   * read-only or private note's manifest and hash and let widget_write overwrite it), a file below
   * a link, or a file with more than one hard link (its other names cannot be found to be judged,
   * as for skill files: {@link canReadWhereItLies}). A link the user trusts (settings
   * `access.trustedSymlinks`) counts as the file it leads to, unless that lies in the vault.
   * Widget code treats such an entry as if nothing were there (not listed, read, copied or
   * replaced) and never reads or writes through it (docs/security.md#symbolic-links). The widgets
   * folder itself is checked by {@link widgetsFolderFor}.
   */
  isWidgetEntryClosed(path: string): boolean {
    if (this.isHidden(path)) return true;
    const now = this.outside.placeNow(path);
    return now !== null && !(now.entry === 'file' && now.names === 1 && !now.place.outside && now.place.alias === null);
  }

  /**
   * Where the access checks judge the existing entry at `path` to lie: the cached answer
   * (OutsideLinks.placeOf, kept true by vault events) that quarantine, roots and the key's rules
   * were just decided on, and which file lies there now ({@link fileOf}'s device and inode, one
   * `stat`). A route that reads, changes, trashes or renames an existing note takes it right after
   * it resolved and checked the note, and holds the disk to it right before it reads and right
   * before it acts ({@link isWhereJudgedNow}).
   * @param path vault-relative, normalized (a TFile's path).
   * @returns `outside` (never true for a note a check let through), `alias`, the vault path it
   *   really lies at when a symbolic link inside the vault leads there (null: where it says), and
   *   `file`, the file's `"<dev>:<ino>"` (null when the adapter has no disk paths or no regular file is there).
   */
  judgedPlace(path: string): JudgedPlace {
    return { ...this.outside.placeOf(path), file: this.fileOf(path)?.id ?? null };
  }

  /**
   * {@link judgedPlace} without its `stat`: the cached answer alone, `file` null (any file), for a
   * caller that takes the file's id from its own first look at the disk ({@link fileWhereJudgedNow}).
   * @param path vault-relative, normalized (a TFile's path).
   */
  cachedPlace(path: string): JudgedPlace {
    return { ...this.outside.placeOf(path), file: null };
  }

  /**
   * True when a write may change the content of the existing file at `path` now (write_note,
   * edit_note, set_properties, append_note, an accepted edit or properties proposal, a revert
   * that writes text back, a replaced widget, a change put into an open editor, which saves it),
   * judged on the disk right before the write with no cached answer (OutsideLinks.placeNow: an
   * `lstat` per segment, `realpath` when a link is on the way): the entry at `path` is a regular
   * file (a link the user trusts, settings `access.trustedSymlinks`, counts as what it leads to)
   * or, when `judged` said a link in the vault leads elsewhere in it (a file link Obsidian lists,
   * `Projects/inbox.md → ../Inbox.md`), still a link leading there; and it lies where `judged`
   * said: not outside the vault and every trusted link's target, at the same vault path. Another
   * program (a sync client, git) can swap a note for a symbolic link (`ln -s target tmp && mv tmp
   * note`) before the vault's event tells of it; the vault's adapter writes through a link, so
   * without this a write landed wherever it led: in a quarantined note, outside the vault
   * (verifier, session 29). A dangling link, a folder, or a folder on the way swapped for a link
   * leading elsewhere answers false too. So does another file than the one judged (its device and
   * inode differ, {@link fileOf}): a file swapped in by a rename, such as a hard link of a
   * quarantined note (`ln Journal/h.md tmp && mv tmp H.md`), which lies "in place" with one more name.
   * @param path vault-relative, normalized. @param judged {@link judgedPlace} taken when the write was checked.
   * @returns false when the write must not happen; always true for an adapter without disk paths.
   */
  isWhereJudgedNow(path: string, judged: JudgedPlace): boolean {
    return this.fileWhereJudgedNow(path, judged) !== false;
  }

  /**
   * {@link isWhereJudgedNow}'s look at the disk, answering with the file it saw there, so a read
   * judged on the disk needs no `stat` of its own (the file's id for its next look, its stamp for
   * {@link mayServe}): the same `lstat`s and one `stat`.
   * @param path vault-relative, normalized. @param judged as isWhereJudgedNow (`file` null: any file).
   * @returns false when the entry does not lie where `judged` says (isWhereJudgedNow false); else
   *   the regular file at `path` now (links followed), null when none could be stat'ed, undefined
   *   when the adapter has no disk paths.
   */
  fileWhereJudgedNow(path: string, judged: JudgedPlace): FileOnDisk | null | undefined | false {
    const now = this.outside.placeNow(path);
    if (now === null) return undefined;
    if (now.place.outside || judged.outside) return false;
    const same =
      now.place.alias === null ? judged.alias === null : judged.alias !== null && foldPath(now.place.alias) === foldPath(judged.alias);
    if (!same || !(now.entry === 'file' || (now.entry === 'link' && judged.alias !== null))) return false;
    const file = now.entry === 'file' ? now.file : this.fileOf(path);
    return judged.file === null || file?.id === judged.file ? file : false;
  }

  /**
   * True when a write may create a file or folder at `path` now (create_note, create_folder, a
   * move's target, an accepted create or move proposal, a revert that puts a note back, a new
   * widget or widget backup), judged on the disk right before the write with no cached answer
   * (OutsideLinks.placeNow): nothing at all is there, not even a symbolic link whose target is
   * missing (the vault lists no such link and no event tells of it, and a write follows it,
   * creating its target wherever it points: outside the vault, in a quarantined folder, as an
   * AGENTS.md), and the path lies where it says: no link on the way but one the user trusts
   * (settings `access.trustedSymlinks`), no dangling one at all. Call it last before the write (a
   * caller still checks quarantine, roots and the vault's own entries first); a path refused here
   * answers as a taken one does, so an agent cannot tell a link from a note it may not see.
   * @param path vault-relative, normalized.
   * @param self the entry a move renames in place, only the case of its name changing: a
   *   case-insensitive disk finds it at `path`, which is not taken by it. It counts as itself only
   *   when the disk's entry at `path` is that very entry (same device and inode,
   *   OutsideLinks.entryIdOf): on a case-sensitive disk another file there (`note.md` another
   *   program just wrote beside `Note.md`, not yet listed by the vault) is taken, and a rename
   *   would replace it (verifier s30 F4b).
   * @returns true when nothing on the disk stands in the way; always true for an adapter without disk paths.
   */
  isFreeNow(path: string, self?: TAbstractFile): boolean {
    const now = this.outside.placeNow(path);
    if (now === null) return true;
    const itself =
      self !== undefined &&
      foldPath(path) === foldPath(self.path) &&
      (now.entry === 'none' || this.outside.entryIdOf(path) === this.outside.entryIdOf(self.path));
    if (now.place.outside) return false;
    if (now.place.alias !== null && !(itself && foldPath(now.place.alias) === foldPath(path))) return false;
    return now.entry === 'none' || (itself && now.entry !== 'link');
  }

  /**
   * Quarantine proper: the built-in rules, the user's list, entries that lead outside the vault,
   * and entries a symbolic link inside the vault leads into a quarantined place (the place a note
   * really lies decides, whatever path reaches it).
   */
  private isHidden(path: string): boolean {
    if (this.quarantine.contains(path)) return true;
    const place = this.outside.placeOf(path);
    return place.outside || (place.alias !== null && this.quarantine.contains(place.alias));
  }

  /**
   * True when the place `path` names is quarantined whether or not an entry is there: a
   * quarantined folder (or below one), or below a link out of the vault. An entry that is
   * itself a link out, in a place that is not, is not covered: it behaves as a missing note
   * (canRead is false), so an agent cannot tell a link out from a free name
   * (`passwd.md → /etc/passwd` answers as `passwe.md` does). The widgets folder is such a
   * place too (note tools get the refusal naming widget_write; its location is no secret).
   */
  private isQuarantinedPlace(path: string): boolean {
    const slash = path.lastIndexOf('/');
    const folder = slash === -1 ? '' : path.slice(0, slash);
    if (this.quarantine.contains(path) || this.isWidgetPath(path)) return true;
    const place = this.outside.placeOf(folder);
    if (place.outside) return true;
    // Below a folder link that leads into a quarantined place inside the vault: the place it really names.
    const alias = place.alias;
    return alias !== null && this.isQuarantinedPlace(alias === '' ? path.slice(slash + 1) : `${alias}/${path.slice(slash + 1)}`);
  }

  /**
   * True when `scope` may see `file`: not quarantined, inside `scope.roots`, and (for a
   * Markdown note) neither `access: private` nor `agent_overrides[scope.label]: no-access`.
   */
  canRead(file: TFile, scope: AccessScope): boolean {
    return !this.isQuarantined(file.path) && this.canReadOpen(file, scope);
  }

  /**
   * True when a read route may serve `text`, the text it just read of `file` (a note {@link canRead}
   * let `scope` see), to `scope`: the access check read the metadata cache, which may be older
   * than the text (a write through another name of the file, a file link or a hard link, which
   * brings no event for this path; another program's write whose event has not come: verifier,
   * session 30, F1 and F2). So the text's own frontmatter is judged too, by the rules every reader
   * uses (text-rules textAccess), and the file on disk must be the version the vault's stat says,
   * else its rules are read from disk (UnparsedFrontmatter.catchUp: one `stat` per text, taken by
   * the caller's disk check of its read, DiskReads.judgedSeen, or here). A note
   * either finds private for `scope` is judged from that block from now on (lists, search and
   * every later check drop it at once) and the route must answer as for a missing note.
   * Files other than Markdown notes carry no rules: always true for them.
   * @param file the note read. @param text the text about to be served. @param scope the caller.
   * @param disk the file's stat on disk taken about when `text` was read (DiskReads.judgedSeen, liesWhereJudged); a `stat` now when not given
   * @returns false when the text must not be served.
   */
  mayServe(file: TFile, text: string, scope: AccessScope, disk?: DiskStamp | null): boolean {
    if (file.extension !== 'md') return true;
    if (textAccess(text, scope.label) === 'private') {
      this.unparsed.judgeFromText(file, text);
      return false;
    }
    return !this.unparsed.catchUp(file, disk) || this.canReadOpen(file, scope);
  }

  /**
   * {@link mayServe} for a text read for the search index's own use (which notes match a phrase
   * or regex): the text's own rules only, no disk check (a query may read thousands of texts; the
   * page's hits are served through mayServe). A text private for `scope` is judged as mayServe judges it.
   * @returns false when the text must not decide anything for `scope`.
   */
  mayMatch(file: TFile, text: string, scope: AccessScope): boolean {
    if (file.extension !== 'md' || textAccess(text, scope.label) !== 'private') return true;
    this.unparsed.judgeFromText(file, text);
    return false;
  }

  /**
   * {@link canRead} for a file whose bytes are handed out whatever its kind (a skill's other
   * files: SkillCatalog), judged where it really lies: a file a symbolic link inside the vault
   * leads to another vault path ({@link realPathOf}, every link followed) must be one `scope` may
   * read there too, so a `.txt` link to a Markdown note answers by that note's own access rules
   * (`access: private`, `agent_overrides` for the key's label), not only its quarantine and roots;
   * a target the vault does not list as a file cannot be judged and is refused. A file with more
   * than one hard link (`nlink` above 1, {@link fileOf}) is refused too: its other names, in the
   * vault or out of it, cannot be found to be judged (docs/security.md, Skills).
   * @returns true when `scope` may read the file's content.
   */
  canReadWhereItLies(file: TFile, scope: AccessScope): boolean {
    const real = this.realPathOf(file.path);
    const target = real === null ? file : this.app.vault.getAbstractFileByPath(real);
    // The disk is asked last (one stat): only for a file every other rule lets through.
    return this.canRead(file, scope) && target instanceof TFile && this.canRead(target, scope) && (this.fileOf(file.path)?.links ?? 1) < 2;
  }

  /**
   * {@link canRead} for a file the unrestricted scope (UNRESTRICTED_SCOPE) may read: its roots
   * and access rules only. Exact for such a file, since quarantine is the same for every scope
   * and the unrestricted scope's rules are the note's own `access`, which every label's rules
   * include (`agent_overrides` only tighten: noteAccess, unparsedBlockAccess).
   */
  canReadOpen(file: TFile, scope: AccessScope): boolean {
    return this.isWithinRoots(file.path, scope.roots) && (file.extension !== 'md' || this.accessOf(file, scope) !== 'private');
  }

  /**
   * {@link canRead} for the unrestricted scope (UNRESTRICTED_SCOPE), and whether another scope's
   * answer may need more than its roots: `closed` when the unrestricted scope may not read `file`
   * (no scope may); `by-label` when it may but the note's access may differ by key label (its
   * frontmatter names `agent_overrides`, or does not parse and is read per label:
   * UnparsedFrontmatter), so {@link canReadOpen} must decide it for each scope; `open` when every
   * scope may read it that has it within its roots (its level is its own `access` for every label,
   * noteAccess). One metadata lookup, as canRead makes: for the index build's scan, whose answer
   * lets a new caller's decisions skip the rules of every `open` note (NoteStore.readableByPath).
   * A note the metadata cache has not parsed yet (or not since it changed) is judged from its
   * file's frontmatter, `closed` when it cannot be read now (UnparsedFrontmatter.uncachedOpenness).
   */
  openness(file: TFile): 'closed' | 'open' | 'by-label' {
    if (this.isQuarantined(file.path)) return 'closed';
    if (file.extension !== 'md') return 'open';
    const cache = this.app.metadataCache.getFileCache(file);
    if (cache === null || this.unparsed.isBehind(file) || mayHideFrontmatter(cache))
      return this.unparsed.uncachedOpenness(file, UNRESTRICTED_SCOPE.label);
    if (hasUnparsedFrontmatter(cache)) return this.unparsed.accessOf(file, UNRESTRICTED_SCOPE.label) === 'private' ? 'closed' : 'by-label';
    if (noteAccess(cache?.frontmatter, UNRESTRICTED_SCOPE.label) === 'private') return 'closed';
    return namesLabelRules(cache?.frontmatter) ? 'by-label' : 'open';
  }

  /**
   * {@link canRead} by exact vault path, as a predicate for `scope`: true for the path of an
   * existing file `scope` may read (link targets and sources, `metadataCache.resolvedLinks` keys).
   */
  canReadPath(scope: AccessScope): (path: string) => boolean {
    return (path) => {
      // The file with this very path: `getFileByPath` reads a backslash as `/` and would answer for another file.
      const target = fileAtExactPath(this.app.vault, path);
      return target !== null && this.canRead(target, scope);
    };
  }

  /**
   * The note's access level for `scope` from its frontmatter alone: `access` combined with
   * `agent_overrides[scope.label]` (read-only | no-access; overrides only tighten; keys in any
   * case). Frontmatter that does not parse is read line by line, and an access rule in it
   * counts at its strictest (see {@link UnparsedFrontmatter}). A Markdown note the metadata
   * cache has not parsed yet (no entry: just created or synced in, a vault being indexed for the
   * first time; or not since it changed: UnparsedFrontmatter.isBehind) is judged from its file's
   * frontmatter, read from disk, and is `private` when that read is impossible
   * (UnparsedFrontmatter.uncachedAccessOf); so is a note the cache shows as one line, which may
   * be a note with `\r`-only line endings whose block the cache did not see (mayHideFrontmatter). Quarantine and roots are not
   * considered here; {@link canRead} and {@link normalizePath} check them.
   */
  accessOf(file: TFile, scope: AccessScope): NoteAccess {
    const cache = this.app.metadataCache.getFileCache(file);
    if ((cache === null || this.unparsed.isBehind(file) || mayHideFrontmatter(cache)) && file.extension === 'md')
      return this.unparsed.uncachedAccessOf(file, scope.label);
    if (hasUnparsedFrontmatter(cache)) return this.unparsed.accessOf(file, scope.label);
    return noteAccess(cache?.frontmatter, scope.label);
  }

  /**
   * The frontmatter {@link accessOf} reads `file`'s rules from, for a refusal naming the rule:
   * the metadata cache's, or for a note it has not parsed (or not since it changed) its file's
   * (UnparsedFrontmatter.uncachedFrontmatter).
   * @returns the properties; undefined when the note has none or its block does not parse
   */
  rulesFrontmatter(file: TFile): Record<string, unknown> | undefined {
    const cache = this.app.metadataCache.getFileCache(file);
    if ((cache === null || this.unparsed.isBehind(file)) && file.extension === 'md') return this.unparsed.uncachedFrontmatter(file);
    return hasUnparsedFrontmatter(cache) ? undefined : cache?.frontmatter;
  }

  /**
   * Finds a readable Markdown note. `path`: a vault path, `.md` optional, or a wikilink-style
   * name (`Meeting notes`, `Alpha/Meeting notes`, `[[Note|alias]]`, an alias); a path that
   * matches nothing is also tried as an id. `id`: the frontmatter `id`, tried first, then as a
   * path. `path:<path>` (the synthetic id, as path or id) is the path alone.
   * @throws ToolError('invalid_argument') when neither or both are given, or the path is a folder or a
   *   non-Markdown file; ToolError('forbidden') for quarantined paths or paths outside
   *   `scope.roots`; ToolError('ambiguous') when a name or id matches several notes (the
   *   message lists their paths); ToolError('not_found') otherwise — unreadable notes included.
   */
  resolveNote(ref: { path?: string; id?: string }, scope: AccessScope): TFile {
    // A synthetic id is checked as the path it holds: a note at the longest path has an id longer by its prefix (list_notes gives it).
    for (const value of [ref.path, ref.id]) if (typeof value === 'string') assertPathInput(pathOfSyntheticId(value) ?? value);
    const given = (value: string | undefined): value is string => typeof value === 'string' && value.trim() !== '';
    if (given(ref.path) && given(ref.id))
      throw new ToolError('invalid_argument', 'Give either path or id, not both: they could name different notes.');
    if (!given(ref.path) && !given(ref.id))
      throw new ToolError('invalid_argument', "Give the note's path (e.g. 'Folder/Note.md') or its id.");
    const lookup: Lookup = { scope, readable: once(() => this.source.readableNotes(scope)) };
    const byPath = given(ref.path);
    const text = byPath ? ref.path! : ref.id!.trim();
    // Only leading whitespace goes: trailing spaces may be part of the name (PathSpelling.chosenSpelling).
    const syntheticPath = pathOfSyntheticId(text.trimStart());
    const path = syntheticPath ?? text;
    const synthetic = syntheticPath !== null;
    // An id names a note before a path does; a path before an id. A synthetic id is a path only.
    const idFirst = !synthetic && !byPath ? this.findById(text, lookup) : null;
    if (idFirst) return idFirst;
    const found = this.lookUpPath(path, lookup, synthetic);
    if ('note' in found) return found.note;
    const idAfter = !synthetic && byPath ? this.findById(unwrapWikilink(text).trim(), lookup) : null;
    if (idAfter) return idAfter;
    throw found.miss;
  }

  /**
   * True when `found`, the note a wikilink-style lookup of the typed `path` reached, lies in a folder
   * that is the typed path's folder only ignoring case or Unicode form, while the folder as typed exists
   * as a folder of its own: a case twin (`Notes/a.md` reaching `notes/a.md` beside `Notes/`). Case twins
   * match only their exact spelling (docs/security.md), so such a match names no note.
   */
  private inTwinOfTypedFolder(path: string, found: string): boolean {
    const typed = parentOf(path);
    const real = parentOf(found);
    if (typed === '' || real === typed || real.endsWith(`/${typed}`)) return false;
    const [foldedTyped, foldedReal] = [foldPath(typed), foldPath(real)];
    if (foldedReal !== foldedTyped && !foldedReal.endsWith(`/${foldedTyped}`)) return false;
    return this.app.vault.getAbstractFileByPath(typed) instanceof TFolder;
  }

  /**
   * Looks a path-like reference up: the note at that path (`.md` optional, exact spelling first), found as
   * this key without its roots would find it and refused when it lies outside them (so a case twin or a
   * same-named note inside the roots never answers for it), else the note a wikilink-style name resolves
   * to ({@link resolveLinkpath}) among the notes the key may read.
   * @param exactPath the input came as a `path:` id: a path only, never resolved as a name (as
   *   {@link PathSpelling.isPathOnly} spellings are).
   * @returns the note, or the refusal to give when nothing else matches either (a folder, a
   *   path outside the roots, not found with similar names).
   * @throws ToolError('invalid_argument') for the vault root or a non-Markdown file;
   *   ToolError('forbidden') for a quarantined path or one in the widgets folder.
   */
  private lookUpPath(input: string, lookup: Lookup, exactPath?: boolean): { note: TFile } | { miss: ToolError } {
    const { scope } = lookup;
    const name = unwrapWikilink(input);
    const path = this.spelling.lexicalPath(name);
    if (path === '')
      throw new ToolError(
        'invalid_argument',
        `${quoteInput(input)} names the vault root, not a note; give a note path such as 'Folder/Note.md'.`,
      );
    // Quarantined by name: refused whether or not a note is there. Below a link out of the vault
    // the answer must not tell an existing link from a missing folder: it falls through to "not found".
    // The widgets folder is no secret: note tools get the sentence naming widget_write.
    if (this.quarantine.contains(path) || this.isWidgetPath(path)) this.assertAllowed(path, scope);
    // The path names a place as it would for this key without roots (exact spelling first; a spelling of several case
    // twins names none); only then do the roots apply, so a note inside them never answers for one outside by its name.
    this.assertUnambiguous(path);
    const outsideRoots = !this.isWithinRoots(path, scope.roots);
    const exact = findEntry(this.app.vault, path);
    const folder = exact instanceof TFolder && !outsideRoots && !this.isQuarantined(exact.path) ? exact : null;
    const folderError = (f: TFolder): ToolError =>
      new ToolError(
        'invalid_argument',
        `'${f.path}' is a folder; call list_notes with folder '${f.path}' to see its notes.`,
        undefined,
        withoutNames(`'${f.path}' is a folder; give a note's path`),
      );
    // A trailing '/' names a folder: never the note that normalization (which drops it) would reach.
    if (this.spelling.namesFolder(name)) {
      if (folder) return { miss: folderError(folder) };
      if (outsideRoots) return { miss: outsideRootsError(path, scope) };
      const note = this.lookUpPath(path, lookup);
      const instead = 'note' in note ? `for the note, give '${note.note.path}'` : "give a note's path without it";
      return { miss: new ToolError('not_found', `No folder '${path}' (a path ending in '/' names one); ${instead}.`) };
    }
    const withMd = path.toLowerCase().endsWith('.md') ? null : findEntry(this.app.vault, `${path}.md`);
    for (const entry of [exact, withMd]) {
      // A file this key could read without its roots: the one the path names (docs/security.md#key-roots); the key
      // itself may not read it only when it lies outside the roots.
      if (!(entry instanceof TFile) || !this.canRead(entry, { ...scope, roots: [] })) continue;
      if (!this.canRead(entry, scope)) return { miss: outsideRootsError(path, scope) };
      if (entry.extension === 'md') return { note: entry };
      throw new ToolError(
        'invalid_argument',
        `'${entry.path}' is not a Markdown note; note tools read and change only .md notes (give a note's path, or ask the user to handle this file in Obsidian).`,
      );
    }
    // Obsidian's own resolution of the name as typed: `Inbox` and `Inbox.md` reach Inbox.md, `Inbox.md.md` does not.
    // An absolute path, a file:// URI, a path with a leading `/` or with `.`/`..`, or a `path:` id names one place,
    // never a note elsewhere by its name.
    const pathOnly = exactPath || this.spelling.isPathOnly(name);
    const linked = pathOnly
      ? null
      : resolveLinkpath(
          path,
          lookup.readable(),
          (file) => this.source.frontmatterOf(file),
          () => this.app.metadataCache.getFirstLinkpathDest(path, ''),
        );
    if (linked && !this.inTwinOfTypedFolder(path, linked.path)) return { note: linked };
    if (folder) return { miss: folderError(folder) };
    // A path with a folder in it, or one that can only be a path (`Reference/../Home.md`, an absolute path, a file://
    // URI), outside the roots gets that refusal whatever its `..` leave of it; a bare name naming nothing stays a name not found.
    if (outsideRoots && (path.includes('/') || pathOnly)) return { miss: outsideRootsError(path, scope) };
    // A note renamed or moved away from this path while the plugin ran, and readable where it is now, is named first
    // (withheld, as similar names are, from a key whose tool set lists no notes: noteNotFound).
    const moved = this.moved.noteNowAt(path) ?? (path.toLowerCase().endsWith('.md') ? null : this.moved.noteNowAt(`${path}.md`));
    if (moved !== null && this.canRead(moved, scope)) return { miss: noteNotFound(input, [], moved.path) };
    // Similar names only for a key whose tool set lists notes anyway (AccessScope.sight, docs/security.md#keys).
    const similar = scope.sight?.names === false ? [] : similarNotePaths(name, lookup.readable(), (file) => this.source.aliasesOf(file));
    return { miss: noteNotFound(input, similar) };
  }

  /** Throws ToolError('forbidden') when `path` is in the widgets folder, quarantined or outside `scope.roots`. */
  private assertAllowed(path: string, scope: AccessScope): void {
    if (this.isWidgetPath(path) && !this.isHidden(path)) {
      throw new ToolError(
        'forbidden',
        `Path '${path}' is in the widgets folder '${this.widgetsFolder()}', which note tools do not use; list widgets with widget_list and write them with widget_write.`,
        'closed',
      );
    }
    const refusal = this.quarantine.refusal(path);
    if (refusal !== null) throw new ToolError('forbidden', refusal, 'closed');
    if (this.isQuarantined(path)) {
      // An entry that is itself a link out of the vault, in a place that is open: no folder closes it, and it is no
      // note an agent may see, so it answers as a path taken by a note the key may not see does.
      if (this.outside.placeOf(path).outside && !this.isQuarantinedPlace(path)) {
        throw new ToolError('exists', 'Cannot use that path: it is taken or unavailable; choose another path.');
      }
      throw new ToolError('forbidden', `Path '${path}' is in a folder agents may not access; use a path outside it.`, 'closed');
    }
    if (!this.isWithinRoots(path, scope.roots)) throw outsideRootsError(path, scope);
  }

  /** The readable note whose frontmatter `id` equals `id`; null when none. @throws ToolError('ambiguous') when several share it. */
  private findById(id: string, lookup: Lookup): TFile | null {
    const matches = lookup.readable().filter((file) => frontmatterId(this.source.frontmatterOf(file)) === id);
    if (matches.length > 1) {
      throw new ToolError(
        'ambiguous',
        `Id '${id}' is used by ${matches.length} notes (${matches.map((f) => f.path).join(', ')}); pass the path instead.`,
        undefined,
        withoutNames(`Id '${id}' is used by several notes; pass the path instead`),
      );
    }
    return matches[0] ?? null;
  }
}

/** One note resolution: the caller's scope and its readable notes, listed at most once per resolve. */
interface Lookup {
  scope: AccessScope;
  readable: () => readonly TFile[];
}

/** `compute`, called on first use only; later calls return the same value. */
function once<T>(compute: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: compute() }).v;
}

/**
 * Where the access checks judged an existing note to lie and which file was there
 * (NotePolicy.judgedPlace), for NotePolicy.isWhereJudgedNow to hold the disk to.
 */
export interface JudgedPlace extends EntryPlace {
  /** The file's device and inode, `"<dev>:<ino>"` (NotePolicy.fileOf); null when unknown (no disk paths, no regular file). */
  file: string | null;
}

/** The refusal of a path outside `scope.roots` (the same whatever is, or is not, at that path). */
function outsideRootsError(path: string, scope: AccessScope): ToolError {
  return new ToolError(
    'forbidden',
    `Path '${path}' is outside the folders this key may use (${rootsShown(scope.roots)}); use a path inside them.`,
    'roots',
  );
}
