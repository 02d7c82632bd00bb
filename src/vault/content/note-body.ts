import { getFrontMatterInfo } from 'obsidian';

/**
 * Where a note's body starts, computed from the text alone (never from the metadata cache,
 * which lags behind a write). The one rule read_note, read_notes, write_note and search
 * share, so the body they show, replace and snippet is always the same text.
 */

/**
 * Char offset (UTF-16 code units) in the whole note text where the body starts: just past the
 * frontmatter block and the line break after its closing `---` (Obsidian's `getFrontMatterInfo`:
 * the block opens on the first line, after an optional UTF-8 BOM, and closes with a line that
 * is exactly `---`), else just past a BOM, else 0. Never throws.
 * @param text the note's whole text.
 */
export function bodyStart(text: string): number {
  const info = getFrontMatterInfo(text);
  if (info.exists) return info.contentStart;
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}
