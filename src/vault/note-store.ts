import {
  TFile,
  TFolder,
  getAllTags,
  getLinkpath,
  parseFrontMatterAliases,
  parseFrontMatterTags,
  type App,
  type TAbstractFile,
} from 'obsidian';
import { ToolError } from '../errors';
import { UNRESTRICTED_SCOPE, type AccessScope } from './access/access';
import { isWithinRoots } from './access/access-rules';
import { hashText } from './hash';
import { backlinkIndex, linkGraphOf, outgoingLinksOf, type LinkCount, type NoteLinks } from './content/links';
import { fileAtExactPath, findEntry } from './paths/lookup';
import { frontmatterId, syntheticId } from './paths/note-ref';
import { foldPath, isPathInside, parentOf } from './paths/paths';
import { buildOutline, collapseWhitespace, headingTexts, type NoteSection } from './content/sections';
import { countTags, type TagCount } from './content/tags';
import { AGENT_INSTRUCTION_FILES, nearestAgentInstructions } from './instructions/agent-instructions';
import { noteNotFound, parseFrontmatter } from './writes/frontmatter/frontmatter-guard';
import { NoteWriter } from './writes/note-writer';
import type { OpenNoteEditors } from './writes/open-note-editors';
import { AppliedChanges } from './writes/applied-change';
import { ScanCache } from './scan-cache';
import { NotePolicy } from './note-policy';
import { DiskReads, nullIfReplaced } from './access/disk-reads';
import { InstructionPlaces } from './instructions/instruction-places';
import { followFileRenames, followFolders, followNoteChanges, followOtherFiles, type NoteChange } from './note-changes';
import type { NoteReader } from './note-reader';
import { WidgetStore, type WidgetProvenance } from './widgets/widget-store';
import { DEFAULT_WIDGETS_FOLDER } from '../settings/settings';

export type { NoteChange } from './note-changes';

/**
 * How many notes one read of a reference may find it must not serve before it answers "not found"
 * ({@link NoteStore.resolveAndRead}, agent instructions): each refusal makes that note private, so
 * a second is another note whose text changed unseen, and a third is not expected.
 */
const READ_ATTEMPTS = 4;

/** What a scan of the notes the unrestricted scope may read lists beside them, for {@link NoteStore.readableFromScan}. */
interface ScanListing {
  /** The paths of those notes. */
  paths: Set<string>;
  /** Those whose access may differ by key label (NotePolicy.openness `by-label`), by path. */
  byLabel: Map<string, TFile>;
}

/** A folder as list tools show it: vault paths only, no Obsidian objects. */
export interface FolderEntry {
  /** The folder's vault path. */
  path: string;
  /** Its parent folder's vault path; `''` for a folder at the vault root. */
  parent: string;
}

/** Agent instructions that govern a note (see {@link NoteStore.agentInstructionsFor}). */
export interface AgentInstructions {
  /** Vault path of the AGENTS.md / AGENT.md file. */
  path: string;
  /** Its text. */
  content: string;
}

/** Options of {@link NoteStore}. */
export interface NoteStoreOptions {
  /** Returns the user-listed quarantined folders (settings `access.quarantine`), read on every check. */
  quarantine: () => string[];
  /** Returns the vault paths of symbolic links the user trusts (settings `access.trustedSymlinks`); none when absent. */
  trustedSymlinks?: () => string[];
  /** Returns the widgets folder setting (settings `widgets.folder`); `Widgets` when absent. */
  widgetsFolder?: () => string;
  /** The editors of open notes, which text writes go through (NoteWriter); none in headless runs. */
  editors?: OpenNoteEditors;
  /** Who wrote each widget text (WidgetStore's provenance: told before each widget create or replace). */
  widgetProvenance?: WidgetProvenance;
}

/**
 * The only code that touches `app.vault`, `app.metadataCache`, `app.fileManager` and
 * `app.workspace` (with its {@link policy}, {@link writes} and {@link widgets}): reads notes, their metadata
 * (frontmatter, titles, tags, outline, links), lists and change events. Every tool asks it,
 * passing the caller's {@link AccessScope}; which paths and notes a scope may use is decided
 * in one place, {@link policy} (docs/architecture.md#trust-model). A note the
 * scope may not read behaves as missing.
 */
export class NoteStore implements NoteReader {
  /** Path normalization, note resolution and access decisions: see {@link NotePolicy}. */
  readonly policy: NotePolicy;
  private readonly quarantineList: () => string[];
  private readonly trustedList: () => string[];
  private readonly widgetsSetting: () => string;
  private readonly editors: OpenNoteEditors | null;
  private readonly widgetProvenance: WidgetProvenance | undefined;
  private readonly scans: ScanCache;
  private writer: NoteWriter | null = null;
  /** Every change the write primitives applied (notes, entries, widgets), for the agent activity log. */
  readonly applied = new AppliedChanges();
  private widgetStore: WidgetStore | null = null;
  private instructionPlaces: InstructionPlaces | null = null;
  /** Each unrestricted scan's listing (see {@link ScanListing}), by the scan's answer: what readableFromScan decides from. */
  private readonly listings = new WeakMap<readonly TFile[], ScanListing>();
  /** Reads judged on the disk where the file lies at the read (see {@link DiskReads}). */
  private readonly diskReads: DiskReads;

  /** @param app the Obsidian app. @param options where the user's quarantine and trusted-link lists come from, and the open editors. */
  constructor(
    private readonly app: App,
    options: NoteStoreOptions,
  ) {
    this.quarantineList = options.quarantine;
    this.trustedList = options.trustedSymlinks ?? (() => []);
    this.widgetsSetting = options.widgetsFolder ?? (() => DEFAULT_WIDGETS_FOLDER);
    this.editors = options.editors ?? null;
    this.widgetProvenance = options.widgetProvenance;
    this.scans = new ScanCache(app);
    this.policy = new NotePolicy(app, {
      quarantine: options.quarantine,
      trustedSymlinks: this.trustedList,
      widgetsFolder: this.widgetsSetting,
      readableNotes: (scope) => this.readableNotes(scope),
      frontmatterOf: (file) => this.frontmatterOf(file),
      aliasesOf: (file) => this.aliasesOf(file),
    });
    this.policy.onAccessLearned(() => this.scans.forget());
    // A read refused because its path leads elsewhere now: the lists of readable notes are judged again, and whoever
    // decided by the old place (the search index) hears when it changed.
    this.diskReads = new DiskReads(app.vault, this.policy, (path, judged) => {
      this.scans.forget();
      this.policy.placeJudgedAgain(path, judged);
    });
  }

  /** Stops following vault events (the scan cache, the policy's); call when the plugin unloads. */
  close(): void {
    this.scans.close();
    this.policy.close();
    this.instructionPlaces?.close();
  }

  /**
   * {@link NotePolicy.changedWhileAway}, for the search index's warm start, which finds the notes
   * whose stat differs from the stamps it saved in the last run.
   */
  changedWhileAway(file: TFile): void {
    this.policy.changedWhileAway(file);
  }

  /**
   * {@link NotePolicy.isWithinRoots}, kept here for the search index's caller views: `path` within
   * `roots`, and so is the place a symbolic link inside the vault leads it to.
   */
  isWithinRoots(path: string, roots: readonly string[]): boolean {
    return this.policy.isWithinRoots(path, roots);
  }

  /**
   * {@link NotePolicy.canRead}, kept here for the search index, which reads notes through the
   * store: true when `scope` may see `file`.
   */
  canRead(file: TFile, scope: AccessScope): boolean {
    return this.policy.canRead(file, scope);
  }

  /** The write side of the store (create, edit, properties, move, delete): see {@link NoteWriter}. */
  get writes(): NoteWriter {
    this.writer ??= new NoteWriter(this.app, this, this.applied, this.editors);
    return this.writer;
  }

  /** Where agent instructions really are, links and hard links included (the force-key write hold): see {@link InstructionPlaces}. */
  get instructions(): InstructionPlaces {
    this.instructionPlaces ??= new InstructionPlaces(this.app, this.policy);
    return this.instructionPlaces;
  }

  /** The widgets of the widgets folder (list, create, replace): see {@link WidgetStore}. */
  get widgets(): WidgetStore {
    this.widgetStore ??= new WidgetStore(this.app, this.policy, this.applied, this.widgetProvenance);
    return this.widgetStore;
  }

  /** Markdown notes `scope` may read, in vault order (a fresh array; remembered until the vault changes). */
  readableNotes(scope: AccessScope): TFile[] {
    return this.readableShared(scope).slice();
  }

  /**
   * {@link canRead} for `scope` of the notes the unrestricted scope may read, by their paths,
   * while that scope's scan (a build's own, readableNotesInSteps) is current: for a caller that
   * asks about every note at once (the search index's view of a caller), which by path would cost
   * a path lookup per note (`getFileByPath`'s normalization and file map) on top of each decision.
   * Nothing is decided ahead: each answer is a set lookup in the scan's listing, then the scope's
   * roots, then, only for a note whose access may differ by label (NotePolicy.openness:
   * `agent_overrides`, or frontmatter that does not parse), its rules (NotePolicy.canReadOpen);
   * every other note of the scan has its own `access`, open to the unrestricted scope, so to every
   * label. Null when the scan is not current: deciding every note would check the disk for links
   * out of the vault in one stretch (the scan does it in steps), so the caller then asks by path.
   * @returns by path: the decision for a note of the scan, undefined for a path not in it (one no
   *   scope may read, or one the vault gained since: ask by path); valid for a note until it changes
   */
  readableFromScan(scope: AccessScope): ((path: string) => boolean | undefined) | null {
    const listing = this.currentListing();
    if (listing === undefined) return null;
    const { paths, byLabel } = listing;
    const { roots } = scope;
    return (path) => {
      if (!paths.has(path)) return undefined;
      if (!this.policy.isWithinRoots(path, roots)) return false;
      const file = byLabel.size === 0 ? undefined : byLabel.get(path);
      return file === undefined || this.policy.canReadOpen(file, scope);
    };
  }

  /**
   * The paths of the notes of the build's scan (see {@link readableFromScan}) whose access may
   * differ by key label (NotePolicy.openness `by-label`), while that scan is current. Every other
   * note of the scan is read by a scope exactly when the unrestricted scope reads it and it lies
   * within the scope's roots (canReadOpen: its `access` is the same for every label), and a note
   * the unrestricted scope may not read no scope may (label rules only tighten, quarantine is
   * everyone's): so a scope's decision about a note unchanged since the scan differs from the
   * unrestricted scope's by its roots alone, except on these.
   * @returns a fresh array, in no set order; null when the scan is not current
   */
  byLabelInScan(): string[] | null {
    const listing = this.currentListing();
    return listing === undefined ? null : [...listing.byLabel.keys()];
  }

  /** The listing of the unrestricted scope's scan while that scan is current (remembered by the scan cache), else undefined. */
  private currentListing(): ScanListing | undefined {
    const open = this.scans.peek<readonly TFile[]>(`readable\u0000${this.scopeKey(UNRESTRICTED_SCOPE)}`);
    return open === undefined ? undefined : this.listings.get(open);
  }

  /** Markdown notes in the vault, readable or not: a cheap upper bound of {@link readableNotes}' length (no access checks). */
  markdownCount(): number {
    return this.markdownFiles().length;
  }

  /**
   * The vault's Markdown files, listed once until the vault changes (ScanCache): a build asks
   * for their count and then scans them, and each `getMarkdownFiles` walks every file (at 100k
   * notes the two listings were most of the scan's first slice, 50-60 ms). Callers must not mutate it.
   */
  private markdownFiles(): readonly TFile[] {
    return this.scans.get('markdown', () => this.app.vault.getMarkdownFiles());
  }

  /**
   * {@link readableNotes} computed in steps, for an index build that must not block the UI:
   * awaits `pacer.pause()` whenever `pacer.due()` says the current slice has run its budget
   * (the first check of a path asks the disk whether it leads out of the vault, NotePolicy.canRead:
   * an lstat per note and a realpath per folder, a second in one call at 100k notes). A vault small enough to check within one
   * slice is answered before the first await. Shares its answer with {@link readableNotes} (the
   * scan cache): a second scan before the vault changes costs a copy.
   * @param pacer a search/engine Slicer, or anything with its `due` and `pause`
   * @returns a fresh array, in vault order
   */
  async readableNotesInSteps(scope: AccessScope, pacer: { due(): boolean; pause(): Promise<void> }): Promise<TFile[]> {
    const readable = await this.scans.getStepped(`readable\u0000${this.scopeKey(scope)}`, async () => {
      const scan = this.scanOf(scope);
      const out: TFile[] = [];
      for (const file of this.markdownFiles()) {
        if (pacer.due()) await pacer.pause();
        if (scan.keeps(file)) out.push(file);
      }
      scan.done(out);
      return out;
    });
    return readable.slice();
  }

  /**
   * {@link readableNotes} most recently modified first (mtime descending, then path), shared
   * between calls until the vault changes: callers must not mutate it.
   */
  readableByMtime(scope: AccessScope): readonly TFile[] {
    return this.scans.get(`mtime\u0000${this.scopeKey(scope)}`, () =>
      this.readableNotes(scope).sort((a, b) => b.stat.mtime - a.stat.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    );
  }

  /** Readable notes per folder path (`''` = vault root), counting only notes directly inside. */
  noteCountsByFolder(scope: AccessScope): ReadonlyMap<string, number> {
    return this.scans.get(`folders\u0000${this.scopeKey(scope)}`, () => {
      const counts = new Map<string, number>();
      for (const file of this.readableShared(scope)) {
        const parent = parentOf(file.path);
        counts.set(parent, (counts.get(parent) ?? 0) + 1);
      }
      return counts;
    });
  }

  /** Folders (not the vault root) that are not quarantined and lie inside `scope.roots`, sorted by path, with their parent's path. */
  readableFolders(scope: AccessScope): FolderEntry[] {
    return this.app.vault
      .getAllFolders(false)
      .filter(
        (folder) => !folder.isRoot() && !this.policy.isQuarantined(folder.path) && this.policy.isWithinRoots(folder.path, scope.roots),
      )
      .map((folder) => ({ path: folder.path, parent: parentOf(folder.path) }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * The vault's own spelling of a root, for both routes that name one: the folders a key's roots
   * give (settings tab) and the folder or note a client's MCP root names in the vault (client-roots.ts),
   * so a root spelt in another case than the vault's folder (`projects` for `Projects/`) names that
   * folder on every disk and follows one rule (docs/security.md#key-roots). Matched as note paths
   * are (lookup.ts findEntry, by matchName: exact, then NFC, then the one entry equal ignoring case;
   * case twins match none); `npm start` checks its roots on disk by the same matchName (scripts/start/run-vault.ts).
   * @param root a vault-relative normalized path (not `''`).
   * @returns the folder's path, or a note's path the scope-free rules let an agent read; null when
   *   nothing (or more than one case twin) is there, or it is quarantined or private.
   */
  rootSpelling(root: string): string | null {
    try {
      return this.requireFolder(root, UNRESTRICTED_SCOPE);
    } catch {
      const entry = this.policy.entryAt(root);
      return entry instanceof TFile && this.canRead(entry, UNRESTRICTED_SCOPE) ? entry.path : null;
    }
  }

  /**
   * Normalizes a folder argument (see {@link NotePolicy.normalizeFolderPath}) and checks the folder exists.
   * @param input undefined, `''`, `/` or `.` mean the vault root (returned as `''`).
   * @returns the folder's vault path (`''` for the root).
   * @throws as {@link NotePolicy.normalizeFolderPath}; ToolError('not_found') when no folder is
   *   there, or the folder is itself a link out of the vault; ToolError('invalid_argument') when
   *   the path names a note the scope may read.
   */
  requireFolder(input: string | undefined, scope: AccessScope): string {
    const path = this.policy.normalizeFolderPath(input, scope);
    // A folder that is a link out of the vault answers as a missing one, so it cannot be told from a free name.
    if (path !== '' && (!this.folderAt(path) || this.policy.isQuarantined(path))) {
      const entry = findEntry(this.app.vault, path);
      if (entry instanceof TFile && this.policy.canRead(entry, scope))
        throw new ToolError('invalid_argument', `'${entry.path}' is a note, not a folder; read it with read_note.`);
      throw new ToolError('not_found', `Folder '${path}' not found; call list_folders without folder to see the folders.`);
    }
    return path;
  }

  /**
   * The folder at a normalized path (`''` = the vault root), or null when there is none.
   * Callers normalize with {@link NotePolicy.normalizeFolderPath} first.
   */
  folderAt(path: string): TFolder | null {
    const entry = findEntry(this.app.vault, path);
    return entry instanceof TFolder ? entry : null;
  }

  /**
   * Why `scope` may not read the note at the exact vault path `path`, for the user's own view (a
   * revert refused in the terminal or the settings tab names its cause: docs/agent-activity.md);
   * never for an agent's answer, which must not tell a hidden note from a missing one.
   * @returns `gone` (no note there), `quarantined`, `roots` (outside the scope's roots), `hidden`
   *   (its own rules: `access: private`, or `no-access` for the scope's label), or null when it may read it.
   */
  unreadableReason(path: string, scope: AccessScope): 'gone' | 'quarantined' | 'roots' | 'hidden' | null {
    const file = this.fileByPath(path);
    if (file === null || file.extension !== 'md') return 'gone';
    if (this.policy.canRead(file, scope)) return null;
    if (this.policy.isQuarantined(path)) return 'quarantined';
    if (!isWithinRoots(path, scope.roots)) return 'roots';
    return 'hidden';
  }

  /**
   * The file at an exact vault path (lookup.ts fileAtExactPath: never another file `getFileByPath` would reach), or null. No normalization and no
   * access check: for internal callers that already hold vault paths (the search index, link
   * targets); they check {@link canRead} before showing anything.
   */
  fileByPath(path: string): TFile | null {
    return fileAtExactPath(this.app.vault, path);
  }

  /**
   * The note's text as Obsidian has it (`vault.cachedRead`: the open editor's text may be newer
   * than disk), with no judgement of the rules in it nor of the disk: for the write side
   * (NoteWriter, EntryWriter), which judges the exact text it changes (assertWritableText) and
   * checks the disk before it reads (the write checks' placeCheck), and for callers that judge it
   * themselves (NotePolicy.mayServe). A route that serves text to a key reads with {@link read}.
   */
  readRaw(file: TFile): Promise<string> {
    return this.app.vault.cachedRead(file);
  }

  /**
   * The one read of a note's text for a route that serves it (or decides with it) for `scope`
   * (read_note, read_notes, note resources, search hits, agent_md, skills, prompts): the text as
   * {@link readRaw} gives it, when `scope` may read that very text (NotePolicy.mayServe: the text's
   * own frontmatter rules, and the disk's when the vault has not caught up with it), read while
   * the file lies on disk where the access checks place it (DiskReads.judged, before and after the
   * read: a note swapped for a symbolic link by another program before the vault's event is not
   * read through the link). The caller has checked {@link canRead} (on the metadata cache, which
   * may be older than the text).
   * @returns the text; null when it must not be served: answer as for a missing note (the note is
   *   now judged as private, or its path judged again on the disk, so resolving again, listing or
   *   searching no longer finds it).
   * @throws what `vault.cachedRead` throws (the file cannot be read).
   */
  async read(file: TFile, scope: AccessScope): Promise<string | null> {
    // The read is judged on the disk where the file lies (DiskReads.judgedSeen): one whose path leads elsewhere
    // now (ReplacedOnDisk) is answered as a missing note, as a text that must not be served is. The look after
    // the read gives the disk's stat for mayServe.
    const read = await this.diskReads.judgedSeen(file, () => this.app.vault.cachedRead(file)).catch(nullIfReplaced);
    return read !== null && this.policy.mayServe(file, read.value, scope, read.disk) ? read.value : null;
  }

  /**
   * {@link read}'s judgement of a text already read (a search match's, read by the query itself: readToMatch),
   * about to be served to `scope`: the file still lies on the disk where the access checks place it
   * (DiskReads.liesWhereJudged), and NotePolicy.mayServe with the disk's stat that look took.
   * @returns true when the text may be served.
   */
  mayServe(file: TFile, text: string, scope: AccessScope): boolean {
    // A text read with no disk check (readToMatch) is shown only while the file lies where it was judged.
    const disk = this.diskReads.liesWhereJudged(file);
    return disk !== false && this.policy.mayServe(file, text, scope, disk);
  }

  /**
   * {@link read} for a text a search reads to decide with, not to show (the index's text of a note,
   * a phrase or regex check of the caller's candidates): the text's own rules only
   * (NotePolicy.mayMatch, no disk `stat`: a query may read thousands), judged for `scope`; judged
   * on the disk only for a note Obsidian surely reads from there (DiskReads.judgedFromDisk), so a
   * pass over many notes costs no disk check per note: a hit found on such text is judged by
   * {@link mayServe} (which asks DiskReads.liesWhereJudged) before it is shown.
   * @returns the text; null when it must not decide anything for `scope` (the note now counts as
   *   private, or its path leads elsewhere on disk: ReplacedOnDisk).
   * @throws what `vault.cachedRead` throws.
   */
  async readToMatch(file: TFile, scope: AccessScope): Promise<string | null> {
    const text = await this.diskReads.judgedFromDisk(file, () => this.app.vault.cachedRead(file)).catch(nullIfReplaced);
    return text !== null && this.policy.mayMatch(file, text, scope) ? text : null;
  }

  /**
   * Resolves a note reference ({@link NotePolicy.resolveNote}) and reads it ({@link read}): when
   * the text found must not be served to `scope`, the reference is resolved again (that note now
   * counts as private), so the answer is the one a vault without that note gives (another note
   * of that name, or "not found" with the same suggestions), never a sign that it is there.
   * @returns the note and its text.
   * @throws as resolveNote; ToolError('not_found') when texts keep being refused (more than
   *   {@link READ_ATTEMPTS} notes in one call).
   */
  async resolveAndRead(ref: { path?: string; id?: string }, scope: AccessScope): Promise<{ file: TFile; text: string }> {
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const file = this.policy.resolveNote(ref, scope);
      const text = await this.read(file, scope);
      if (text !== null) return { file, text };
    }
    throw noteNotFound(ref.path ?? ref.id ?? '');
  }

  /**
   * A file's text, for a file that may be no note (a skill's script or reference): a `.md` note
   * as {@link read} gives it for `scope`; any other file read as bytes (`vault.readBinary`) and decoded as
   * strict UTF-8 (a byte-order mark dropped).
   * Judged on the disk where it lies at the read, as {@link read} is (`readBinary` always reads the disk).
   * @returns the text, or null when the file is not text: bytes that are not UTF-8, or a NUL byte
   *   (as git tells binary files; UTF-16 text holds them too and is not read either); undefined
   *   (answer as for a missing file) for a note whose text must not be served, and for any file
   *   whose path leads elsewhere on disk at the read (ReplacedOnDisk).
   */
  async readText(file: TFile, scope: AccessScope): Promise<string | null | undefined> {
    if (file.extension === 'md') return (await this.read(file, scope)) ?? undefined;
    const read = await this.diskReads.judged(file, () => this.app.vault.readBinary(file)).catch(nullIfReplaced);
    if (read === null) return undefined;
    const bytes = new Uint8Array(read);
    if (bytes.includes(0)) return null;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
  }

  /** SHA-256 hex of the exact text: the `hash` agents pass back as `expected_hash`. */
  hashOf(text: string): string {
    return hashText(text);
  }

  /** The note's id: frontmatter `id` (string or number) else `path:<path>`. */
  noteId(file: TFile): string {
    return frontmatterId(this.frontmatterOf(file)) ?? syntheticId(file.path);
  }

  /** The note's title: frontmatter `title`, else its first level-1 heading, else its basename. */
  noteTitle(file: TFile, frontmatter: Record<string, unknown> = this.frontmatterOf(file)): string {
    const cache = this.app.metadataCache.getFileCache(file);
    const title = frontmatter.title;
    if (typeof title === 'string' && title.trim() !== '') return title.trim();
    if (typeof title === 'number') return String(title);
    const h1 = cache?.headings?.find((h) => h.level === 1);
    if (h1 && collapseWhitespace(h1.heading) !== '') return collapseWhitespace(h1.heading);
    return file.basename;
  }

  /** A copy of the note's frontmatter from the metadata cache (`{}` when it has none). */
  frontmatterOf(file: TFile): Record<string, unknown> {
    const fm = this.app.metadataCache.getFileCache(file)?.frontmatter;
    return fm ? { ...fm } : {};
  }

  /**
   * id, title, frontmatter and tags of a note as of `text` (what was just read), for tools
   * that return them next to that text's `hash`. The metadata cache is updated some time
   * after a write, so reading these from it could pair new text with old properties; here
   * the frontmatter is parsed from `text` (`{}` when absent or unparseable). Inline tags and
   * the level-1 heading used as a fallback title still come from the cache.
   */
  describeText(file: TFile, text: string): { id: string; title: string; frontmatter: Record<string, unknown>; tags: string[] } {
    const parsed = parseFrontmatter(text);
    const frontmatter = parsed.state === 'ok' ? parsed.data : {};
    const inline = (this.app.metadataCache.getFileCache(file)?.tags ?? []).map((t) => t.tag);
    const fromFrontmatter = (parseFrontMatterTags(frontmatter) ?? []).map((t) => (t.startsWith('#') ? t : `#${t}`));
    return {
      id: frontmatterId(frontmatter) ?? syntheticId(file.path),
      title: this.noteTitle(file, frontmatter),
      frontmatter,
      tags: [...new Set([...fromFrontmatter, ...inline])],
    };
  }

  /** The note's frontmatter aliases (`aliases`, a list or one string; Obsidian's parseFrontMatterAliases). */
  aliasesOf(file: TFile): string[] {
    return parseFrontMatterAliases(this.app.metadataCache.getFileCache(file)?.frontmatter ?? null) ?? [];
  }

  /** The note's tags with their `#`, frontmatter and inline, deduplicated (Obsidian's `getAllTags`). */
  tagsOf(file: TFile): string[] {
    const cache = this.app.metadataCache.getFileCache(file);
    return cache ? [...new Set(getAllTags(cache) ?? [])] : [];
  }

  /** The note's heading texts in order, whitespace collapsed (each `NoteSection.heading` of {@link outline}), from the metadata cache. */
  headingTexts(file: TFile): string[] {
    return headingTexts(this.app.metadataCache.getFileCache(file)?.headings);
  }

  /** The note's headings as numbered sections (see {@link NoteSection}), from the metadata cache. */
  outline(file: TFile, text: string): NoteSection[] {
    return buildOutline(this.app.metadataCache.getFileCache(file)?.headings, text.length, text);
  }

  /** Outgoing links, backlinks and unresolved links of `file`; notes `scope` may not read never appear. */
  linksOf(file: TFile, scope: AccessScope): NoteLinks {
    const { resolvedLinks, unresolvedLinks } = this.app.metadataCache;
    const canReadPath = this.policy.canReadPath(scope);
    const hidden: Record<string, number> = {};
    const cache = this.app.metadataCache.getFileCache(file);
    for (const ref of [...(cache?.links ?? []), ...(cache?.embeds ?? []), ...(cache?.frontmatterLinks ?? [])]) {
      const linkpath = getLinkpath(ref.link);
      const target = this.app.metadataCache.getFirstLinkpathDest(linkpath, file.path);
      if (target && !canReadPath(target.path)) hidden[linkpath] = (hidden[linkpath] ?? 0) + 1;
    }
    const backlinks = this.scans.get('backlinks', () => backlinkIndex(resolvedLinks));
    return linkGraphOf(file.path, resolvedLinks, unresolvedLinks, canReadPath, hidden, backlinks.get(file.path) ?? []);
  }

  /**
   * Every file whose resolved links (`metadataCache.resolvedLinks`: body, embeds, frontmatter)
   * point at `entry` or, for a folder, at anything inside it: the notes Obsidian's
   * `fileManager.renameFile` rewrites when `entry` moves. No access check: a move must know
   * all of them, visible or not, to refuse one its caller may not write.
   * @returns the linking files, in vault order (the moved entry's own notes included).
   */
  notesLinkingInto(entry: TAbstractFile): TFile[] {
    const inside = entry instanceof TFolder ? (path: string) => isPathInside(path, entry.path) : (path: string) => path === entry.path;
    const out: TFile[] = [];
    for (const [source, targets] of Object.entries(this.app.metadataCache.resolvedLinks)) {
      if (!Object.keys(targets).some(inside)) continue;
      // The linking file itself, never the one `getFileByPath` would reach for a name holding a backslash: a move must
      // see the closed note it would rewrite, to refuse.
      const file = fileAtExactPath(this.app.vault, source);
      if (file) out.push(file);
    }
    return out;
  }

  /**
   * The notes `file` links to (`metadataCache.resolvedLinks`) that `scope` may read, with link
   * counts, count descending then path: the `outgoing` of {@link linksOf} without scanning the
   * vault for backlinks.
   */
  outgoingLinks(file: TFile, scope: AccessScope): LinkCount[] {
    return outgoingLinksOf(file.path, this.app.metadataCache.resolvedLinks, this.policy.canReadPath(scope));
  }

  /** Tags on at least one note `scope` may read, with the number of such notes; count desc, then name. */
  tagCounts(scope: AccessScope): TagCount[] {
    return this.scans
      .get(`tags\u0000${this.scopeKey(scope)}`, () => countTags(this.readableShared(scope).map((file) => this.tagsOf(file))))
      .map((t) => ({ ...t }));
  }

  /** The readable notes shared between calls until the vault changes (see ScanCache). */
  private readableShared(scope: AccessScope): readonly TFile[] {
    return this.scans.get(`readable\u0000${this.scopeKey(scope)}`, () => {
      const scan = this.scanOf(scope);
      const out = this.markdownFiles().filter((file) => scan.keeps(file));
      scan.done(out);
      return out;
    });
  }

  /**
   * The check of one scan of readable notes for `scope`: `keeps` is canRead; for the unrestricted
   * scope it also fills the scan's {@link ScanListing} (NotePolicy.openness: one metadata lookup,
   * as canRead's), which `done` files under the scan's answer for readableFromScan.
   */
  private scanOf(scope: AccessScope): { keeps(file: TFile): boolean; done(out: readonly TFile[]): void } {
    if (this.scopeKey(scope) !== this.scopeKey(UNRESTRICTED_SCOPE))
      return { keeps: (file) => this.policy.canRead(file, scope), done: () => {} };
    const listing: ScanListing = { paths: new Set(), byLabel: new Map() };
    return {
      keeps: (file) => {
        const openness = this.policy.openness(file);
        if (openness === 'closed') return false;
        listing.paths.add(file.path);
        if (openness === 'by-label') listing.byLabel.set(file.path, file);
        return true;
      },
      done: (out) => this.listings.set(out, listing),
    };
  }

  /** What a scan's answer for `scope` depends on besides the vault: the key's label and roots, the quarantine list and the widgets folder. */
  private scopeKey(scope: AccessScope): string {
    return JSON.stringify([scope.label, scope.roots, this.quarantineList(), this.trustedList(), this.widgetsSetting()]);
  }

  /**
   * Subscribes to note changes (Markdown files only), as note-changes.ts's followNoteChanges
   * reports them. Readability is not filtered here: listeners check {@link canRead} themselves.
   * @returns a function that unsubscribes.
   */
  onNoteChange(listener: (change: NoteChange) => void): () => void {
    return followNoteChanges(this.app, this.policy, listener);
  }

  /**
   * Subscribes to files other than notes being created, deleted or renamed, as note-changes.ts's
   * followOtherFiles reports them (not their edits). Readability is not filtered here.
   * @returns a function that unsubscribes.
   */
  onOtherFileChange(listener: (change: NoteChange) => void): () => void {
    return followOtherFiles(this.app, listener);
  }

  /**
   * Subscribes to every file rename or move (notes and other files), as note-changes.ts's
   * followFileRenames reports them. @returns a function that unsubscribes.
   */
  onFileRename(listener: (change: NoteChange) => void): () => void {
    return followFileRenames(this.app, listener);
  }

  /**
   * Subscribes to folders being created, deleted or renamed, as note-changes.ts's followFolders
   * reports them. @returns a function that unsubscribes.
   */
  onFolderChange(listener: (change: NoteChange) => void): () => void {
    return followFolders(this.app, listener);
  }

  /**
   * The agent instructions governing `file`: the nearest `AGENTS.md` (else `AGENT.md`) in the
   * note's folder or an ancestor, up to the vault root. The note itself is skipped, so reading
   * an AGENTS.md shows its parent's instructions. Quarantine and access rules apply to the
   * instructions file as to any note (a private or quarantined one is never shown), but the
   * key's roots do not: instructions above a key's root still govern the notes below it.
   * @returns its path and text, or null when none applies.
   */
  async agentInstructionsFor(file: TFile, scope: AccessScope): Promise<AgentInstructions | null> {
    return (await this.agentInstructionsForNotes([file], scope))[0];
  }

  /**
   * {@link agentInstructionsFor} for several notes at once: the instructions file is looked up
   * once per folder (once per note only for notes that are themselves named AGENTS.md /
   * AGENT.md, which skip themselves) and each file found is read once.
   * @returns one entry per note, in input order; null where none applies (a file found whose text
   *   must not be served, or whose path leads elsewhere on disk now, counts as missing).
   */
  async agentInstructionsForNotes(files: readonly TFile[], scope: AccessScope): Promise<Array<AgentInstructions | null>> {
    const unrooted: AccessScope = { label: scope.label, roots: [] };
    const keyOf = (file: TFile): string =>
      AGENT_INSTRUCTION_FILES.some((name) => foldPath(name) === foldPath(file.name))
        ? `file:${file.path}`
        : `folder:${parentOf(file.path)}`;
    // Read as any note is (read): a text that must not be served makes that file count as private, and one whose path
    // leads elsewhere on disk now (ReplacedOnDisk) is judged again there; either way the next nearest is looked up.
    const texts = new Map<TFile, Promise<string | null>>();
    const readOnce = (file: TFile): Promise<string | null> => {
      let text = texts.get(file);
      if (text === undefined) texts.set(file, (text = this.read(file, unrooted)));
      return text;
    };
    const byKey = new Map<string, Promise<AgentInstructions | null>>();
    const lookUp = async (file: TFile): Promise<AgentInstructions | null> => {
      for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        const found = nearestAgentInstructions(file, (candidate) => candidate !== file && this.policy.canRead(candidate, unrooted));
        if (found === null) return null;
        const content = await readOnce(found);
        if (content !== null) return { path: found.path, content };
      }
      return null;
    };
    return Promise.all(
      files.map((file) => {
        const key = keyOf(file);
        let entry = byKey.get(key);
        if (entry === undefined) byKey.set(key, (entry = lookUp(file)));
        return entry;
      }),
    );
  }

  /**
   * The note open in the focused editor (`workspace.getActiveFile()`), with the editor's
   * selection (`workspace.activeEditor.editor.getSelection()`, `''` when nothing is selected)
   * and cursor (`editor.getCursor()`: 0-based line and ch; null when the note has no editor,
   * e.g. reading view).
   * @returns null when no Markdown note is active or `scope` may not read it: the editor's text is
   *   judged as every served text is (NotePolicy.mayServe), since the selection is part of it.
   */
  activeNote(scope: AccessScope): { file: TFile; selection: string; cursor: { line: number; ch: number } | null } | null {
    const { workspace } = this.app;
    const file = workspace.getActiveFile();
    if (!file || file.extension !== 'md' || !this.policy.canRead(file, scope)) return null;
    const info = workspace.activeEditor;
    const editor = info?.file?.path === file.path ? info.editor : undefined;
    if (editor && !this.policy.mayServe(file, editor.getValue(), scope)) return null;
    const cursor = editor ? editor.getCursor('head') : null;
    return { file, selection: editor?.getSelection() ?? '', cursor: cursor ? { line: cursor.line, ch: cursor.ch } : null };
  }
}
