import { frontMatterInfo } from './text/line-endings';

/**
 * Where a note's body starts, computed from the text alone (never from the metadata cache,
 * which lags behind a write). The one rule read_note, read_notes, write_note and search
 * share, so the body they show, replace and snippet is always the same text. The write
 * routes also take from here whether a note ends at the closing `---` of its frontmatter
 * ({@link endsAtFence}) and the line breaks that keep it a line of its own when text goes
 * in next to it ({@link fenceSeparators}): a note may end right after that fence, with no
 * line break, and text glued onto it would turn the whole block into body.
 */

/**
 * Char offset (UTF-16 code units) in the whole note text where the body starts: just past the
 * frontmatter block and the line break after its closing `---` (Obsidian's `getFrontMatterInfo`:
 * the block opens on the first line, after an optional UTF-8 BOM, and closes with a line that
 * is exactly `---`), else just past a BOM, else 0. Never throws.
 * @param text the note's whole text.
 */
export function bodyStart(text: string): number {
  const info = frontMatterInfo(text);
  if (info.exists) return info.contentStart;
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}

/**
 * True when `text` ends right after the closing `---` line of its frontmatter, with no line
 * break after it (`"---\ntags: [x]\n---"`): text put at its end would join the fence. Never throws.
 * @param text the note's whole text.
 */
export function endsAtFence(text: string): boolean {
  const info = frontMatterInfo(text);
  return info.exists && info.contentStart === text.length && !text.endsWith('\n');
}

/**
 * The line breaks a change must carry so the closing `---` line of the note's frontmatter
 * stays a line of its own: replacing `[from, to)` of `text` with `insert` must not glue text
 * onto the fence (`---hello`, which closes nothing, so every property would read as body)
 * nor in front of it (`draft---`). `before` is `eol` when the change starts on the fence line
 * past its dashes (and trailing spaces; the note's end when no line break follows the fence)
 * and the line would then go on with more than spaces and tabs; `after` is `eol` when the
 * change ends at the fence line's start and the text before it would not end in a line
 * break. Both are `''` otherwise, and for a note without frontmatter. The closing line starts
 * at `getFrontMatterInfo`'s `to` (as property-patch.ts reads it). Never throws.
 * @param text the note's whole text. @param from @param to the replaced char range (`from === to`: an insertion).
 * @param insert the text going in (already in the note's line-ending style).
 * @param eol the note's line break (`\n` or `\r\n`).
 * @returns `{before, after}`: what goes right before and right after `insert`.
 */
export function fenceSeparators(text: string, from: number, to: number, insert: string, eol: string): { before: string; after: string } {
  const info = frontMatterInfo(text);
  const changes = info.exists && (from < to || insert !== '');
  const onFence = changes && /^---[ \t\r]*$/.test(text.slice(info.to, from)) && !/^[ \t\r]*(\n|$)/.test(insert + text.slice(to));
  const beforeFence = changes && to === info.to && !(text.slice(0, from) + insert).endsWith('\n');
  return { before: onFence ? eol : '', after: beforeFence ? eol : '' };
}
