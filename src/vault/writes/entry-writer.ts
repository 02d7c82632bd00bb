import { TFile, TFolder, type App, type TAbstractFile } from 'obsidian';
import { quoteInput, ToolError, withoutNames } from '../../errors';
import type { AccessScope } from '../access/access';
import { assertWritableText, guardFrontmatter, noteNotFound } from './frontmatter/frontmatter-guard';
import { hashText } from '../hash';
import { assertValidName, withMarkdownExtension } from '../paths/note-names';
import type { NoteReader } from '../note-reader';
import { foldPath, isPathInside, parentOf } from '../paths/paths';
import { insertedLines } from './edits/text-edits';
import {
  assertExpectedHash,
  assertNoNewNames,
  assertStillAt,
  assertUtf8Note,
  byteSize,
  isUtf8,
  placeCheck,
  writableNote,
} from './write-checks';
import { BaseChangedError, hashNotApplicable, MoveBlockedError, takenError } from './write-errors';
import type { WriteLock } from './write-lock';
import type { PreparedWrite, WriteResult } from './write-types';

/** What a refusal of a folder-naming path says of the rule (NotePolicy.namesFolder). */
const FOLDER_ENDINGS = "a path ending in '/', '/.' or '/..' names a folder";

/** Prepared writes that create, move or delete whole entries. */
type EntryWrite = Extract<PreparedWrite, { kind: 'create' | 'folder' | 'move' | 'delete' }>;

/**
 * The open editors as a delete needs them (NoteWriter gives them): a note open in an editor is
 * deleted as the user sees it there, unsaved typing included (verifier, session 30, F9).
 */
export interface EditorsForDelete {
  /** The document of an editor showing the note at `path`, or null when none is open. */
  textOf(path: string): string | null;
  /**
   * Saves the editors of `file` to it now, judged on the disk right before each save starts
   * (NoteWriter's place check). @throws ToolError('conflict') when the note's path no longer holds
   * the file judged (nothing saved); the save's file system error.
   */
  saveJudged(file: TFile): Promise<void>;
}

/**
 * The writes that add, move or remove whole entries: create_note, create_folder, move_note,
 * delete_note. Never overwrites: a taken target (a visible note, a folder, or a note this
 * key may not see) gets the same answer, "Cannot create at that path: it is taken or unavailable", so
 * an agent cannot probe for private notes. Deletes go to the trash, never a hard delete.
 */
export class EntryWriter {
  /**
   * @param lock the write lock shared with NoteWriter, so moves and edits of one note never interleave.
   * @param editors the open editors (null in headless runs): a delete judges and trashes a note open in one as its editor shows it.
   */
  constructor(
    private readonly app: App,
    private readonly notes: NoteReader,
    private readonly lock: WriteLock,
    private readonly editors: EditorsForDelete | null = null,
  ) {}

  /**
   * create_note: normalizes `rawPath` (adds `.md` when missing), checks names, that the path
   * is free and that `content` sets no protected property. With `restore` (the user's revert of
   * a logged delete: `content` is the deleted note's own text) the note's own `access` and
   * `agent_overrides` come back as they were; what counts then is that they leave the note
   * writable by `scope` itself.
   * @throws ToolError('invalid_argument') for a folder-looking path or a forbidden name;
   *   ToolError('forbidden') for quarantine/roots/protected keys (restore: the note's rules make
   *   it read-only for `scope`); ToolError('not_found') on restore when its rules hide it from `scope`;
   *   ToolError('exists') when taken.
   */
  prepareCreate(
    tool: string,
    rawPath: string,
    content: string,
    scope: AccessScope,
    restore = false,
  ): Extract<PreparedWrite, { kind: 'create' }> {
    if (this.notes.policy.namesFolder(rawPath)) {
      throw new ToolError(
        'invalid_argument',
        `${quoteInput(rawPath)} names ${this.folderNamed(rawPath)} (${FOLDER_ENDINGS}); give a note path such as 'Folder/Note.md', or call create_folder.`,
      );
    }
    const path = this.notes.policy.checkedPath(withMarkdownExtension(this.notes.policy.normalizePath(rawPath, scope)), scope);
    this.assertNewSegmentsValid(path);
    this.assertNoReadableNoteAt(path, scope, 'change it with write_note or edit_note, or choose another path');
    this.assertFree(path, 'create at');
    if (restore) assertWritableText(content, scope, path);
    else guardFrontmatter('', content, path);
    return { kind: 'create', tool, path, proposedText: content };
  }

  /**
   * create_folder: normalizes the path (a trailing `/` is fine) and checks names.
   * @throws ToolError('exists') when a folder is already there (or the path is taken by a note).
   */
  prepareFolder(tool: string, rawPath: string, scope: AccessScope): PreparedWrite {
    const path = this.notes.policy.normalizePath(rawPath, scope);
    const existing = this.notes.policy.entryAt(path);
    if (existing instanceof TFolder) throw new ToolError('exists', `Folder '${existing.path}' already exists; use it as it is.`);
    const twins = this.notes.policy.caseTwins(path);
    if (twins.length > 1 && twins.every((twin) => twin instanceof TFolder)) {
      throw new ToolError(
        'exists',
        `Folders ${twins.map((t) => `'${t.path}'`).join(' and ')} already exist, differing only by case; use one of them exactly as it is spelt.`,
      );
    }
    this.assertNewSegmentsValid(path);
    this.assertFree(path, 'create a folder at');
    return { kind: 'folder', tool, path };
  }

  /**
   * move_note: the source is a note this key may write, or a folder whose every note it may
   * write; the target (a note gets `.md` when missing) must be free, and a folder may not move
   * into itself. A target naming the source itself (a note or a folder) with a differently cased
   * name renames it in place, as Obsidian's rename does (the parent folders keep their spelling). The note is read only to check a given
   * `expectedHash` (applying checks it again). Every note whose links the move would update
   * must be one this key may write, and UTF-8 text (both checked again when applying). An
   * `expectedHash` is compared with the note's text as the user sees it ({@link shownText}: its
   * open editor's, unsaved typing included), as every write tool compares it.
   * The note and every note whose links the move would rewrite are judged on the disk first
   * (write-checks.ts placeCheck), before anything is read through their paths.
   * @throws ToolError as prepareCreate, plus not_found / forbidden / conflict for the source;
   *   ToolError('conflict') (replacedOnDiskError) when another program swapped the note or a note
   *   linking in for a symbolic link or another file before the vault's event;
   *   invalid_argument for an `expectedHash` with a folder (write-errors.ts hashNotApplicable).
   */
  async prepareMove(
    tool: string,
    rawPath: string,
    rawTo: string,
    expectedHash: string | undefined,
    scope: AccessScope,
  ): Promise<PreparedWrite> {
    const source = this.sourceEntry(rawPath, scope);
    const isNote = source instanceof TFile;
    if (source instanceof TFolder) {
      if (expectedHash !== undefined) throw hashNotApplicable('a folder move');
      this.assertFolderMovable(source, scope);
    } else if (isNote) {
      // Judged on the disk before anything is read through the path.
      placeCheck(this.notes.policy, source)();
      if (expectedHash !== undefined) assertExpectedHash(await this.shownText(source), expectedHash, source.path);
    }
    if (isNote && this.notes.policy.namesFolder(rawTo)) {
      throw new ToolError(
        'invalid_argument',
        `${quoteInput(rawTo)} names ${this.folderNamed(rawTo)} (${FOLDER_ENDINGS}); give the note's whole new path, such as '${[this.notes.policy.spelledPath(rawTo), source.name].filter((part) => part !== '').join('/')}'.`,
      );
    }
    // The target first: a target outside the key's folders is the refusal to hear, before the notes linking in.
    let to = this.notes.policy.normalizePath(rawTo, scope);
    if (isNote && !/\.md$/i.test(to) && this.notes.policy.entryAt(to) instanceof TFolder) {
      // `Archive` beside a folder `Archive/`: the agent most likely meant "into it", and a move there would rename the note
      // (and every link to it) `Archive` at once; either reading is one word away, so it names both (session 43's newcomer).
      const folder = this.notes.policy.entryAt(to)?.path ?? to;
      throw new ToolError(
        'invalid_argument',
        `'${folder}' is a folder: to move the note into it, give '${folder}/${source.name}'; for a note named '${folder}.md' beside it, give '${folder}.md'. Nothing was moved.`,
      );
    }
    if (isNote) to = this.notes.policy.checkedPath(withMarkdownExtension(to), scope);
    this.assertLinkersWritable(source, scope);
    for (const check of this.linkerChecks(source)) check();
    await this.assertLinkersUtf8(source);
    const renamesInPlace = this.notes.policy.entryAt(to) === source;
    if (!isNote && !renamesInPlace && this.landsInside(to, source)) {
      throw new ToolError('invalid_argument', `Cannot move folder '${source.path}' into itself; choose a target outside it.`);
    }
    if (renamesInPlace) {
      const literal = this.spelledTarget(rawTo, isNote);
      if (literal === null || literal === source.path) {
        throw new ToolError('invalid_argument', `'${source.path}' is already at '${to}'; give a different target path.`);
      }
      const name = literal.slice(literal.lastIndexOf('/') + 1);
      assertValidName(name);
      const parent = parentOf(source.path);
      to = parent === '' ? name : `${parent}/${name}`;
    } else {
      this.assertNewSegmentsValid(to);
      this.assertNoReadableNoteAt(to, scope, 'a move does not replace a note: choose another path, or delete that note first');
      this.assertFree(to, 'move to');
    }
    return { kind: 'move', tool, path: source.path, to, folder: !isNote, expectedHash };
  }

  /**
   * Whether a move target `to` lies in the folder being moved: spelt inside it, or inside a spelling
   * that differs only in case and names that folder (a disk that folds case). A case twin beside it
   * (`caset/` next to `CaseT/` on a disk that tells them apart) is another folder, and `caset/sub` is
   * no place inside `CaseT/`; a spelling that matches several twins names none of them.
   */
  private landsInside(to: string, folder: TAbstractFile): boolean {
    if (isPathInside(to, folder.path)) return true;
    if (!isPathInside(to, folder.path, true)) return false;
    const head = to.split('/').slice(0, folder.path.split('/').length).join('/');
    return this.notes.policy.entryAt(head) === folder;
  }

  /**
   * delete_note: a note this key may write (folders are refused), judged on the disk before it is
   * read (write-checks.ts placeCheck): the text read is what the activity log keeps, and a revert
   * puts it back as a note. The note's text is its open editor's when it has one (the user's unsaved
   * typing counts: `expectedHash`, the access rules and the text proposed for the trash are judged on
   * it, as text writes judge theirs), else Obsidian's cached text, or the disk's with `fresh` (force
   * mode's retry), which then refuses a file with more than one name (assertNoNewNames).
   * @throws ToolError('invalid_argument') for a folder; ToolError('conflict') (replacedOnDiskError)
   *   when another program swapped the note for a symbolic link or another file before the vault's
   *   event; as NoteWriter for the note.
   */
  async prepareDelete(
    tool: string,
    rawPath: string,
    expectedHash: string | undefined,
    scope: AccessScope,
    fresh = false,
  ): Promise<PreparedWrite> {
    this.assertNotFolder(rawPath, scope);
    const file = writableNote(this.notes, rawPath, scope);
    // Judged on the disk before the note is read through its path: the text read is logged and a revert restores it (verifier s30 F1).
    placeCheck(this.notes.policy, file)();
    // Read again from disk (the vault's text was not the disk's): a file with other names may be a hard link swapped in.
    if (fresh) assertNoNewNames(this.notes.policy, file.path);
    const baseText = await this.shownText(file, fresh);
    assertExpectedHash(baseText, expectedHash, file.path);
    assertWritableText(baseText, scope, file.path);
    return { kind: 'delete', tool, path: file.path, expectedHash, baseText, baseHash: hashText(baseText) };
  }

  /** Applies a prepared create, folder, move or delete (force mode). */
  apply(prepared: EntryWrite, scope: AccessScope): Promise<WriteResult> {
    switch (prepared.kind) {
      case 'create':
        return this.lock.run(`create:${foldPath(prepared.path)}`, () => this.create(prepared.path, prepared.proposedText));
      case 'folder':
        return this.lock.run(`create:${foldPath(prepared.path)}`, async () => {
          this.assertFree(prepared.path, 'create a folder at');
          await this.ensureFolder(prepared.path);
          return { status: 'applied', path: prepared.path };
        });
      case 'move': {
        const entry = this.app.vault.getAbstractFileByPath(prepared.path);
        if (!entry || entry instanceof TFolder !== prepared.folder) throw noteNotFound(prepared.path);
        // The target's key too, as a create takes it: two moves (or a move and a create) onto one free path each passed the "taken?" check before either renamed, and the second rename replaced the first note on disk.
        return this.lock.run(entry, () => this.lock.run(`create:${foldPath(prepared.to)}`, () => this.move(entry, prepared, scope)));
      }
      case 'delete': {
        const file = this.app.vault.getFileByPath(prepared.path);
        if (!file) throw noteNotFound(prepared.path);
        return this.lock.run(file, () => this.trash(file, prepared));
      }
    }
  }

  /** Creates the note (and its missing folders) with `vault.create`. */
  private async create(path: string, content: string): Promise<WriteResult> {
    this.assertFree(path, 'create at');
    await this.ensureFolder(parentOf(path));
    // Judged on the disk again right before the write: a link put at the path while folders were made is not followed.
    this.assertFree(path, 'create at');
    let file: TFile;
    try {
      file = await this.app.vault.create(path, content);
    } catch (err) {
      if (/exist/i.test(String((err as Error)?.message))) throw takenError('create at');
      throw err;
    }
    return {
      status: 'applied',
      path: file.path,
      hash: hashText(content),
      size_before: 0,
      size_after: byteSize(content),
      lines: insertedLines(content, 0, content.length),
    };
  }

  /**
   * Moves `entry` with `fileManager.renameFile` (Obsidian updates links), after fresh checks: the
   * note and each note linking in are judged on the disk (write-checks.ts placeCheck) before they
   * are read and right before the rename; the answer's hash and size are of the moved file only.
   * A note open in an editor is judged (`expectedHash`, access rules) on the editor's text, its
   * unsaved typing is saved first ({@link saveTypingFirst}), and the editor must still show that
   * text right before the rename (else BaseChangedError: nothing moves).
   * Notes on `p` (`linkersRewritten`) the notes linking into it whose text the link updates
   * changed, at their paths after the move, so the activity log can list them.
   */
  private async move(entry: TAbstractFile, p: Extract<PreparedWrite, { kind: 'move' }>, scope: AccessScope): Promise<WriteResult> {
    assertStillAt(this.app.vault, entry, p.path);
    const policy = this.notes.policy;
    // The note and every note whose links the rename rewrites, judged on the disk before they are read and right before the rename (verifier s30 F5).
    const judged = entry instanceof TFile ? policy.judgedPlace(entry.path) : null;
    const inPlace = entry instanceof TFile ? placeCheck(policy, entry) : () => {};
    let before: string | null = null;
    let sizeBefore = 0;
    if (entry instanceof TFile) {
      inPlace();
      before = this.editors?.textOf(entry.path) ?? (await this.app.vault.read(entry));
      assertExpectedHash(before, p.expectedHash, p.path);
      assertWritableText(before, scope, p.path);
      // The note moves as the user sees it: unsaved typing is saved first (judged), so its new place holds it at once.
      await this.saveTypingFirst(entry, before);
      sizeBefore = await this.savedSize(entry, before);
    }
    if (entry instanceof TFolder) this.assertFolderMovable(entry, scope);
    this.assertLinkersWritable(entry, scope);
    for (const check of this.linkerChecks(entry)) check();
    await this.assertLinkersUtf8(entry);
    const occupant = this.notes.policy.entryAt(p.to);
    if (occupant && occupant !== entry) throw takenError('move to');
    if (this.notes.policy.caseTwins(p.to).some((twin) => twin !== entry)) throw takenError('move to');
    if (!this.notes.policy.isFreeNow(p.to, entry)) throw takenError('move to');
    await this.ensureFolder(parentOf(p.to));
    // The notes linking in now (one may have started linking in meanwhile), checked for this key again and judged before they are read.
    this.assertLinkersWritable(entry, scope);
    const linkersInPlace = this.linkerChecks(entry);
    for (const check of linkersInPlace) check();
    const linking = await Promise.all(this.notes.notesLinkingInto(entry).map(async (f) => ({ f, text: await this.app.vault.read(f) })));
    // Judged on the disk again right before the rename (NotePolicy.isFreeNow): nothing is moved through or over a link.
    if (!this.notes.policy.isFreeNow(p.to, entry)) throw takenError('move to');
    // The source and the linkers, last: nothing is renamed or rewritten through a link swapped in (Obsidian rewrites the linkers right after).
    inPlace();
    for (const check of linkersInPlace) check();
    // The user may have typed since the save: a note showing other text than the one judged is not moved (no await before the rename).
    if (before !== null && (this.editors?.textOf(entry.path) ?? before) !== before) throw new BaseChangedError(p.path);
    try {
      await this.app.fileManager.renameFile(entry, p.to);
    } catch (err) {
      if (/exist/i.test(String((err as Error)?.message))) throw takenError('move to');
      throw err;
    }
    p.linkersRewritten = await this.rewritten(linking);
    if (!(entry instanceof TFile) || before === null) return { status: 'applied', path: entry.path, from: p.path };
    // The hash and size only of the file moved, still lying where it was judged: never of what else stands at the new path now.
    if (judged === null || !policy.isWhereJudgedNow(entry.path, { ...policy.judgedPlace(entry.path), file: judged.file }))
      return { status: 'applied', path: entry.path, from: p.path };
    const after = await this.app.vault.read(entry);
    return {
      status: 'applied',
      path: entry.path,
      from: p.path,
      hash: hashText(after),
      size_before: sizeBefore,
      size_after: await this.savedSize(entry, after),
    };
  }

  /**
   * Of the notes read before a move (`f` with its `text` then), the ones whose text differs now:
   * those whose links the move rewrote. A note gone since is left out.
   * @returns their paths now (a note moved along with a folder at its new path), in the order given.
   */
  private async rewritten(linking: ReadonlyArray<{ f: TFile; text: string }>): Promise<string[]> {
    const out: string[] = [];
    for (const { f, text } of linking) {
      if (this.app.vault.getFileByPath(f.path) === f && (await this.app.vault.read(f)) !== text) out.push(f.path);
    }
    return out;
  }

  /**
   * Moves the note to the system trash, else the vault's `.trash` folder; never a hard delete.
   * The note is read again under the write lock, judged on the disk before that read and right
   * before the trash (write-checks.ts placeCheck), and must still be the text prepareDelete
   * checked, so a note that changed since is never deleted unseen. A note open in an editor must
   * show that text there, and its unsaved typing is saved first ({@link saveTypingFirst}), so the
   * trash holds what the user saw; its editor is checked once more right before the trash call.
   * @throws BaseChangedError when it changed (nothing is deleted); ToolError('unavailable') when the
   *   vault's `.trash` is a link that could carry it away (NotePolicy.localTrashRefusal);
   *   ToolError('conflict') when the editor's save was refused (nothing saved, nothing deleted);
   *   ToolError('conflict') / ToolError('not_found') from the disk check (nothing is deleted).
   */
  private async trash(file: TFile, p: Extract<PreparedWrite, { kind: 'delete' }>): Promise<WriteResult> {
    assertStillAt(this.app.vault, file, p.path);
    // Judged on the disk before the note is read through its path, and again right before it is trashed (verifier s30 F1).
    const inPlace = placeCheck(this.notes.policy, file);
    inPlace();
    await this.saveTypingFirst(file, p.baseText);
    const text = await this.app.vault.read(file);
    if (text !== p.baseText) throw new BaseChangedError(p.path);
    // The text read above is the bytes decoded with replacement characters when they are not UTF-8: the log must not restore it as the note.
    const bytes = new Uint8Array(await this.app.vault.readBinary(file));
    if (!isUtf8(bytes)) p.notUtf8 = true;
    const away = this.notes.policy.localTrashRefusal();
    if (away !== null) throw away;
    // The user may have typed since the save: an editor showing other text keeps the note (checked with no await before the trash call).
    if ((this.editors?.textOf(file.path) ?? text) !== text) throw new BaseChangedError(p.path);
    inPlace();
    try {
      await this.app.vault.trash(file, true);
    } catch {
      await this.app.vault.trash(file, false);
    }
    // The file's bytes: a note that is not UTF-8 text reads with a 3-byte U+FFFD in place of each bad byte.
    return { status: 'applied', path: p.path, hash: p.baseHash, size_before: bytes.byteLength, size_after: 0 };
  }

  /**
   * The size a write result reports for `file` holding `text` as read (write-types.ts WriteResult):
   * the UTF-8 bytes of the text, which are the file's, or the file's own bytes when the text holds
   * U+FFFD, as a file that is not UTF-8 reads (each byte that is no UTF-8 becomes that 3-byte
   * character: a 12-byte Latin-1 note reads as 14 bytes of text). Only move_note and delete_note act
   * on such a note; the other writes refuse it (write-checks.ts).
   * @returns bytes.
   */
  private async savedSize(file: TFile, text: string): Promise<number> {
    if (!text.includes('\uFFFD')) return byteSize(text);
    return (await this.app.vault.readBinary(file)).byteLength;
  }

  /**
   * Before a note open in an editor goes to the trash or is moved: the editor must still show `baseText` (the
   * text the write was judged on), and when the file does not hold it yet (the user's typing,
   * unsaved: Obsidian saves 2 s after an edit) the editor is saved first, judged on the disk right
   * before (EditorsForDelete.saveJudged), so the trash and the activity log hold the user's text,
   * never the older one on disk. Nothing happens for a note no editor shows.
   * @throws BaseChangedError when the editor shows other text; what saveJudged throws.
   */
  private async saveTypingFirst(file: TFile, baseText: string): Promise<void> {
    const shown = this.editors?.textOf(file.path) ?? null;
    if (shown === null || this.editors === null) return;
    if (shown !== baseText) throw new BaseChangedError(file.path);
    if ((await this.app.vault.read(file)) !== shown) await this.editors.saveJudged(file);
  }

  /**
   * The note's text as the user sees it, which `expected_hash` is compared with by every write
   * tool: its open editor's document (unsaved typing included), else Obsidian's cached text, or
   * the disk's with `fresh`.
   */
  private async shownText(file: TFile, fresh = false): Promise<string> {
    return this.editors?.textOf(file.path) ?? (fresh ? await this.app.vault.read(file) : await this.notes.readRaw(file));
  }

  /**
   * The disk checks (write-checks.ts placeCheck) of the notes whose links a move of `entry` rewrites
   * (Obsidian's `fileManager.renameFile` rewrites them with `vault.process`), taken now: each
   * throws ToolError('conflict') when another program swapped that note for a symbolic link or
   * another file since, so a move never reads or rewrites a file a link leads to (a quarantined
   * note, a file outside the vault: verifier s30 F5), and ToolError('not_found') when it was moved.
   * Call after {@link assertLinkersWritable}: every linker is a note the key may write, so naming it reveals nothing.
   */
  private linkerChecks(entry: TAbstractFile): Array<() => void> {
    return this.notes.notesLinkingInto(entry).map((linker) => placeCheck(this.notes.policy, linker));
  }

  /** The folder or writable note a move starts from. */
  private sourceEntry(rawPath: string, scope: AccessScope): TAbstractFile {
    return this.folderAt(rawPath, scope) ?? writableNote(this.notes, rawPath, scope);
  }

  /**
   * Refuses a delete of a folder ({@link folderAt}: a note the key sees at `rawPath` with `.md` comes first) with a sentence
   * saying that only notes are deleted. Asked before the note is looked up, on every route a delete takes (force and propose),
   * so a folder gets this answer rather than the note lookup's "is a folder; call list_notes".
   * @throws ToolError('invalid_argument') when `rawPath` names a folder
   */
  assertNotFolder(rawPath: string, scope: AccessScope): void {
    if (this.folderAt(rawPath, scope)) {
      throw new ToolError(
        'invalid_argument',
        `${quoteInput(rawPath)} is a folder; delete_note deletes notes only, so delete its notes one by one.`,
      );
    }
  }

  /**
   * A refusal's words for the folder a path that names one ({@link NotePolicy.namesFolder}) names, by the path's own spelling
   * (no lookup: it tells nothing of the vault): `the vault root` (`Test/..`) or `the folder 'Test'` (`Test/`, `Test/x/..`).
   * @throws ToolError as NotePolicy.spelledPath's path rules (a path out of the vault)
   */
  private folderNamed(rawPath: string): string {
    const path = this.notes.policy.spelledPath(rawPath);
    return path === '' ? 'the vault root' : `the folder '${path}'`;
  }

  /**
   * The folder `rawPath` names, or null (also when the path does not normalize: the note lookup
   * reports that). A path ending in `/` names the folder; without it a note the key can see at
   * that path with `.md` (`Topic` is `Topic.md`, as every note tool reads it: docs/tool-reference.md)
   * comes first, so in the folder-note layout (`Topic.md` beside `Topic/`) move_note and
   * delete_note act on the note the caller named, never on the folder and everything in it. A
   * note the key may not see does not count, so the answer tells nothing of it.
   */
  private folderAt(rawPath: string, scope: AccessScope): TFolder | null {
    try {
      const entry = this.notes.policy.entryAt(this.notes.policy.normalizePath(rawPath, scope));
      if (!(entry instanceof TFolder)) return null;
      if (this.notes.policy.namesFolder(rawPath)) return entry;
      const note = this.notes.policy.entryAt(withMarkdownExtension(entry.path));
      return note instanceof TFile && this.notes.policy.canRead(note, scope) ? null : entry;
    } catch {
      return null;
    }
  }

  /**
   * Refuses a folder move when anything inside is quarantined (moving it could take it out of
   * quarantine), is a note this key sees but may only read, or is a note it may not see
   * (`access: private`, `no-access`) that a note it can read links to: Obsidian would rewrite
   * that link to the new place, telling the agent the hidden note exists and where it went
   * (while a link to a missing note stays as it is). An unlinked hidden note moves with its
   * folder, contents untouched, so the answer does not reveal it. The refusal is the same for
   * every cause and names only a read-only note the key reads ({@link readOnlyClause}), never a hidden or
   * quarantined one (the error's `blockers` hold them all, for the user: MoveBlockedError).
   * @throws MoveBlockedError (`contents`), or ToolError('forbidden') for the vault's root folder.
   */
  private assertFolderMovable(folder: TFolder, scope: AccessScope): void {
    const message = `Folder '${folder.path}' holds notes this key may not change; move its notes one at a time instead.`;
    if (folder.isRoot()) throw new ToolError('forbidden', message);
    const blockers: string[] = [];
    const readOnly: string[] = [];
    const visit = (entry: TAbstractFile): void => {
      if (this.notes.policy.isQuarantined(entry.path)) blockers.push(entry.path);
      else if (entry instanceof TFolder) entry.children.forEach(visit);
      else if (!(entry instanceof TFile) || entry.extension !== 'md') return;
      else if (!this.notes.policy.canRead(entry, scope)) {
        if (this.notes.notesLinkingInto(entry).some((linker) => linker !== entry && this.notes.policy.canRead(linker, scope)))
          blockers.push(entry.path);
      } else if (this.notes.policy.accessOf(entry, scope) !== 'read-write') {
        blockers.push(entry.path);
        readOnly.push(entry.path);
      }
    };
    visit(folder);
    if (blockers.length > 0) throw new MoveBlockedError(message + readOnlyClause(readOnly), 'contents', blockers);
  }

  /**
   * Refuses a move whose link updates (Obsidian's `fileManager.renameFile` rewrites every
   * note linking to the moved entry) would change a note this key may not write: outside its
   * roots, quarantined, private to it, or read-only. A tool call never changes such a note,
   * link updates included. The message names only a read-only one the key reads ({@link readOnlyClause}; the error's `blockers` hold them all,
   * for the user: MoveBlockedError).
   * @throws MoveBlockedError (`links`).
   */
  private assertLinkersWritable(entry: TAbstractFile, scope: AccessScope): void {
    const linkers = this.notes
      .notesLinkingInto(entry)
      .filter(
        (file) =>
          file.extension !== 'md' || !this.notes.policy.canRead(file, scope) || this.notes.policy.accessOf(file, scope) !== 'read-write',
      );
    const blockers = linkers.map((file) => file.path);
    // Only notes the key may read are named: a hidden or quarantined linker's path is not the agent's to learn.
    const readOnly = linkers.filter((file) => file.extension === 'md' && this.notes.policy.canRead(file, scope)).map((file) => file.path);
    if (blockers.length > 0) {
      throw new MoveBlockedError(
        `Moving '${entry.path}' would update links in notes this key may not change${readOnlyClause(readOnly)}; leave it where it is, or ask the user to move it in Obsidian.`,
        'links',
        blockers,
      );
    }
  }

  /**
   * Refuses a move whose link updates would rewrite a note whose bytes are not UTF-8 (Obsidian
   * would save it with replacement characters, as any other write would: see assertUtf8Note).
   * Call after {@link assertLinkersWritable}: every linker is then a note the key may write,
   * so naming it reveals no hidden note; a key whose tool set lists no notes is not told its name
   * (ToolError.withheld).
   * @throws ToolError('invalid_argument') naming the note.
   */
  private async assertLinkersUtf8(entry: TAbstractFile): Promise<void> {
    for (const linker of this.notes.notesLinkingInto(entry)) {
      try {
        await assertUtf8Note(this.app.vault, linker);
      } catch (err) {
        if (!(err instanceof ToolError)) throw err;
        throw new ToolError(
          'invalid_argument',
          `Moving '${entry.path}' would rewrite links in '${linker.path}', which is not UTF-8 text, so the rewrite would corrupt it; nothing was changed. Ask the user to convert that note to UTF-8.`,
          undefined,
          withoutNames(`Moving '${entry.path}' would corrupt a linking note that is not UTF-8 text; nothing was changed`),
        );
      }
    }
  }

  /**
   * Refuses when anything occupies `path` (also a name equal to it ignoring case: a case twin)
   * or one of its ancestors is a file, whoever may see it, or when the disk, judged now, holds
   * anything there or a symbolic link on the way (NotePolicy.isFreeNow: a dangling link the vault
   * does not list, whose target a write would create): the same message for all, so private notes
   * and links cannot be probed.
   */
  /**
   * Throws ToolError('exists') naming the note at `path` when `scope` may read it, with `advice`: a key that sees the note
   * is told it is there (it was told only "taken or unavailable"); for any other entry {@link assertFree} answers.
   */
  private assertNoReadableNoteAt(path: string, scope: AccessScope, advice: string): void {
    const entry = this.notes.policy.entryAt(path);
    if (entry instanceof TFile && entry.extension === 'md' && this.notes.policy.canRead(entry, scope)) {
      throw new ToolError('exists', `A note is already at '${entry.path}'; ${advice}.`);
    }
  }

  private assertFree(path: string, verb: string): void {
    if (this.notes.policy.entryAt(path) || this.notes.policy.caseTwins(path).length > 0) throw takenError(verb);
    const segments = path.split('/');
    for (let n = 1; n < segments.length; n++) {
      const ancestor = this.notes.policy.entryAt(segments.slice(0, n).join('/'));
      if (ancestor && !(ancestor instanceof TFolder)) throw takenError(verb);
    }
    if (!this.notes.policy.isFreeNow(path)) throw takenError(verb);
  }

  /** Checks the names of the segments that do not exist yet (existing folders keep their names). */
  private assertNewSegmentsValid(path: string): void {
    const segments = path.split('/');
    for (let n = 1; n <= segments.length; n++) {
      if (!this.notes.policy.entryAt(segments.slice(0, n).join('/'))) assertValidName(segments[n - 1]);
    }
  }

  /**
   * Creates `path` and its missing ancestors with `vault.createFolder`. A segment the vault does
   * not list but the disk holds (`node_modules`, a folder link Obsidian ignores because it leads
   * to another vault folder: help.obsidian.md/symlinks) makes the path taken ({@link takenError}),
   * not an internal error, and nothing is created through it.
   */
  private async ensureFolder(path: string): Promise<void> {
    if (path === '') return;
    const segments = path.split('/');
    for (let n = 1; n <= segments.length; n++) {
      const prefix = segments.slice(0, n).join('/');
      const vault = this.app.vault;
      const entry = vault.getAbstractFileByPath(prefix);
      if (entry instanceof TFolder) continue;
      if (!entry)
        try {
          await vault.createFolder(prefix);
          continue;
        } catch (err) {
          if (vault.getAbstractFileByPath(prefix) instanceof TFolder) continue;
          if (!(await vault.adapter.exists(prefix))) throw err;
        }
      throw takenError('create a folder at');
    }
  }

  /**
   * The target as spelled (NotePolicy.spelledPath, `.md` added for notes), without the real
   * spelling of existing entries: tells a case-only rename from "already there". null when
   * the path does not normalize (normalizePath already reported that).
   */
  private spelledTarget(rawTo: string, isNote: boolean): string | null {
    try {
      const spelled = this.notes.policy.spelledPath(rawTo);
      return isNote ? withMarkdownExtension(spelled) : spelled;
    } catch {
      return null;
    }
  }
}

/**
 * The clause naming the read-only notes (for the key) behind a refused move: notes the key may
 * read, so naming them tells it nothing it could not list; hidden or quarantined ones are never
 * named (MoveBlockedError's `blockers` hold every one, for the user).
 * @param paths the read-only notes' vault paths. @returns ` ('A.md' is read-only for this key, and 2 more)`, or '' when none.
 */
function readOnlyClause(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const more = paths.length - 1;
  return ` (${quoteInput(paths[0])} is read-only for this key${more > 0 ? `, and ${more} more note${more === 1 ? '' : 's'}` : ''})`;
}
