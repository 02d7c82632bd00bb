/**
 * A note saved as UTF-16 (Windows PowerShell 5.1's `Out-File` and `>`, Notepad's "Unicode"), as
 * the vault reads it: the app decodes every note as UTF-8, so a byte-order mark becomes two
 * U+FFFD and each ASCII character comes with a U+0000 beside it (`-\0-\0-\0` for `---` in UTF-16LE,
 * `\0-\0-\0-` in UTF-16BE). The metadata cache then sees no frontmatter, yet the file's own
 * `access: private` is plain to a reader who drops the NULs, and an agent could read the note.
 * Access rules are therefore read from such a text with the NULs and the mark dropped
 * ({@link rulesTextOf}); the note itself is served as the app reads it.
 */

/** Two U+FFFD: a UTF-16 byte-order mark (FF FE or FE FF) decoded as UTF-8. */
const UTF16_MARK_AS_UTF8 = '\uFFFD\uFFFD';

/** Three characters each followed (little-endian) or preceded (big-endian) by a NUL: ASCII text in UTF-16 read as UTF-8. */
const UTF16_ASCII_START = /^(?:[^\0]\0){3}|^(?:\0[^\0]){3}/;

/**
 * The text a note's access rules are read from: `text` itself, or for a note saved as UTF-16 and
 * read as UTF-8 (starting, after the mark if any, with three characters in UTF-16's NUL pattern)
 * the same text with the mark and every U+0000 dropped, which gives back its ASCII (its frontmatter
 * lines and rule keys; other characters stay U+FFFD). A UTF-8 Markdown note never starts so.
 * @param text a note's whole text as read (UTF-8 decoded)
 * @returns the text to read the rules from (the same string when it is not UTF-16)
 */
export function rulesTextOf(text: string): string {
  const body = text.startsWith(UTF16_MARK_AS_UTF8) ? text.slice(UTF16_MARK_AS_UTF8.length) : text;
  return UTF16_ASCII_START.test(body) ? body.replaceAll('\0', '') : text;
}
