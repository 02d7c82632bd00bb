/**
 * Agent-written text made safe to show a person: every character a terminal or a text
 * layout would act on instead of showing (C0 controls but tab and line feed, DEL, C1 controls
 * such as U+009B CSI, the bidirectional embeddings, overrides and isolates of Unicode TR9
 * U+202A–U+202E / U+2066–U+2069 ("Trojan Source"), and the line and paragraph separators
 * U+2028 / U+2029) is written out visibly, and so is every character a layout draws as nothing
 * (Unicode's format characters, category Cf: zero-width space and joiners, the byte order mark,
 * the tag characters U+E0000–U+E007F that can carry a hidden copy of ASCII text; and the
 * variation selectors, which can too), so what the review shows is what an accept writes. The
 * joiner and the emoji presentation selectors that build an emoji stay as they are where they do
 * (`❤️`, `👩‍💻`). Pure string work.
 */

/** The characters {@link visibleText} writes out, unless {@link buildsEmoji} says they are part of an emoji. */
const ACTED_ON =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\p{Cf}\u{fe00}-\u{fe0f}\u{e0100}-\u{e01ef}]/u;
/** A character an emoji is built of (Unicode's Extended_Pictographic). */
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const ZWJ = '\u200d';
/** The text and emoji presentation selectors (VS15, VS16). */
const PRESENTATION = /[\ufe0e\ufe0f]/;

/**
 * True when the format character or selector `chars[i]` is part of an emoji as drawn: a
 * presentation selector right after a pictographic character, or a zero-width joiner between
 * two (`👩‍💻`; the first may carry its selector: `❤️‍🔥`). Anything else that draws as nothing is
 * written out.
 */
function buildsEmoji(chars: readonly string[], i: number): boolean {
  const before = chars[i - 1] ?? '';
  if (PRESENTATION.test(chars[i])) return PICTOGRAPHIC.test(before);
  if (chars[i] !== ZWJ) return false;
  const base = PRESENTATION.test(before) ? (chars[i - 2] ?? '') : before;
  return PICTOGRAPHIC.test(base) && PICTOGRAPHIC.test(chars[i + 1] ?? '');
}

/** How the character `chars[i]` is shown: itself, or written out (`\r`, `\xNN`, `<U+XXXX>`). */
function shownAt(chars: readonly string[], i: number): string {
  const c = chars[i];
  if (!ACTED_ON.test(c) || buildsEmoji(chars, i)) return c;
  const code = c.codePointAt(0) as number;
  if (c === '\r') return '\\r';
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `text` with each character a terminal or a layout would act on, or draw as nothing, written
 * out: `\r` for a carriage return, `\xNN` for the other ASCII controls (ESC is `\x1b`), `<U+XXXX>`
 * for the C1 controls, bidi controls, separators, format characters and variation selectors; tabs
 * and line feeds stay as they are, and so do the joiners and selectors of an emoji.
 * @returns the same string when there is nothing to write out.
 */
export function visibleText(text: string): string {
  if (!/[^\t\n\u0020-\u007e\u00a0-\u00ac\u00ae-\u05ff]/.test(text)) return text;
  const chars = [...text];
  return chars.map((_, i) => shownAt(chars, i)).join('');
}

/**
 * {@link visibleText} of `line` cut into pieces of at most `width` chars (never inside a written-out
 * character or a surrogate pair), so a long line is shown whole over several lines.
 * @returns at least one piece ('' for an empty line).
 */
export function visiblePieces(line: string, width: number): string[] {
  const whole = visibleText(line);
  if (whole.length <= width) return [whole];
  const chars = [...line];
  const pieces: string[] = [];
  let piece = '';
  for (let i = 0; i < chars.length; i++) {
    const shown = shownAt(chars, i);
    if (piece.length > 0 && piece.length + shown.length > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += shown;
  }
  pieces.push(piece);
  return pieces;
}
