import { getFrontMatterInfo, type FrontMatterInfo } from 'obsidian';

/**
 * Lone carriage returns (old Mac files, `\r` alone ending each line) are line breaks, as
 * CommonMark defines a line ending (`\n`, `\r\n`, or a `\r` not followed by `\n`) and as the
 * editor Obsidian is built on splits a document (CodeMirror 6 `EditorState`: lines split at
 * `/\r\n?|\n/`), so such a note shows its lines, headings and properties in Obsidian. The text
 * code here is written for `\n` and `\r\n`; these helpers let it read a `\r` note the same way
 * without moving any offset (each lone `\r` stands in for one `\n`, one char for one char).
 */

/**
 * `text` with each lone `\r` (one not followed by `\n`) turned into `\n`; `\r\n` stays. Same
 * length as `text`, so every offset into it is an offset into `text`. Never throws.
 */
export function lfView(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/**
 * True when the note's lines end in `\r` alone: the text holds a `\r` and no `\n` at all.
 * Writes to such a note are decided on its {@link lfView} and turned back
 * ({@link editAsCrNote}), so it keeps its line endings.
 */
export function isCrNote(text: string): boolean {
  return text.includes('\r') && !text.includes('\n');
}

/**
 * Obsidian's `getFrontMatterInfo` read on {@link lfView}`(text)`, so a note whose lines end in
 * `\r` alone has its frontmatter found like an LF one (its `access` rule included) whatever the
 * app's own function makes of lone `\r`. Offsets (`from`, `to`, `contentStart`) index `text`;
 * `frontmatter` is the block with its lone `\r` read as `\n` (CRLF kept). Never throws.
 */
export function frontMatterInfo(text: string): FrontMatterInfo {
  return getFrontMatterInfo(lfView(text));
}

/**
 * Runs a text edit written for `\n` / `\r\n` notes on a note whose lines end in `\r` alone:
 * `edit` gets the note's {@link lfView} (same offsets, so metadata-cache positions still
 * apply) and its resulting text has every `\n` turned back into `\r`, so the note keeps its
 * line endings (text going in takes them too). Any other note goes to `edit` as it is.
 * @param text the note's whole text. @param edit the edit; whatever else it returns is kept.
 * @returns what `edit` returns, with `text` in the note's line endings.
 */
export function editAsCrNote<R extends { text: string }>(text: string, edit: (text: string) => R): R {
  if (!isCrNote(text)) return edit(text);
  const result = edit(lfView(text));
  return { ...result, text: result.text.replace(/\r\n|\n/g, '\r') };
}
