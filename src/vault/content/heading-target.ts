import { quoteInput, ToolError, withoutText } from '../../errors';
import { collapseWhitespace, PREAMBLE_HEADING, PREAMBLE_PATH, type NoteSection } from './sections';

/**
 * Finding the section a `read_note` `section` or an `edit_note` `heading` names
 * (docs/architecture.md#tool-contract): both tools resolve headings here, with the same rules. Sections come from the
 * metadata cache (NoteStore.outline), so `# text` inside code spans, code fences or tables is
 * never a heading. Never guesses: no match or several matches is an error that lists the
 * candidates.
 */

/** The tool asking, which decides what a note without headings should be read or edited by instead. */
export type HeadingUse = 'read_note' | 'edit_note';

/** What to do instead when the note has no headings, per tool. */
const NO_HEADINGS_ADVICE: Record<HeadingUse, string> = {
  read_note: 'read it without section, using offset to page',
  edit_note: 'use an anchor (a unique piece of its text) instead',
};

/** Outline paths look like `1`, `2.3`, `1.2.1`. */
const SECTION_PATH = /^\d+(?:\.\d+)*$/;

/** The form headings are compared in: NFC, whitespace collapsed, trimmed. */
function normalizeHeading(text: string): string {
  return collapseWhitespace(text.normalize('NFC'));
}

/** Strips Markdown heading marks an agent may copy along: leading `#`s and a closing `#` run. */
function stripMarks(text: string): string {
  return text.replace(/^#{1,6}\s+/, '').replace(/\s+#+$/, '');
}

/**
 * The section `query` names, tried in this order: an outline path (`1.2`); the heading text
 * exactly (NFC, whitespace collapsed, surrounding spaces and `#` marks ignored), then ignoring
 * case; then a heading path `Parent/Child` (each part a heading text, parents matched in
 * order among the section's ancestors, not necessarily adjacent). A query that is an outline
 * path of one section and the heading text of another (`## 1.1` at outline path 1.3), or the
 * heading text of one section and a `Parent/Child` path to another (`# A/B` beside `# A` >
 * `## B`), is refused as ambiguous, naming both: never silently the other section. A heading
 * written as a link writes it (`#Agenda`, `#Plan#Risks`) is read as that heading (or Parent/Child)
 * when no heading has that text.
 * @param sections the note's outline. @param notePath for messages.
 * @param use the tool asking (default edit_note): only the advice for a note without headings differs.
 * @throws ToolError('invalid_argument') for an empty query; ToolError('ambiguous') when
 *   several sections match, or an outline path and a heading text, or a heading text and a
 *   Parent/Child path, name different sections (listing them with their outline paths); ToolError('not_found')
 *   when none does (listing the note's headings, or saying it has none: a preamble, level 0,
 *   is not a heading). The lists of headings are withheld from a key that may not read notes
 *   (ToolError.withheld, `text`).
 */
export function findHeadingSection(
  sections: readonly NoteSection[],
  query: string,
  notePath: string,
  use: HeadingUse = 'edit_note',
): NoteSection {
  const wanted = stripMarks(normalizeHeading(query));
  if (wanted === '') {
    throw new ToolError(
      'invalid_argument',
      'The heading is empty; give the heading text as in the outline, its outline path ("1.2") or "Parent/Child".',
    );
  }
  let matches = byText(sections, wanted);
  if (SECTION_PATH.test(wanted)) {
    const byPath = sections.find((s) => s.path === wanted);
    const others = matches.filter((s) => s !== byPath);
    if (byPath && others.length > 0) {
      throw new ToolError(
        'ambiguous',
        `${quoteInput(wanted)} in '${notePath}' is both the outline path of ${describe([byPath])} and the heading text of ${describe(others)}; ` +
          `pass "${others[0].path}", the outline path of the heading ${quoteInput(wanted)}, or the heading text ${quoteInput(byPath.heading)} for the other.`,
        undefined,
        withoutText(
          `${quoteInput(wanted)} in '${notePath}' is an outline path and another heading's text; pass the outline path of the one you mean`,
        ),
      );
    }
    if (byPath) return byPath;
  }
  if (wanted.includes('/')) {
    const parts = wanted
      .split('/')
      .map((p) => stripMarks(normalizeHeading(p)))
      .filter((p) => p !== '');
    const viaPath = parts.length > 1 ? byHeadingPath(sections, parts) : [];
    const others = viaPath.filter((s) => !matches.includes(s));
    if (matches.length > 0 && others.length > 0) {
      throw new ToolError(
        'ambiguous',
        `${quoteInput(wanted)} in '${notePath}' is both the heading text of ${describe(matches)} and, read as Parent/Child, ${describe(others)}; pass the outline path of the one you mean (e.g. "${matches[0].path}" or "${others[0].path}").`,
        undefined,
        withoutText(`${quoteInput(wanted)} in '${notePath}' names a heading and, as Parent/Child, another section; pass an outline path`),
      );
    }
    if (matches.length === 0) matches = viaPath;
  }
  if (matches.length === 1) return matches[0];
  // A heading as a link writes it (`#Agenda`, `#Plan#Risks` for Risks under Plan: help.obsidian.md/links), when no heading is called that.
  if (matches.length === 0 && /^#[^#\s]/.test(wanted)) {
    const linked = wanted.split('#').filter((part) => part.trim() !== '');
    return findHeadingSection(sections, linked.join('/'), notePath, use);
  }
  if (matches.length > 1) {
    throw new ToolError(
      'ambiguous',
      `Heading ${quoteInput(wanted)} matches ${matches.length} headings in '${notePath}' (${describe(matches)}); pass one outline path (e.g. "${matches[0].path}") or "Parent/Child" instead.`,
      undefined,
      withoutText(
        `Heading ${quoteInput(wanted)} matches ${matches.length} headings in '${notePath}'; pass "Parent/Child" or an outline path`,
      ),
    );
  }
  if (sections.every((s) => s.level === 0)) {
    throw new ToolError('not_found', `Note '${notePath}' has no headings; ${NO_HEADINGS_ADVICE[use]}.`);
  }
  if ((wanted === PREAMBLE_PATH || wanted.toLowerCase() === PREAMBLE_HEADING) && !sections.some((s) => s.level === 0)) {
    // Section 0 is listed only when the note has text before its first heading: "(preamble)" is no heading to look for.
    throw new ToolError(
      'not_found',
      `'${notePath}' has no text before its first heading, so no section ${PREAMBLE_PATH} ${PREAMBLE_HEADING}; its headings are: ${describe(sections)}.`,
      undefined,
      withoutText(`'${notePath}' has no text before its first heading, so no section ${PREAMBLE_PATH} ${PREAMBLE_HEADING}`),
    );
  }
  throw new ToolError(
    'not_found',
    `Heading ${quoteInput(wanted)} not found in '${notePath}'; its headings are: ${describe(sections)}. Use one of them, its outline path, or "Parent/Child".`,
    undefined,
    withoutText(`Heading ${quoteInput(wanted)} not found in '${notePath}'; give one as written, an outline path or "Parent/Child"`),
  );
}

/** Sections whose heading equals `wanted`, else those equal ignoring case. */
function byText(sections: readonly NoteSection[], wanted: string): NoteSection[] {
  const exact = sections.filter((s) => normalizeHeading(s.heading) === wanted);
  if (exact.length > 0) return exact;
  const lower = wanted.toLowerCase();
  return sections.filter((s) => normalizeHeading(s.heading).toLowerCase() === lower);
}

/** Sections matching the last part whose ancestors contain the other parts, in order. */
function byHeadingPath(sections: readonly NoteSection[], parts: string[]): NoteSection[] {
  const last = parts[parts.length - 1];
  const parents = parts.slice(0, -1);
  return byText(sections, last).filter((section) => {
    const ancestors = ancestorsOf(sections, section);
    let i = 0;
    for (const a of ancestors) if (i < parents.length && byText([a], parents[i]).length === 1) i++;
    return i === parents.length;
  });
}

/** The section's ancestors, outermost first, found by outline path prefix (`1.2.3` → `1`, `1.2`). */
function ancestorsOf(sections: readonly NoteSection[], section: NoteSection): NoteSection[] {
  const parts = section.path.split('.');
  const out: NoteSection[] = [];
  for (let n = 1; n < parts.length; n++) {
    const prefix = parts.slice(0, n).join('.');
    const found = sections.find((s) => s.path === prefix);
    if (found) out.push(found);
  }
  return out;
}

/** Up to 30 sections as `1.2 "Heading"`, noting how many more there are. */
function describe(sections: readonly NoteSection[]): string {
  const shown = sections.slice(0, 30).map((s) => `${s.path} "${s.heading}"`);
  const more = sections.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more (read_note with outline:true lists all)` : shown.join(', ');
}
