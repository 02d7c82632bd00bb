/**
 * Hunks as lines of the note, for counting and showing them (proposal summaries, `show`, the
 * Pending view, the activity diff). Pure string work.
 */
import type { Hunk } from './types';

/**
 * True when `texts`, taken together, are those of a note whose lines end in `\r` alone: they
 * hold a `\r` and no `\n` (the rule by which the write tools edit such a note line by line,
 * vault/content/text/line-endings.ts isCrNote; a lone `\r` in a text that has `\n` is line content).
 * Checks each text without joining them (a normal note stops at its first `\n`).
 */
export function crLines(...texts: string[]): boolean {
  return texts.every((t) => !t.includes('\n')) && texts.some((t) => t.includes('\r'));
}

/** `text` with each `\r` as `\n` (same length, so offsets hold), for a text {@link crLines} says ends its lines in `\r`. */
export function lfLines(text: string): string {
  return text.replace(/\r/g, '\n');
}

/** A whole note's text (a created or deleted note) to split at `\n`: {@link lfLines} of it when {@link crLines}, else itself. */
export function noteLines(text: string): string {
  return crLines(text) ? lfLines(text) : text;
}

/**
 * A hunk's two sides as lines of the note. A hunk that starts at the end of a line without a
 * line break (the last line of a note with no final newline, diff/hunks.ts buildHunks) and
 * brings a break followed by lines starts those lines with that break: the break ends the line
 * before, so it is left out, and the hunk's lines start on the next line (`moved`). A side that
 * is the break alone (a change of the final line break, its own hunk) is kept as it is.
 * @param afterOpenLine true when the hunk starts right after a character other than `\n`.
 * @param removed the text the hunk takes away. @param inserted the text it puts there.
 * @returns both sides so cut, and whether either was (then the hunk's first line is one further).
 */
export function sidesAsLines(
  afterOpenLine: boolean,
  removed: string,
  inserted: string,
): { removed: string; inserted: string; moved: boolean } {
  const cut = (side: string): string => {
    const lead = /^\r?\n/.exec(side)?.[0];
    return afterOpenLine && lead !== undefined && side.length > lead.length ? side.slice(lead.length) : side;
  };
  const r = cut(removed);
  const i = cut(inserted);
  return { removed: r, inserted: i, moved: r !== removed || i !== inserted };
}

/**
 * A hunk as lines of the note ({@link sidesAsLines}): `alpha` → `alpha\nbeta` inserts `\nbeta`
 * after `alpha`: here that is `beta` added at line 2; `alpha\nbeta` → `alpha` is `beta` removed
 * at line 2. On a note whose lines end in `\r` alone (the base and the hunk's inserted text
 * hold a `\r` and no `\n`: {@link crLines}) each `\r` is a line break, so the sides come back
 * with `\n` breaks and the line counts them.
 * @param base the text the hunk's offsets refer to (its base). @param h the hunk.
 * @returns the 1-based line where its lines start, and its removed and inserted text so cut
 *   (line breaks as `\n` or `\r\n`).
 */
export function hunkAsLines(
  base: string,
  h: Pick<Hunk, 'from' | 'removed' | 'inserted'>,
): { line: number; removed: string; inserted: string } {
  const lf = crLines(base, h.inserted) ? lfLines : (side: string): string => side;
  const text = lf(base);
  const { removed, inserted, moved } = sidesAsLines(h.from > 0 && text[h.from - 1] !== '\n', lf(h.removed), lf(h.inserted));
  return { line: lineCount(text.slice(0, h.from)) + (moved ? 2 : 1), removed, inserted };
}

/** Line breaks (`\n`) in `text`. */
export function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
