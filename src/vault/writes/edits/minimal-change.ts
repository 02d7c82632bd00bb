import type { TextChange } from '../open-note-editors';

/**
 * The one replacement that turns `before` into `after`: their common start and end kept, the
 * middle replaced (offsets in UTF-16 code units, as CodeMirror's).
 * @returns null when the texts are equal.
 */
export function minimalChange(before: string, after: string): TextChange | null {
  if (before === after) return null;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}
