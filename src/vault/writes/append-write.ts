import type { App, TFile } from 'obsidian';
import { ToolError } from '../../errors';
import type { AccessScope } from '../access/access';
import { editAsCrNote, lfView } from '../content/text/line-endings';
import { hashText } from '../hash';
import { assertWritableText, guardFrontmatter } from './frontmatter/frontmatter-guard';
import { appendedText, appendSeparator, insertedLines, lineEndingOf, withLineEnding } from './edits/text-edits';
import { byteSize, diskTextNow } from './write-checks';
import type { WriteResult } from './write-types';

/**
 * append_note without expected_hash: an append-mode write (`vault.append`), which another
 * program appending to the same file at the same time cannot clobber and is not clobbered
 * by, unlike a whole-file rewrite (`vault.process` reads, then replaces the file: a line
 * another program appends in between is lost). The checks run on the note's bytes on disk
 * read synchronously just before the append (`diskTextNow`, else `vault.read`): the key
 * may write it (`access`, `agent_overrides`), the appended text changes no protected
 * frontmatter key, and the separating / final line break is decided on that text
 * (text-edits.ts `appendedText`).
 * The entry at the note's path is judged on the disk before it is read and again right before
 * the append (`inPlace`, NoteWriter's placeCheck): the adapter appends through a symbolic link,
 * so a link another program swapped in before the vault's event is never appended to.
 * @param file a note `scope` may write (writableNote), UTF-8 checked by the caller.
 * @param inPlace throws when the entry at the note's path is no longer the file the write was
 *   checked on (NotePolicy.isWhereJudgedNow); nothing is appended then.
 * @param editorShows whether an editor shows the note now: asked right before the append, with no
 *   await between the two, as the apply primitive decides its route (NoteWriter.writeExactText). An
 *   editor opened since the caller chose this route holds the older text as its base, and its save
 *   would write that text (and the user's typing) over the appended lines: then nothing is appended.
 * @returns null when an editor shows the note by then (nothing appended: the caller writes through
 *   the editor instead); else `result`, `{status: 'applied', path, hash, size_before, size_after, lines}`: `hash`
 *   and `size_after` are of the note as read right after the append (another program's lines
 *   included), `lines` where the appended text landed in it; and the agent's own change as
 *   `before` (the note's text the append was decided on) and `after` (`before` + the appended
 *   text, without another program's lines), for the activity log.
 * @throws ToolError('invalid_argument') for empty content (nothing to append);
 *   ToolError('forbidden') as assertWritableText / guardFrontmatter; what `inPlace` throws; the file system's errors as they come
 *   (the caller maps them, write-errors.ts).
 */
export async function appendInPlace(
  app: App,
  file: TFile,
  content: string,
  ensureNewline: boolean,
  scope: AccessScope,
  inPlace: () => void,
  editorShows: () => boolean,
): Promise<{ result: WriteResult; before: string; after: string } | null> {
  assertAppendable(content, file.path);
  inPlace();
  const read = await app.vault.read(file);
  const before = diskTextNow(app.vault, file) ?? read;
  assertWritableText(before, scope, file.path);
  // A note whose lines end in `\r` alone: decided on its LF view, the appended text in `\r` too.
  const insert = editAsCrNote(before, (view) => ({ text: view + appendedText(view, content, ensureNewline) })).text.slice(before.length);
  guardFrontmatter(before, before + insert, file.path);
  inPlace();
  if (editorShows()) return null;
  await app.vault.append(file, insert);
  const after = await app.vault.read(file);
  const found = after.lastIndexOf(insert);
  const at = found >= before.length ? found : before.length;
  const view = lfView(before);
  const lead = appendSeparator(view, withLineEnding(content, lineEndingOf(view)), ensureNewline).length;
  const result: WriteResult = {
    status: 'applied',
    path: file.path,
    hash: hashText(after),
    size_before: byteSize(before),
    size_after: byteSize(after),
    lines: insertedLines(
      lfView(after),
      Math.min(at + lead, after.length),
      Math.max(0, Math.min(insert.length - lead, after.length - at - lead)),
    ),
  };
  return { result, before, after: before + insert };
}

/**
 * Refuses an append of nothing visible, in every mode: empty content, or whitespace, line
 * breaks and characters drawn as nothing (zero-width and bidi marks) alone (a staged append of
 * either would show as a hunk whose two sides look the same, and an applied one adds only blank
 * or invisible lines).
 * @throws ToolError('invalid_argument') naming what the content held.
 */
export function assertAppendable(content: string, notePath: string): void {
  if (content === '')
    throw new ToolError('invalid_argument', `content is empty, so there is nothing to append to '${notePath}'; pass the text to add.`);
  if (NOTHING_VISIBLE.test(content))
    throw new ToolError(
      'invalid_argument',
      `content holds only whitespace or characters drawn as nothing ("${spelledOut(content)}"), so appending it to '${notePath}' adds no text; pass the text to add (line breaks before it go in the same content).`,
    );
}

/** Whitespace and format characters alone (spaces, line breaks, U+00A0, U+3000, U+2028, zero-width and bidi marks, a BOM). */
const NOTHING_VISIBLE = /^[\s\p{Cf}]*$/u;

/** Text of whitespace and invisible characters written out, at most 20 of them: a space as itself, `\n`, `\t`, `\r`, else `<U+XXXX>`. */
function spelledOut(text: string): string {
  const chars = [...text];
  const shown = chars.slice(0, 20).map((ch) => {
    if (ch === ' ') return ' ';
    if (ch === '\n') return '\\n';
    if (ch === '\t') return '\\t';
    if (ch === '\r') return '\\r';
    return `<U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
  });
  return shown.join('') + (chars.length > 20 ? '…' : '');
}
