import { readFileSync } from 'node:fs';
import { FileSystemAdapter, type TAbstractFile, type TFile, type Vault } from 'obsidian';
import { ToolError } from '../../errors';
import type { AccessScope } from '../access/access';
import { noteNotFound, readOnlyError } from './frontmatter/frontmatter-guard';
import { hashText } from '../hash';
import { conflictError } from './write-errors';
import type { NoteReader } from '../note-reader';

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
