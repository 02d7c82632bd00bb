import { TFile, TFolder, type App } from 'obsidian';
import { textEditOf, type TextRequest } from './request-edits';
import { ToolError } from '../../errors';
import type { AccessScope } from '../access/access';
import { appendInPlace } from './append-write';
import { EntryWriter } from './entry-writer';
import { assertWritableText, guardFrontmatter, parseFrontmatter } from './frontmatter/frontmatter-guard';
import { frontmatterId } from '../paths/note-ref';
import { hashText } from '../hash';
import { cacheMatchesText, nextIndexed } from '../index-freshness';
import type { NoteReader } from '../note-reader';
import type { NoteSection } from '../content/sections';
import { assertExpectedHash, assertNoNewNames, assertUtf8Note, byteSize, diskTextNow, placeCheck, writableNote } from './write-checks';
import { BaseChangedError, conflictError, keptChangingError, movedError, withFileSystemRefusals } from './write-errors';
import { WriteLock } from './write-lock';
import { AppliedChanges, type AppliedChange } from './applied-change';
import { foldPath } from '../paths/paths';
import { removeEmptyFolder } from './folder-removal';
import { minimalChange } from './edits/minimal-change';
import { checkWrittenText } from './written-text';
import { joinRemarks } from '../remarks';
import type { OpenNoteEditors } from './open-note-editors';
import {
  unchangedWrite,
  type ExactTextWrite,
  type HeldWrite,
  type HoldRule,
  type PreparedTextWrite,
  type PreparedWrite,
  type WriteRequest,
  type WriteResult,
} from './write-types';

/** How long a heading edit waits for Obsidian to index a note that just changed, ms. */
const INDEX_WAIT_MS = 3000;
/**
 * Milliseconds a note must have sat unchanged on disk before a metadata cache that still
 * disagrees with it is taken as settled (Obsidian indexes a changed note within a moment).
 */
const SETTLED_MS = 2 * INDEX_WAIT_MS;
/** How often force mode prepares a write again when the note changed between reading and writing. */
const APPLY_ATTEMPTS = 6;

/**
 * Every write of the write tools, in two steps: {@link prepare} validates a request against
 * the note as it is now (paths, access rules, expected_hash, anchors and headings, the
 * frontmatter guard) and computes the change as plain data; {@link applyPrepared} carries it
 * out through the Obsidian API only, if the note is still what it was prepared on: one
 * `vault.process` for every text change ({@link writeExactText}, the apply primitive that
 * proposals use too), `fileManager.renameFile` for moves, `vault.trash` for deletes. Force
 * mode ({@link apply}) prepares again when the note changed in between; propose mode stages a
 * prepared write instead of applying it.
 */
export class NoteWriter {
  private readonly lock = new WriteLock();
  /**
   * Whether this vault's writes keep a note's file on disk (same device and inode): learned at each
   * text write ({@link writeExactText}); null until one was seen. Obsidian's desktop adapter writes
   * in place, and so does the test host (`npm start`); an adapter that writes a new file and renames it over the note replaces it.
   */
  private keepsFiles: boolean | null = null;
  /** Queues force-mode writes per note, so writers in this process take turns instead of racing to retry. */
  private readonly queue = new WriteLock();
  private readonly entries: EntryWriter;

  /**
   * @param app the Obsidian app. @param notes the note store whose rules (paths, access) writes follow.
   * @param applied where every applied change is reported (the agent activity log listens there).
   * @param editors the editors of open notes (null in headless runs): a text write to an open
   *   note is computed on and applied to its editor's text, never to the file behind it.
   */
  constructor(
    private readonly app: App,
    private readonly notes: NoteReader,
    private readonly applied: AppliedChanges = new AppliedChanges(),
    private readonly editors: OpenNoteEditors | null = null,
  ) {
    const forDelete = editors && {
      textOf: (path: string) => editors.textOf(path),
      saveJudged: async (file: TFile) => void (await editors.saveNow(file.path, this.placeCheck(file))),
    };
    this.entries = new EntryWriter(app, notes, this.lock, forDelete);
  }

  /**
   * Validates `request` for `scope` and computes the change on the note's current text.
   * Nothing is written.
   * @param fresh read the note from disk (`vault.read`) instead of Obsidian's cached text:
   *   used when a write found the file newer than the cache.
   * @throws ToolError for anything the agent can fix: not_found (private notes included),
   *   forbidden (quarantine, roots, read-only, protected keys), conflict (expected_hash; a text
   *   change's note whose path on disk no longer holds the file it was checked on: {@link placeCheck}),
   *   ambiguous / not_found (anchor, heading), invalid_argument, exists; the file system's
   *   refusals (the note gone from disk, permissions) as tool errors (write-errors.ts).
   */
  async prepare(request: WriteRequest, scope: AccessScope, fresh = false): Promise<PreparedWrite> {
    return withFileSystemRefusals(`'${request.path}'`, () => this.prepareRequest(request, scope, fresh));
  }

  /** {@link prepare} without the file system error mapping. */
  private async prepareRequest(request: WriteRequest, scope: AccessScope, fresh: boolean): Promise<PreparedWrite> {
    // The agent's text is judged first: a refusal of it says nothing of the vault.
    const textRemark = checkWrittenText(request);
    switch (request.kind) {
      case 'create': {
        const prepared = this.entries.prepareCreate(request.tool, request.path, request.content, scope, request.restore);
        const note = joinRemarks(this.idClashRemark(prepared.path, null, prepared.proposedText, scope), textRemark);
        return note === '' ? prepared : { ...prepared, note };
      }
      case 'folder':
        return this.entries.prepareFolder(request.tool, request.path, scope);
      case 'move':
        return this.entries.prepareMove(request.tool, request.path, request.to, request.expectedHash, scope);
      case 'delete':
        return this.entries.prepareDelete(request.tool, request.path, request.expectedHash, scope, fresh);
      default:
        return this.prepareText(request, scope, fresh, textRemark);
    }
  }

  /**
   * Force mode: prepares `request` and writes it, preparing again (so the edit runs on the
   * newer text, with every check redone) when the note changed between reading and writing.
   * append_note without expected_hash on a note no editor shows is an append-mode write
   * instead (append-write.ts), so another program appending at the same time loses nothing;
   * whether an editor shows the note is asked again right before the append, and an editor
   * opened by then takes the append as an editor change (the user's unsaved typing its base).
   * With `hold`, a write that would create, change, move or delete a path the rule names
   * ({@link pathsChangedBy}) is prepared and checked but not applied: it comes back held, for
   * the caller to stage (write-gate.ts).
   * @returns what was done ({@link WriteResult}), or `{status: 'held', prepared}` ({@link HeldWrite}).
   * @throws what {@link prepare} throws; ToolError('conflict') when the note kept changing.
   */
  apply(request: WriteRequest, scope: AccessScope): Promise<WriteResult>;
  apply(request: WriteRequest, scope: AccessScope, hold: HoldRule): Promise<WriteResult | HeldWrite>;
  async apply(request: WriteRequest, scope: AccessScope, hold: HoldRule | null = null): Promise<WriteResult | HeldWrite> {
    if (request.kind === 'create' || request.kind === 'folder' || request.kind === 'move')
      return this.applyWithRetries(request, scope, hold);
    if (request.kind === 'delete') this.entries.assertNotFolder(request.path, scope);
    const file = writableNote(this.notes, request.path, scope);
    const checkedAt = file.path;
    const appendMode =
      request.kind === 'append' && request.expectedHash === undefined && !(hold !== null && this.withRealPath(file.path).some(hold));
    return this.queue.run(file, async () => {
      // Decided again right before the append (appendInPlace): an editor opened meanwhile takes the append as an editor change.
      if (appendMode && this.editors?.textOf(file.path) == null) {
        // The append's own route (no prepare): its text is judged here, as prepare judges every other write's.
        const textRemark = checkWrittenText(request);
        const appended = await this.appendToFile(file, checkedAt, request.content, request.ensureNewline, scope);
        if (appended !== null) return textRemark === undefined ? appended : { ...appended, note: joinRemarks(appended.note, textRemark) };
      }
      return this.applyWithRetries(request, scope, hold);
    });
  }

  /**
   * Every vault path a prepared write would create, change, move or delete, each also where it
   * really lies when a symbolic link inside the vault leads there (NotePolicy.realPathOf): the
   * note's, or the new folder's (create_folder); the folders a create or move makes on the way to
   * its path (`A/AGENTS.md/x.md` makes a folder `AGENTS.md`); a move's source and target, for a
   * folder its subfolders and every file inside it that `scope` may see, at both places and where
   * a link among them really lies, and the notes whose links Obsidian rewrites when it renames
   * (their text changes too). A file `scope` may not see moves with its folder unread and
   * unchanged (EntryWriter.assertFolderMovable), and is left out so the answer tells nothing of it.
   */
  pathsChangedBy(prepared: PreparedWrite, scope: AccessScope): string[] {
    if (prepared.kind !== 'move') return [...this.withRealPath(prepared.path), ...this.newFoldersAbove(prepared.path)];
    const paths = [...this.withRealPath(prepared.path), ...this.withRealPath(prepared.to)];
    const entry = this.app.vault.getAbstractFileByPath(prepared.path);
    if (!entry) return paths;
    // A moved folder's files lie below the folder's real places: derived, not resolved one by one on disk.
    const places = [...paths];
    paths.push(...this.newFoldersAbove(prepared.to));
    const walk = (folder: TFolder): void => {
      for (const child of folder.children) {
        if (child instanceof TFile && !this.notes.policy.canRead(child, scope)) continue;
        const rest = child.path.slice(prepared.path.length);
        for (const place of places) paths.push(`${place}${rest}`);
        // A link inside the folder (`D/rules.md → ../AGENTS.md`) lies elsewhere (cached: canRead asked already).
        const real = this.notes.policy.realPathOf(child.path);
        if (real !== null) paths.push(real);
        if (child instanceof TFolder) walk(child);
      }
    };
    if (entry instanceof TFolder) walk(entry);
    for (const linker of this.notes.notesLinkingInto(entry)) paths.push(...this.withRealPath(linker.path));
    return paths;
  }

  /** The folders above `path` that do not exist yet (nearest first), each with where it would really lie: a create or move makes them. */
  private newFoldersAbove(path: string): string[] {
    const folders: string[] = [];
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const folder = path.slice(0, slash);
      if (this.notes.policy.entryAt(folder) !== null) break;
      folders.push(...this.withRealPath(folder));
    }
    return folders;
  }

  /** `path`, and the vault path it really lies at when a symbolic link inside the vault leads there (NotePolicy.realPathOf). */
  private withRealPath(path: string): string[] {
    const real = this.notes.policy.realPathOf(path);
    return real === null || real === path ? [path] : [path, real];
  }

  /**
   * append_note without expected_hash on a note no editor shows: an append-mode write
   * (append-write.ts), under the same per-note lock as the apply primitive; reported as an
   * applied edit like every write (the agent's own text only, not another program's lines).
   * `checkedAt` is the path the note was resolved and checked at before the queue: a note renamed
   * or moved since (into a quarantined folder, out of the key's roots) is refused as moved, naming
   * only that path, and is checked again under the lock at that path.
   * @returns null when an editor shows the note by the time of the append (appendInPlace): nothing
   *   was appended, and the caller writes through the editor.
   */
  private appendToFile(
    file: TFile,
    checkedAt: string,
    content: string,
    ensureNewline: boolean,
    scope: AccessScope,
  ): Promise<WriteResult | null> {
    return this.lock.run(file, () =>
      withFileSystemRefusals(`'${checkedAt}'`, async () => {
        if (file.path !== checkedAt) throw movedError(checkedAt);
        const checked = writableNote(this.notes, checkedAt, scope);
        if (checked !== file) throw movedError(checkedAt);
        const inPlace = this.placeCheck(checked);
        inPlace();
        await assertUtf8Note(this.app.vault, checked);
        const appended = await appendInPlace(
          this.app,
          file,
          content,
          ensureNewline,
          scope,
          inPlace,
          () => this.editors?.textOf(file.path) != null,
        );
        if (appended === null) return null;
        const { result, before, after } = appended;
        const identity = await this.identityOnDisk(file.path);
        this.applied.report({ kind: 'edit', tool: 'append_note', path: file.path, before, after, ...identity }, scope);
        return result;
      }),
    );
  }

  /** {@link apply}'s loop: prepare (from disk after the first try), hold or write, again when the note changed. */
  private async applyWithRetries(request: WriteRequest, scope: AccessScope, hold: HoldRule | null): Promise<WriteResult | HeldWrite> {
    for (let attempt = 0; attempt < APPLY_ATTEMPTS; attempt++) {
      const prepared = await this.prepare(request, scope, attempt > 0);
      if (hold !== null && this.pathsChangedBy(prepared, scope).some(hold)) return { status: 'held', prepared };
      try {
        return await this.applyPrepared(prepared, scope);
      } catch (err) {
        if (!(err instanceof BaseChangedError)) throw err;
        if ('expectedHash' in request && request.expectedHash !== undefined) throw conflictError(prepared.path);
      }
    }
    throw keptChangingError(request.path);
  }

  /**
   * Writes a prepared change if the vault is still as it was prepared on, re-checking
   * expected_hash and the access rules at that moment.
   * @returns what was done ({@link WriteResult}).
   * @throws BaseChangedError when the note's text changed since prepare (nothing written);
   *   ToolError as {@link prepare} when the vault changed so the write is no longer allowed,
   *   or the file system refused (full disk, permissions, the note gone from disk).
   */
  async applyPrepared(prepared: PreparedWrite, scope: AccessScope): Promise<WriteResult> {
    switch (prepared.kind) {
      case 'edit':
      case 'properties': {
        const result = await this.writeExactText(
          {
            tool: prepared.tool,
            kind: prepared.kind,
            path: prepared.path,
            baseHash: prepared.baseHash,
            text: prepared.proposedText,
            lines: prepared.proposedLines,
          },
          scope,
        );
        return prepared.note === undefined ? result : { ...result, note: prepared.note };
      }
      default: {
        const result = await withFileSystemRefusals(`'${prepared.path}'`, () => this.entries.apply(prepared, scope));
        const identity = prepared.kind === 'create' || prepared.kind === 'move' ? await this.identityOnDisk(result.path) : {};
        this.applied.report(entryChange(prepared, result, identity), scope);
        return prepared.kind === 'create' && prepared.note !== undefined ? { ...result, note: prepared.note } : result;
      }
    }
  }

  /**
   * Removes the empty folder at `path` (to the trash, as deletes do), for undoing a logged
   * create_folder; reported as an applied change like every write.
   * @throws ToolError as folder-removal.ts's removeEmptyFolder.
   */
  async removeEmptyFolder(tool: string, path: string, scope: AccessScope): Promise<WriteResult> {
    const result = await this.lock.run(`create:${foldPath(path)}`, () => removeEmptyFolder(this.app, this.notes, path, scope));
    this.applied.report({ kind: 'folder', tool, path: result.path, removed: true }, scope);
    return result;
  }

  /**
   * The apply primitive: in one `vault.process`, writes `write.text` to the note at
   * `write.path` if the note's SHA-256 is still `write.baseHash` and its bytes on disk, read
   * again at that instant, are still that text ({@link diskTextNow}), after checking on that exact
   * text that `scope` may write it (`access`, `agent_overrides`) and that no protected
   * frontmatter key changes. Accepted proposals, reverts and force mode all apply through this. When the note
   * is open in an editor, the same checks run on the editor's text and the change is one
   * editor transaction (the editor saves it), so the user's unsaved typing is never lost:
   * `write.acceptedHunks` as they are (an accept), else one minimal change (an agent write). An
   * editor that opens while `vault.process` reads the file makes the write a BaseChangedError (its
   * callers read the note again, now from the editor), since that editor's save would write its
   * older text over the change.
   * @returns `{status: 'applied', path, hash, size_before, size_after, lines?}`; when `write.text`
   *   is the note's text already, nothing is written or logged: `{status: 'unchanged', path, hash,
   *   message}` (write-types.ts unchangedWrite).
   * @throws ToolError('not_found') when no note the key may write is at `path`;
   *   ToolError('forbidden') when it became read-only or a protected key would change;
   *   ToolError('invalid_argument') when its bytes are not UTF-8; BaseChangedError when its hash is no longer `baseHash` (nothing is written);
   *   the file system's refusals (full disk, permissions, the note gone from disk) as tool errors (write-errors.ts).
   */
  async writeExactText(write: ExactTextWrite, scope: AccessScope): Promise<WriteResult> {
    const file = writableNote(this.notes, write.path, scope);
    const inPlace = this.placeCheck(file);
    return this.lock.run(file, () =>
      withFileSystemRefusals(`'${file.path}'`, async () => {
        // Judged on the disk before anything is read through what stands at the path now.
        inPlace();
        await assertUtf8Note(this.app.vault, file);
        // Read before the editor's text, so no await lies between reading that text and changing it.
        const identityBefore = await this.identityOnDisk(file.path);
        const editorText = this.editors?.textOf(file.path) ?? null;
        if (editorText !== null) {
          // Judged again right before the change is put into the editor, and right before the editor is saved (at once, not in 2 s).
          inPlace();
          return await this.writeInEditor(file, write, editorText, scope, identityBefore, inPlace);
        }
        if (hashText(write.text) === write.baseHash) {
          // A write that changes nothing: nothing is written and nothing logged, once the note is still that text.
          const current = await this.app.vault.read(file);
          if (hashText(current) !== write.baseHash) throw new BaseChangedError(file.path);
          assertWritableText(current, scope, file.path);
          return unchangedWrite(file.path, write.baseHash);
        }
        const box: { before?: string } = {};
        const fileBefore = this.notes.policy.fileOf(file.path)?.id;
        await this.app.vault.process(file, (current) => {
          // The last instant before the vault writes (nothing else runs in the callback): a link swapped in since is not written through.
          inPlace();
          // An editor opened since the route was chosen holds this text as its base: its save would write it (and the typing) over the change.
          if (this.editors?.textOf(file.path) != null) throw new BaseChangedError(file.path);
          if (hashText(current) !== write.baseHash) throw new BaseChangedError(file.path);
          // Another program may have changed the file since the vault read it: compare with the bytes on disk now.
          const onDisk = diskTextNow(this.app.vault, file);
          if (onDisk !== null && onDisk !== current) throw new BaseChangedError(file.path);
          assertWritableText(current, scope, file.path);
          guardFrontmatter(current, write.text, file.path);
          box.before = current;
          return write.text;
        });
        // Whether this vault's writes keep a note's file (Obsidian's desktop adapter writes in place; an atomic one replaces it).
        const fileAfter = this.notes.policy.fileOf(file.path)?.id;
        if (fileBefore !== undefined && fileAfter !== undefined) this.keepsFiles = fileBefore === fileAfter;
        // After the write: where the file system keeps no creation time, the time read is that of the last change.
        const identity = await this.identityOnDisk(file.path);
        this.applied.report(
          {
            kind: write.kind ?? 'edit',
            tool: write.tool,
            path: file.path,
            before: box.before ?? '',
            after: write.text,
            ...identity,
          },
          scope,
        );
        return {
          status: 'applied',
          path: file.path,
          hash: hashText(write.text),
          size_before: byteSize(box.before ?? ''),
          size_after: byteSize(write.text),
          ...(write.lines ? { lines: write.lines } : {}),
        };
      }),
    );
  }

  /**
   * The disk check of a write that changes `file`'s content (write-checks.ts placeCheck): takes the
   * path the note was checked at and where the access checks just judged it to lie, with the file
   * there (NotePolicy.judgedPlace; call right after the note was resolved and checked), and returns
   * a check against them, to call right before anything is read or written through the path and
   * again at the last instant before the vault writes (inside the `vault.process` callback, right
   * before `vault.append`, right before a change is put into an open editor).
   * @returns the check; it throws ToolError('not_found') when the note was renamed or moved since,
   *   and ToolError('conflict') (replacedOnDiskError) when the entry at the note's path is no longer
   *   the file judged there (a symbolic link or another file swapped in by another program before
   *   the vault's event), so nothing is written.
   */
  private placeCheck(file: TFile): () => void {
    return placeCheck(this.notes.policy, file);
  }

  /**
   * {@link writeExactText} on a note open in an editor whose text is `current` (read with no await
   * since): the change is one editor transaction, and the editor is saved to the file at once,
   * `inPlace` judging the disk right before the save starts (OpenNoteEditors.applyChanges), not by
   * Obsidian's own save 2 s later, which nothing judges. `identity` is the note's identity on disk
   * read just before, for the log.
   * @throws BaseChangedError when the text is no longer `write.baseHash`'s or no editor shows the
   *   note any more; what `inPlace` throws (ToolError('conflict'), replacedOnDiskError) when the
   *   note's path no longer holds the file judged, and the save's file system error: then the
   *   change is taken back out of the editor and nothing is written or logged.
   */
  private async writeInEditor(
    file: TFile,
    write: ExactTextWrite,
    current: string,
    scope: AccessScope,
    identity: NoteIdentity,
    inPlace: () => void,
  ): Promise<WriteResult> {
    if (hashText(current) !== write.baseHash) throw new BaseChangedError(file.path);
    assertWritableText(current, scope, file.path);
    guardFrontmatter(current, write.text, file.path);
    const minimal = write.acceptedHunks ? null : minimalChange(current, write.text);
    const changes = write.acceptedHunks ?? (minimal ? [minimal] : []);
    if (changes.length && !(await this.editors?.applyChanges(file.path, changes, write.acceptedHunks ? 'accept' : 'agent-write', inPlace)))
      throw new BaseChangedError(file.path);
    if (current === write.text) return unchangedWrite(file.path, write.baseHash);
    this.applied.report(
      { kind: write.kind ?? 'edit', tool: write.tool, path: file.path, before: current, after: write.text, ...identity },
      scope,
    );
    return {
      status: 'applied',
      path: file.path,
      hash: hashText(write.text),
      size_before: byteSize(current),
      size_after: byteSize(write.text),
      ...(write.lines ? { lines: write.lines } : {}),
    };
  }

  /**
   * The checks of {@link writeExactText} without writing, for a change the editor itself
   * applies (a hunk the user accepted with its ✓, an undoable editor transaction): `scope` may write the note at `path`, judged on `current` (its text
   * now), and `next` changes no protected frontmatter key.
   * @throws ToolError('not_found') / ToolError('forbidden') as writeExactText.
   */
  checkExactText(path: string, current: string, next: string, scope: AccessScope): void {
    const file = writableNote(this.notes, path, scope);
    assertWritableText(current, scope, file.path);
    guardFrontmatter(current, next, file.path);
  }

  /**
   * The disk checks of {@link writeExactText} for a change the editor itself applied (a hunk
   * the user accepted with its ✓), then the save of that change: the entry at the path is still
   * the file it was checked on ({@link placeCheck}) and its bytes are UTF-8; then the note's
   * editors are saved to the file at once (OpenNoteEditors.saveNow), judged again right before
   * each save starts, instead of by Obsidian's own save 2 s later, which nothing judges. Runs
   * under the note's write lock, so no agent write to the note interleaves.
   * @throws ToolError('not_found') as writeExactText; ToolError('conflict') when a symbolic link
   *   or another entry was swapped in at the path, before or at the save (nothing is saved; the
   *   editor then reverts the change); ToolError('invalid_argument') saying the note is not UTF-8
   *   text; the save's file system error as a tool error (write-errors.ts).
   */
  async saveAcceptedInEditor(path: string, scope: AccessScope): Promise<void> {
    const file = writableNote(this.notes, path, scope);
    const inPlace = this.placeCheck(file);
    await this.lock.run(file, () =>
      withFileSystemRefusals(`'${file.path}'`, async () => {
        inPlace();
        await assertUtf8Note(this.app.vault, file);
        await this.editors?.saveNow(file.path, inPlace);
      }),
    );
  }

  /**
   * The note's text as {@link writeExactText} would change it, for a change about to be
   * computed on it: its open editor's document, else its text on disk now (`vault.read`, not the cache).
   * @throws ToolError('not_found') when `scope` may not write a note at `path`;
   *   ToolError('forbidden') when it is read-only for `scope`; ToolError('conflict') when the
   *   entry at its path on disk is no longer the file it was checked on ({@link placeCheck}:
   *   nothing is read through a link swapped in); the file system's refusals
   *   (the note gone from disk before Obsidian noticed: not_found) as tool errors.
   */
  async currentText(path: string, scope: AccessScope): Promise<string> {
    const file = writableNote(this.notes, path, scope);
    const editorText = this.editors?.textOf(file.path);
    if (editorText != null) return editorText;
    // Judged on the disk before the note is read through its path.
    this.placeCheck(file)();
    return withFileSystemRefusals(`'${file.path}'`, () => this.app.vault.read(file));
  }

  /**
   * What tells the note or folder at `path` apart on disk now, for the log: its creation time
   * (`vault.adapter.stat`, ms since the epoch; a write in place and a rename keep it, a file put
   * there anew has its own), the same read a revert makes ({@link noteCreated}, {@link folderCreated}),
   * so the two agree to the unit (falls back to the note's cached `TFile.stat.ctime` when the adapter
   * has no stat); and the inode of a note's file ({@link noteInode}) once this vault's writes are
   * seen to keep a note's file ({@link keepsFiles}): where they replace it, the next write would
   * change it, so it would tell nothing. Not checked against any key.
   * @returns the parts known (none when nothing is there).
   */
  private async identityOnDisk(path: string): Promise<NoteIdentity> {
    const entry = this.app.vault.getAbstractFileByPath(path);
    if (entry === null) return {};
    const disk = await this.app.vault.adapter.stat(entry.path).catch(() => null);
    const created =
      disk && disk.type === (entry instanceof TFile ? 'file' : 'folder') ? disk.ctime : entry instanceof TFile ? entry.stat.ctime : 0;
    const inode = entry instanceof TFile && this.keepsFiles === true ? this.noteInode(entry.path) : null;
    return { ...(created > 0 ? { created } : {}), ...(inode !== null ? { inode } : {}) };
  }

  /**
   * The inode of the note's file at `path` now (decimal, from NotePolicy.fileOf's `"<device>:<inode>"`,
   * links followed), for the log and for a revert to compare with the entry's `inode`: another file
   * there is another note, or the note written anew by a program that replaces files. The device is
   * left out: its number is given when the volume is mounted and may differ after a restart or on
   * another mount, while a file keeps its inode. Not checked against any key (the revert reads the
   * note with the key's checks first, {@link noteCreated}).
   * @returns null when it cannot be read (no desktop file system, no regular file there).
   */
  noteInode(path: string): string | null {
    const id = this.notes.policy.fileOf(path)?.id;
    return id === undefined ? null : id.slice(id.indexOf(':') + 1);
  }

  /**
   * The creation time of the note at `path` that `scope` may write, read from disk now
   * (`vault.adapter.stat`, ms since the epoch), so a revert can tell the note there now is the one
   * changed (activity/activity-revert.ts). Not `TFile.stat.ctime`: Obsidian refreshes that cached
   * stat only when the mtime or size change, so a file put there anew with the old ones (`cp -a`,
   * `touch -r` then a rename over it) would keep the old note's time. Falls back to the cached
   * time when the adapter has no stat for it.
   * @returns ms since the epoch; 0 when unknown.
   * @throws ToolError('not_found') / ToolError('forbidden') as {@link currentText}.
   */
  async noteCreated(path: string, scope: AccessScope): Promise<number> {
    const file = writableNote(this.notes, path, scope);
    const disk = await this.app.vault.adapter.stat(file.path).catch(() => null);
    return disk?.type === 'file' ? disk.ctime : file.stat.ctime;
  }

  /**
   * The creation time of the folder at `path`, read from disk now (`vault.adapter.stat`, ms since
   * the epoch; a rename keeps it), so a revert of a folder's move can tell the folder there now is
   * the one moved (activity/activity-revert.ts). Not checked against any key: the move back that
   * follows checks the key, and refuses a folder it may not change.
   * @returns ms since the epoch; 0 when the time is unknown; null when no folder is there.
   */
  async folderCreated(path: string): Promise<number | null> {
    const folder = this.app.vault.getAbstractFileByPath(path);
    if (!(folder instanceof TFolder)) return null;
    const disk = await this.app.vault.adapter.stat(folder.path).catch(() => null);
    return disk?.type === 'folder' && disk.ctime > 0 ? disk.ctime : 0;
  }

  /** The document of an editor showing the note at `path` (a vault path), or null when none is open. */
  openEditorText(path: string): string | null {
    return this.editors?.textOf(path) ?? null;
  }

  /**
   * prepare() for write_note, append_note, edit_note and set_properties: reads the note once
   * (its open editor's text when it has one; heading edits may take the newer text the index describes), checks expected_hash and the
   * access rules on that text, and runs the edit on it.
   * @param textRemark what checkWrittenText said of the agent's text, added to the result's `note`.
   */
  private async prepareText(request: TextRequest, scope: AccessScope, fresh: boolean, textRemark?: string): Promise<PreparedTextWrite> {
    const file = writableNote(this.notes, request.path, scope);
    // Judged on the disk before the note is read through its path (a staged proposal shows its base text too).
    this.placeCheck(file)();
    // Read again from disk (the vault's text was not the disk's): a file with other names may be a hard link swapped in.
    if (fresh && this.editors?.textOf(file.path) == null) assertNoNewNames(this.notes.policy, file.path);
    await assertUtf8Note(this.app.vault, file);
    let baseText = this.editors?.textOf(file.path) ?? (fresh ? await this.app.vault.read(file) : await this.notes.readRaw(file));
    assertExpectedHash(baseText, request.expectedHash, file.path);
    assertWritableText(baseText, scope, file.path);
    const { kind, edit, needsOutline } = textEditOf(request, file.path);
    let outline: NoteSection[] | null = null;
    if (needsOutline) {
      const indexed = await this.indexedOutline(file, baseText);
      if (indexed.text !== baseText) {
        assertExpectedHash(indexed.text, request.expectedHash, file.path);
        assertWritableText(indexed.text, scope, file.path);
      }
      ({ text: baseText, outline } = indexed);
    }
    const proposed = edit(baseText, outline);
    guardFrontmatter(baseText, proposed.text, file.path);
    const note = joinRemarks(proposed.note, this.idClashRemark(file.path, baseText, proposed.text, scope), textRemark);
    return {
      kind,
      tool: request.tool,
      path: file.path,
      expectedHash: request.expectedHash,
      baseText,
      baseHash: hashText(baseText),
      proposedText: proposed.text,
      proposedLines: proposed.lines,
      ...(note !== '' ? { note } : {}),
    };
  }

  /**
   * The remark for a write that gives the note at `path` a frontmatter `id` (note-ref.ts frontmatterId) that another note
   * `scope` may read already has: `read_note {id}` then answers that several notes use it. Only notes the key may read
   * are named (a hidden note's id is not revealed). The write is not refused: the user may be merging two notes.
   * @param before the note's text before the write (null for a new note). @param after its text after.
   * @returns a sentence naming the other note and what to do, or undefined when `after` sets no id, keeps the note's own,
   *   or the id is the note's alone.
   */
  idClashRemark(path: string, before: string | null, after: string, scope: AccessScope): string | undefined {
    const idOf = (text: string): string | null => {
      const parsed = parseFrontmatter(text);
      return parsed.state === 'ok' ? frontmatterId(parsed.data) : null;
    };
    const id = idOf(after);
    if (id === null || (before !== null && idOf(before) === id)) return undefined;
    const others = this.notes.readableNotes(scope).filter((f) => f.path !== path && frontmatterId(this.notes.frontmatterOf(f)) === id);
    if (others.length === 0) return undefined;
    const shown = others.slice(0, 3).map((f) => `'${f.path}'`);
    const named =
      others.length === 1
        ? `Another note, ${shown[0]}, has`
        : `${others.length} other notes (${shown.join(', ')}${others.length > 3 ? ', ...' : ''}) have`;
    return `${named} the id '${id}' too: read_note {id: '${id}'} will answer that several notes use it; give this note an id no other note has.`;
  }

  /**
   * The note's outline from the metadata cache (NoteStore.outline) together with the exact text
   * it describes. When the cache is behind `text`, waits for Obsidian to index the note; when
   * the note moved on meanwhile, continues with its newer text (so callers compare the
   * returned text, not the one they passed). A cache that still disagrees with the text after
   * Obsidian indexed that very text (a `changed` event carrying it), or after the note sat
   * unchanged on disk for {@link SETTLED_MS}, will not catch up by waiting: that is refused at
   * once with advice to edit by anchor, never an endless "retry".
   * @throws ToolError('unavailable') when the index does not catch up within INDEX_WAIT_MS
   *   (retry), or when the index disagrees with the settled text (use an anchor).
   */
  private async indexedOutline(file: TFile, text: string): Promise<{ text: string; outline: NoteSection[] }> {
    const deadline = Date.now() + INDEX_WAIT_MS;
    let current = text;
    let indexedFrom: string | null = null;
    while (!cacheMatchesText(this.app.metadataCache.getFileCache(file), current)) {
      if (indexedFrom === current) throw indexDisagrees(file.path);
      const remaining = deadline - Date.now();
      const indexed = remaining > 0 ? await nextIndexed(this.app.metadataCache, file, remaining) : null;
      if (indexed === null) {
        if (cacheMatchesText(this.app.metadataCache.getFileCache(file), current)) break;
        if (Date.now() - file.stat.mtime >= SETTLED_MS && current === (await this.app.vault.read(file))) throw indexDisagrees(file.path);
        throw new ToolError('unavailable', `Obsidian has not finished indexing '${file.path}' after its last change; retry in a moment.`);
      }
      indexedFrom = current = indexed;
    }
    return { text: current, outline: this.notes.outline(file, current) };
  }
}

/**
 * The refusal for a metadata cache that disagrees with the text it was built from: the
 * headings it lists are not where the text has them, so a heading edit cannot be placed.
 */
function indexDisagrees(path: string): ToolError {
  return new ToolError(
    'unavailable',
    `Obsidian's index of '${path}' does not match its text (a heading it lists is not a heading line of the text), so an edit by heading cannot be placed safely; edit with an anchor (a unique piece of the text, copied from read_note) instead.`,
  );
}

/** A note's (a folder's) identity on disk for the log: see NoteWriter.identityOnDisk. */
interface NoteIdentity {
  created?: number;
  inode?: string;
}

/** What an applied create, folder, move or delete changed, for {@link AppliedChanges}. */
function entryChange(prepared: Exclude<PreparedWrite, PreparedTextWrite>, result: WriteResult, ctime: NoteIdentity): AppliedChange {
  switch (prepared.kind) {
    case 'create':
      return { kind: 'create', tool: prepared.tool, path: result.path, after: prepared.proposedText, ...ctime };
    case 'delete':
      return {
        kind: 'delete',
        tool: prepared.tool,
        path: prepared.path,
        before: prepared.baseText,
        ...(prepared.notUtf8 ? { notUtf8: true } : {}),
      };
    case 'move':
      return {
        kind: 'move',
        tool: prepared.tool,
        from: prepared.path,
        path: result.path,
        folder: prepared.folder,
        linkers: prepared.linkersRewritten ?? [],
        ...ctime,
      };
    case 'folder':
      return { kind: 'folder', tool: prepared.tool, path: result.path };
  }
}
