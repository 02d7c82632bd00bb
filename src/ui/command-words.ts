/**
 * The words of a typed terminal command (the standard input of `npm start`, the review and
 * activity commands): one parser for the free text that ends a command, such as a key label
 * (`accept all key "npm start"`, `revert key "Cursor"`) or a note path (`reject all note Inbox`).
 */

/**
 * The text of `line` after its first `count` words, as typed: inner spaces kept (a label may
 * hold two spaces), the ends trimmed, one pair of matching surrounding quotes (`"…"` or `'…'`)
 * taken off, so `key "npm start"`, `key 'npm start'` and `key npm start` name the same key.
 * @param line the command line as typed. @param count the words before the text (e.g. 3 for `accept all key`).
 * @returns the text, '' when there is none (an empty pair of quotes gives '' too).
 */
export function trailingArgument(line: string, count: number): string {
  let rest = line.trim();
  for (let i = 0; i < count; i++) rest = rest.replace(/^\S+\s*/, '');
  return /^(["']).*\1$/s.test(rest) && rest.length >= 2 ? rest.slice(1, -1) : rest;
}
