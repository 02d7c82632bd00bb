/**
 * Where a run of like characters at the end of a text starts, found in one backward pass. A
 * regex anchored only at the end (`/[. ]+$/`, `/\s+#+$/`, `/(?:\r?\n[ \t]*)*$/`) is tried from
 * every start position and retries the whole run from each: quadratic, seconds of a held event
 * loop on a note line of tens of thousands of spaces (newcomer finding, session 39).
 */

/**
 * The index where the run of characters `inRun` accepts, ending at `end`, starts (`end` when the
 * character before `end` is not in it).
 * @param text the text. @param inRun true for a character (one UTF-16 unit) of the run.
 * @param end where the run must end (default: the text's end)
 */
export function trailingRunStart(text: string, inRun: (unit: string) => boolean, end = text.length): number {
  let start = end;
  while (start > 0 && inRun(text[start - 1])) start--;
  return start;
}

/** A space or a tab. */
const isSpaceOrTab = (unit: string): boolean => unit === ' ' || unit === '\t';

/**
 * The blank lines that end `text`: its longest suffix of line breaks (`\n` or `\r\n`) each
 * followed by spaces and tabs only, as `/(?:\r?\n[ \t]*)*$/` matches it (empty when the text does
 * not end so), in linear time.
 */
export function trailingBlankLines(text: string): string {
  let start = text.length;
  for (;;) {
    const lineStart = trailingRunStart(text, isSpaceOrTab, start);
    if (lineStart === 0 || text[lineStart - 1] !== '\n') break;
    start = lineStart > 1 && text[lineStart - 2] === '\r' ? lineStart - 2 : lineStart - 1;
  }
  return text.slice(start);
}
