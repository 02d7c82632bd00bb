/**
 * Agent-written text made safe to show a person: every character a terminal or a text
 * layout would act on instead of showing (C0 controls but tab and line feed, DEL, C1 controls
 * such as U+009B CSI, the bidirectional embeddings, overrides and isolates of Unicode TR9
 * U+202A–U+202E / U+2066–U+2069 ("Trojan Source"), and the line and paragraph separators
 * U+2028 / U+2029) is written out visibly, so what the review shows is what an accept writes.
 * Pure string work.
 */

/** The characters {@link visibleText} writes out. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with each character a terminal or a layout would act on written out: `\r` for a
 * carriage return, `\xNN` for the other ASCII controls (ESC is `\x1b`), `<U+XXXX>` for the
 * C1 controls, bidi controls and separators; tabs and line feeds stay as they are.
 * @returns the same string when there is nothing to write out.
 */
export function visibleText(text: string): string {
  return text.replace(ACTED_ON, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\r') return '\\r';
    if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

/**
 * {@link visibleText} of `line` cut into pieces of at most `width` chars (never inside a written-out
 * character or a surrogate pair), so a long line is shown whole over several lines.
 * @returns at least one piece ('' for an empty line).
 */
export function visiblePieces(line: string, width: number): string[] {
  const whole = visibleText(line);
  if (whole.length <= width) return [whole];
  const pieces: string[] = [];
  let piece = '';
  for (const ch of line) {
    const shown = visibleText(ch);
    if (piece.length > 0 && piece.length + shown.length > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += shown;
  }
  pieces.push(piece);
  return pieces;
}
