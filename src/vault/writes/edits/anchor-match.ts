/**
 * How `edit_note` finds an anchor in a note, with plain string search (no RegExp built from
 * the anchor, so an anchor of any length or content is only text): a line break in the anchor
 * (`\n`, `\r\n` or `\r`) matches one line break of the note (`\n` or `\r\n`), everything else
 * matches exactly, and overlapping occurrences count. A note's lone `\r` is not a line break
 * here. Offsets are chars (UTF-16 code units) of the note's text.
 */

/** A char range `[from, to)` of the note's text. */
export interface TextRange {
  from: number;
  to: number;
}

/** Whitespace as a JavaScript RegExp's `\s` reads it (ECMA-262 WhiteSpace and LineTerminator). */
const WHITESPACE = /\s/;

/**
 * The first `limit` occurrences of `anchor` in `text`, overlapping ones included, in text order.
 * An occurrence that starts with a line break starts at the `\r` of a `\r\n` (the `\n` alone is
 * not a second occurrence). The limit bounds the work: each overlapping occurrence is compared
 * char by char, so a long anchor over a long run of one char (500k chars of `a` in a 1 MB note
 * of `a`) would be hundreds of billions of comparisons if all were counted.
 * @param anchor non-empty text; its line breaks match `\n` or `\r\n`
 * @param limit most occurrences returned (default: all)
 * @returns the char ranges in `text`
 */
export function anchorOccurrences(text: string, anchor: string, limit = Infinity): TextRange[] {
  const lines = crlfAsLf(text);
  const needle = anchor.replace(/\r\n|\r/g, '\n');
  const out: TextRange[] = [];
  for (let at = lines.text.indexOf(needle); at >= 0 && out.length < limit; at = lines.text.indexOf(needle, at + 1)) {
    out.push({ from: lines.textOffset(at), to: lines.textOffset(at + needle.length) });
  }
  return out;
}

/**
 * Up to `limit` places where `anchor` occurs when case and spacing are ignored: its
 * whitespace-separated words in order, any run of whitespace between them, each char compared
 * by its lower case (one UTF-16 unit to one). For the hint of a missing anchor.
 * @returns the char ranges in `text`, in text order ([] for an anchor of whitespace only)
 */
export function looseOccurrences(text: string, anchor: string, limit: number): TextRange[] {
  const needle = folded(anchor.trim()).text;
  if (needle === '') return [];
  const hay = folded(text);
  const out: TextRange[] = [];
  for (let at = hay.text.indexOf(needle); at >= 0 && out.length < limit; at = hay.text.indexOf(needle, at + 1)) {
    out.push({ from: hay.offsets[at], to: hay.offsets[at + needle.length - 1] + 1 });
  }
  return out;
}

/**
 * `text` with each `\r\n` as one `\n`, and the way back: `textOffset(i)` is the offset in
 * `text` of offset `i` of the shortened text (the `\r` for a `\n` that was a `\r\n`).
 */
function crlfAsLf(text: string): { text: string; textOffset(offset: number): number } {
  if (!text.includes('\r\n')) return { text, textOffset: (offset) => offset };
  // Offsets in the shortened text of the `\n`s that stand for a `\r\n`, ascending.
  const joined: number[] = [];
  for (let at = text.indexOf('\r\n'); at >= 0; at = text.indexOf('\r\n', at + 2)) joined.push(at - joined.length);
  return {
    text: text.replace(/\r\n/g, '\n'),
    textOffset(offset) {
      let low = 0;
      let high = joined.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (joined[mid] < offset) low = mid + 1;
        else high = mid;
      }
      return offset + low;
    },
  };
}

/**
 * `text` with every run of whitespace as one space and every char in lower case (when that is
 * one UTF-16 unit), plus where each char of the result came from in `text`.
 */
function folded(text: string): { text: string; offsets: number[] } {
  const chars: string[] = [];
  const offsets: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const space = WHITESPACE.test(ch);
    if (!space || !inSpace) {
      const lower = ch.toLowerCase();
      chars.push(space ? ' ' : lower.length === 1 ? lower : ch);
      offsets.push(i);
    }
    inSpace = space;
  }
  return { text: chars.join(''), offsets };
}
