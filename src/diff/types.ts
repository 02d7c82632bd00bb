/** The plain data of line and word diffs (no DOM, no Obsidian), shared by proposals, activity and the editor. */

/**
 * One change between a base text and a proposed text, line-granular: the base's
 * characters `[from, to)` (whole lines, trailing newline included) become `inserted`.
 * A pure insertion has `from === to` at a line start. `index` numbers the hunks of one
 * (base, proposed) pair in document order, from 0.
 */
export interface Hunk {
  index: number;
  from: number;
  to: number;
  removed: string;
  inserted: string;
}

/**
 * A hunk placed on another text than its base (the note as it is now): `from`/`to` are
 * offsets in that text. `stale` is true when the text changed inside or right at the hunk
 * since the base, so applying it could overwrite someone's typing: it can only be rejected.
 */
export interface PlacedHunk extends Hunk {
  stale: boolean;
}

/** One piece of a word-level diff inside a changed region. */
export interface WordPart {
  kind: 'same' | 'removed' | 'inserted';
  text: string;
}
