import type { HeadingCache } from 'obsidian';
import { ToolError } from '../errors';

/**
 * One heading of a note and the text it governs. Built from the metadata cache's headings
 * (`CachedMetadata.headings`), never from a regex over the body, so code fences with
 * `# comment` lines are not headings.
 */
export interface NoteSection {
  /** Position in the heading tree: top-level headings (whatever their level) are "1", "2"…; a deeper heading under "2" is "2.1". */
  path: string;
  /** Heading text, whitespace collapsed to single spaces and trimmed. */
  heading: string;
  /** Markdown heading level, 1–6. */
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
 * @returns one {@link NoteSection} per heading, in document order.
 */
export function buildOutline(headings: readonly HeadingCache[] | undefined, textLength: number): NoteSection[] {
  const sorted = [...(headings ?? [])].sort((a, b) => a.position.start.offset - b.position.start.offset);
  const sections: NoteSection[] = [];
  /** Open ancestors: their level and how many children each has numbered so far. */
  const stack: Array<{ level: number; path: string; children: number }> = [];
  let topLevel = 0;
  for (const h of sorted) {
    while (stack.length > 0 && stack[stack.length - 1].level >= h.level) stack.pop();
    const parent = stack[stack.length - 1];
    const path = parent ? `${parent.path}.${++parent.children}` : String(++topLevel);
    stack.push({ level: h.level, path, children: 0 });
    sections.push({
      path,
      heading: collapseWhitespace(h.heading),
      level: h.level,
      start: Math.min(h.position.start.offset, textLength),
      end: textLength,
    });
  }
  for (let i = 0; i < sections.length; i++) {
    const next = sections.slice(i + 1).find((s) => s.level <= sections[i].level);
    if (next) sections[i].end = next.start;
  }
  return sections;
}

/**
 * The innermost section containing `offset` (a char offset in the full text), or null when
 * the offset lies before the first heading or outside the text.
 */
export function sectionAt(sections: readonly NoteSection[], offset: number): NoteSection | null {
  let found: NoteSection | null = null;
  for (const s of sections) {
    if (s.start > offset) break;
    if (offset < s.end) found = s;
  }
  return found;
}

/** Section paths look like `1`, `2.3`, `1.2.1`. */
const SECTION_PATH = /^\d+(?:\.\d+)*$/;

/**
 * Finds the section a `read_note`/`edit_note` argument names: a section path ("1.2") first,
 * then the exact heading text (whitespace collapsed; leading `#` marks ignored) matched
 * case-sensitively, then case-insensitively.
 * @throws ToolError('ambiguous') when several headings match, listing them with their paths;
 *   ToolError('not_found') when none does, listing the headings the note has.
 */
export function findSection(sections: readonly NoteSection[], query: string, notePath: string): NoteSection {
  const wanted = collapseWhitespace(query.replace(/^\s*#{1,6}\s+/, ''));
  if (SECTION_PATH.test(wanted)) {
    const byPath = sections.find((s) => s.path === wanted);
    if (byPath) return byPath;
  }
  let matches = sections.filter((s) => s.heading === wanted);
  if (matches.length === 0) {
    const lower = wanted.toLowerCase();
    matches = sections.filter((s) => s.heading.toLowerCase() === lower);
  }
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    const list = matches.map((s) => `${s.path} "${s.heading}"`).join(', ');
    throw new ToolError('ambiguous', `Heading '${wanted}' occurs ${matches.length} times in '${notePath}' (${list}); pass the section path instead.`);
  }
  if (sections.length === 0) {
    throw new ToolError('not_found', `Note '${notePath}' has no headings; read it without section, using offset to page.`);
  }
  throw new ToolError('not_found', `Section '${wanted}' not found in '${notePath}'; available: ${listHeadings(sections)}.`);
}

/** Lists up to 40 headings as `path "heading"`, noting how many more there are. */
function listHeadings(sections: readonly NoteSection[]): string {
  const shown = sections.slice(0, 40).map((s) => `${s.path} "${s.heading}"`);
  const more = sections.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more (call read_note with outline:true)` : shown.join(', ');
}
