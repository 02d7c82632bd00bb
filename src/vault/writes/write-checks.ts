import { readFileSync } from 'node:fs';
import { FileSystemAdapter, type TAbstractFile, type TFile, type Vault } from 'obsidian';
import { ToolError } from '../../errors';
import type { AccessScope } from '../access/access';
import { noteNotFound, readOnlyError } from './frontmatter/frontmatter-guard';
import { hashText } from '../hash';
import { conflictError, movedError, replacedOnDiskError } from './write-errors';
import type { NoteReader, WritePolicy } from '../note-reader';

/**
 * Checks shared by every write: finding a note the key may change, that it is still where it
 * was found, `expected_hash` conflicts, and the byte sizes results report.
 */

/**
 * The Markdown note at `path` that `scope` may write. Resolution is NotePolicy.resolveNote's
 * (so private notes, quarantine and roots behave as there); then the note's `access` and
 * `agent_overrides` must allow writing.
 * @throws what resolveNote throws; ToolError('forbidden') naming the property when the note is
 *   read-only for this key.
 */
export function writableNote(notes: NoteReader, path: string, scope: AccessScope): TFile {
  const file = notes.policy.resolveNote({ path }, scope);
  if (notes.policy.accessOf(file, scope) !== 'read-write') throw readOnlyError(file.path, notes.policy.rulesFrontmatter(file), scope.label);
  return file;
}

/**
 * Checks, just before applying a prepared write, that `entry` (a note or folder) is still in
 * the vault at `path`, the path it was resolved to (`vault.getAbstractFileByPath`).
 * @throws ToolError('not_found') when it was deleted or moved since.
 */
export function assertStillAt(vault: Vault, entry: TAbstractFile, path: string): void {
  if (entry.path !== path || vault.getAbstractFileByPath(path) !== entry) throw noteNotFound(path);
}

/**
 * The disk check of every route that reads, changes, trashes or renames an existing note's file
 * (text writes, append, delete, move and the notes whose links a move rewrites): takes, right
 * after the note was resolved and checked, the path it was checked at and where the access checks
 * judged it to lie with the file there (NotePolicy.judgedPlace), and returns a check to call right
 * before anything is read through the path and again at the last instant before the route acts
 * (inside the `vault.process` callback, right before `vault.append`, `vault.trash` or
 * `fileManager.renameFile`).
 * @param policy the note policy. @param file the note, just resolved and checked.
 * @returns the check. It throws ToolError('not_found') (movedError) when the note was renamed or
 *   moved in the vault since (its new place may be one the key may not see; verifier s30 F8), and
 *   ToolError('conflict') (replacedOnDiskError) when the entry at its path on disk is no longer the
 *   file it was judged to be: a symbolic link or another file swapped in by another program before
 *   the vault's event (NotePolicy.isWhereJudgedNow). Nothing is read or done then.
 */
export function placeCheck(policy: WritePolicy, file: TFile): () => void {
  const path = file.path;
  const judged = policy.judgedPlace(path);
  return () => {
    if (file.path !== path) throw movedError(path);
    if (!policy.isWhereJudgedNow(path, judged)) throw replacedOnDiskError(path);
  };
}

/**
 * Refuses a note that is read again from disk because its text there is not what the vault last
 * reported (force mode's retry: another program changed it before the vault's event) while its
 * file has more than one name (`nlink` above 1, NotePolicy.fileOf): another program may have
 * swapped it for a hard link of a quarantined note or of a file outside the vault (`ln
 * Journal/h.md tmp && mv tmp H.md`), whose other names cannot be found to be judged, and the retry
 * would compute and log the change on that file's text (verifier s30 F10). Once the vault reports
 * the change, a hard link is judged where it lies (docs/security.md).
 * @param policy the note policy. @param path the note's vault path.
 * @throws ToolError('conflict') (replacedOnDiskError) naming what to do.
 */
export function assertNoNewNames(policy: WritePolicy, path: string): void {
  if ((policy.fileOf(path)?.links ?? 1) > 1) throw replacedOnDiskError(path);
}

/**
 * Refuses when `expectedHash` is given and differs from the hash of `text` (hex compared
 * ignoring case and surrounding spaces).
 * @throws ToolError('conflict') telling the agent to read the note again.
 */
export function assertExpectedHash(text: string, expectedHash: string | undefined, notePath: string): void {
  if (expectedHash === undefined) return;
  const actual = hashText(text);
  if (expectedHash.trim().toLowerCase() !== actual) throw conflictError(notePath);
}

/** UTF-8 size of a text, bytes (what `file.stat.size` reports for a saved note). */
export function byteSize(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Refuses to change a note whose bytes on disk are not UTF-8 (Latin-1, UTF-16 with its BOM,
 * binary data named `.md`): Obsidian reads such a file with replacement characters, so any
 * write would save those instead of the original bytes. Reads the raw bytes with
 * `vault.readBinary` (only when a write is prepared or applied, never on a plain read) and
 * checks they decode as strict UTF-8 (a UTF-8 BOM is fine).
 * @throws ToolError('invalid_argument') saying the note is not UTF-8 and nothing was changed.
 */
export async function assertUtf8Note(vault: Vault, file: TFile): Promise<void> {
  const bytes = new Uint8Array(await vault.readBinary(file));
  if (!isUtf8(bytes)) {
    const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
    throw new ToolError(
      'invalid_argument',
      `Note '${file.path}' is not UTF-8 text (${utf16 ? 'it is UTF-16' : 'its bytes are another encoding or binary data'}), so a write would corrupt it; nothing was changed. Ask the user to convert it to UTF-8.`,
    );
  }
}

/** Whether `bytes` decode as strict UTF-8 (a UTF-8 BOM is fine). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The note's text on disk at this instant, read synchronously (desktop FileSystemAdapter,
 * `fs.readFileSync` as UTF-8), for the last comparison before a write: inside a
 * `vault.process` callback nothing else in this process runs until the callback returns, so
 * this narrows the window in which another program's change would be overwritten to the
 * vault's own write.
 * @returns the text, or null when the vault has no disk paths or the read fails (the caller
 *   then relies on the text `vault.process` gave it).
 */
export function diskTextNow(vault: Vault, file: TFile): string | null {
  const adapter = vault.adapter;
  if (!(adapter instanceof FileSystemAdapter)) return null;
  try {
    return readFileSync(adapter.getFullPath(file.path), 'utf8');
  } catch {
    return null;
  }
}
