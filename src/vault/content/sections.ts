import type { HeadingCache } from 'obsidian';
import { bodyStart } from './note-body';

/**
 * One heading of a note and the text it governs. Built from the metadata cache's headings
 * (`CachedMetadata.headings`), never from a regex over the body, so code fences with
 * `# comment` lines are not headings.
 */
export interface NoteSection {
  /**
   * Position in the heading tree: top-level headings (whatever their level) are "1", "2"…; a
   * deeper heading under "2" is "2.1". The preamble (see {@link withPreamble}) is "0".
   */
  path: string;
  /** Heading text, whitespace collapsed to single spaces and trimmed; {@link PREAMBLE_HEADING} for the preamble. */
  heading: string;
  /** Markdown heading level, 1–6; 0 for the preamble. */
  level: number;
  /** Char offset (UTF-16 code units) of the heading line in the full note text. */
  start: number;
  /** Exclusive end: the start of the next heading of the same or a higher level (smaller number), or the text length. */
  end: number;
}

/** Collapses runs of whitespace to one space and trims: the form headings are matched in. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Numbers headings by nesting and gives each its span.
 * @param headings `CachedMetadata.headings` in document order (may be undefined).
 * @param textLength length in chars of the full note text the cache was built from.
 * @param text that text, when the caller has it: a heading indented by 1–3 spaces (still a
 *   heading in CommonMark and Obsidian) then starts its section at its line's start, not at
 *   its `#`, so text put before the heading goes before the whole line.
 * @returns one {@link NoteSection} per heading, in document order.
 */
export function buildOutline(headings: readonly HeadingCache[] | undefined, textLength: number, text?: string): NoteSection[] {
  const sorted = inOffsetOrder(headings ?? []);
  const sections: NoteSection[] = [];
  /** Open ancestors: their section and how many children each has numbered so far. */
  const stack: Array<{ section: NoteSection; children: number }> = [];
  let topLevel = 0;
  for (const h of sorted) {
    const start = text === undefined ? Math.min(h.position.start.offset, textLength) : headingLineStart(text, h.position.start.offset);
    // A heading closes every open section of its level or deeper: it is the first later heading of the same or a higher level.
    while (stack.length > 0 && stack[stack.length - 1].section.level >= h.level) stack.pop()!.section.end = start;
    const parent = stack[stack.length - 1];
    const path = parent ? `${parent.section.path}.${++parent.children}` : String(++topLevel);
    const section = { path, heading: collapseWhitespace(h.heading), level: h.level, start, end: textLength };
    stack.push({ section, children: 0 });
    sections.push(section);
  }
  return sections;
}

/** Where the line holding `offset` starts, when only spaces or tabs lie between (else `offset`), clamped to `text`. */
function headingLineStart(text: string, offset: number): number {
  let at = Math.min(offset, text.length);
  while (at > 0 && (text[at - 1] === ' ' || text[at - 1] === '\t')) at--;
  return at === 0 || text[at - 1] === '\n' || text[at - 1] === '\r' ? at : Math.min(offset, text.length);
}

/**
 * The headings' texts as {@link buildOutline} gives them (`NoteSection.heading`, in offset
 * order), without the sections: what the search index takes of a note's outline (at 100k notes
 * the sections, their numbering and a sorted copy per note were made to be dropped).
 * @param headings `CachedMetadata.headings` in document order (may be undefined)
 */
export function headingTexts(headings: readonly HeadingCache[] | undefined): string[] {
  return inOffsetOrder(headings ?? []).map((h) => collapseWhitespace(h.heading));
}

/** `headings` ordered by offset (a stable sort): the list itself when it is in order already, as the metadata cache lists them. */
function inOffsetOrder(headings: readonly HeadingCache[]): readonly HeadingCache[] {
  for (let i = 1; i < headings.length; i++)
    if (headings[i - 1].position.start.offset > headings[i].position.start.offset)
      return [...headings].sort((a, b) => a.position.start.offset - b.position.start.offset);
  return headings;
}

/** Outline path of the preamble: the body text before the first heading. */
export const PREAMBLE_PATH = '0';
/** Heading text the preamble is listed and found under. */
export const PREAMBLE_HEADING = '(preamble)';

/**
 * The outline as read_note and search address it: `sections` with the preamble first, when
 * the body has non-blank text before its first heading (or has no heading at all). The
 * preamble is path {@link PREAMBLE_PATH}, heading {@link PREAMBLE_HEADING}, level 0, and spans
 * from the body start (past the frontmatter) to the first heading. Headings keep their paths.
 * @param sections the note's heading outline ({@link buildOutline}) for `text`
 * @param text the full note text the outline was built from
 * @param start where the body of `text` starts (`bodyStart(text)`), when the caller has it already
 * @returns a new array; `sections` itself when there is no preamble
 */
export function withPreamble(sections: readonly NoteSection[], text: string, start = bodyStart(text)): NoteSection[] {
  const end = sections.length > 0 ? sections[0].start : text.length;
  if (end <= start || text.slice(start, end).trim() === '') return [...sections];
  return [{ path: PREAMBLE_PATH, heading: PREAMBLE_HEADING, level: 0, start, end }, ...sections];
}

/**
 * The innermost section containing `offset` (a char offset in the full text), or null when
 * the offset lies before the first section or outside the text. With the preamble listed
 * ({@link withPreamble}) that is the section whose own text (up to the next heading of any
 * level) holds the offset.
 */
export function sectionAt(sections: readonly NoteSection[], offset: number): NoteSection | null {
  let found: NoteSection | null = null;
  for (const s of sections) {
    if (s.start > offset) break;
    if (offset < s.end) found = s;
  }
  return found;
}
