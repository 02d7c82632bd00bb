import { frontMatterInfo } from '../../content/text/line-endings';
import { quoteInput, ToolError, withoutText } from '../../../errors';
import { findHeadingSection } from '../../content/heading-target';
import { anchorOccurrences, looseOccurrences } from './anchor-match';
import { bodyStart, endsAtFence, fenceSeparators } from '../../content/note-body';
import { collapseWhitespace, PREAMBLE_HEADING, PREAMBLE_PATH, withPreamble, type NoteSection } from '../../content/sections';
import type { EditOp, LineRange, TextEditResult } from '../write-types';
import { trailingBlankLines } from '../../content/text/trailing-run';

/**
 * Pure text edits behind the write tools: they take a note's whole text and return the new
 * text plus the changed line range. Inserted text takes the note's line-ending style (a CRLF
 * note stays CRLF); anchors match across `\n` / `\r\n` so text read through read_note can be
 * fed back. Offsets are chars (UTF-16 code units); lines are 1-based.
 */

/** The note's line ending: CRLF when the text has any `\r\n`, else LF. */
export function lineEndingOf(text: string): '\r\n' | '\n' {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * `content` with every `\r\n` and `\n` turned into `eol` (the note's line-ending style). A lone
 * `\r` (one not followed by `\n`) is part of the agent's text and stays as written
 * (docs/tool-reference.md, Write tools: line endings): turning it into `eol` changed text the agent sent.
 * @param content text an agent writes. @param eol the note's line ending ({@link lineEndingOf}).
 * @returns the text to put into the note.
 */
export function withLineEnding(content: string, eol: string): string {
  return content.replace(/\r\n|\n/g, eol);
}

/** The 1-based line of a char offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The lines covered by `length` chars inserted at `start` of the new `text`; a trailing line
 * break does not count as a line of its own. An empty insertion (a deletion) is the single
 * line where it happened.
 */
export function insertedLines(text: string, start: number, length: number): LineRange {
  const first = lineAt(text, start);
  if (length === 0) return { start: first, end: first };
  let last = start + length - 1;
  if (text[last] === '\n' && last > start) last -= text[last - 1] === '\r' && last - 1 > start ? 2 : 1;
  return { start: first, end: Math.max(first, lineAt(text, last)) };
}

/**
 * Replaces `[from, to)` of `text` with `insert`; reports the inserted lines. A change at the
 * closing `---` line of the note's frontmatter gets the line break that keeps the fence a
 * line of its own (note-body.ts `fenceSeparators`), so text is never glued onto it.
 */
export function splice(text: string, from: number, to: number, insert: string): TextEditResult {
  const { before, after } = fenceSeparators(text, from, to, insert, lineEndingOf(text));
  const next = text.slice(0, from) + before + insert + after + text.slice(to);
  return { text: next, lines: insertedLines(next, from + before.length, insert.length) };
}

/** True when `body` itself starts with a frontmatter block (a `---` fenced YAML block on line 1). */
export function startsWithFrontmatter(body: string): boolean {
  return frontMatterInfo(body).exists;
}

/**
 * `write_note` body: keeps the frontmatter block and replaces everything after it, so the
 * body read back (read_note) is exactly `body` (in the note's line-ending style). When the
 * note ends right after its closing `---` (no line break), a non-empty body gets one first,
 * so it starts on its own line and never joins the fence.
 */
export function replaceBody(text: string, body: string): TextEditResult {
  const eol = lineEndingOf(text);
  const insert = withLineEnding(body, eol);
  const at = bodyStart(text);
  const lead = insert !== '' && endsAtFence(text) ? eol : '';
  const next = text.slice(0, at) + lead + insert;
  return { text: next, lines: insertedLines(next, at + lead.length, insert.length) };
}

/**
 * `append_note`: adds `content` at the end, keeping the note's final-newline state.
 * With `ensureNewline` (the default): a note that does not end in a line break gets one
 * first, so the content starts on its own line; and a note that ends in a line break still
 * ends in one afterwards (content without a trailing line break gets one), so
 * `a\nb\n` + `c` gives `a\nb\nc\n` while `a\nb` + `c` gives `a\nb\nc`. An empty note
 * takes the content as given. Without `ensureNewline` the content is appended exactly as
 * given (to continue the last line), except that it never continues a closing frontmatter
 * `---` the note ends with: it starts on a new line there (see {@link appendSeparator}).
 * Line breaks take the note's style (CRLF stays CRLF).
 */
export function appendText(text: string, content: string, ensureNewline: boolean): TextEditResult {
  const insert = appendedText(text, content, ensureNewline);
  const next = text + insert;
  const sep = appendSeparator(text, withLineEnding(content, lineEndingOf(text)), ensureNewline).length;
  return { text: next, lines: insertedLines(next, text.length + sep, insert.length - sep) };
}

/**
 * The exact text {@link appendText} adds after `text`: the separating line break (see
 * {@link appendSeparator}), the content in the note's line-ending style, and the final line
 * break the note had (when `ensureNewline`).
 */
export function appendedText(text: string, content: string, ensureNewline: boolean): string {
  const eol = lineEndingOf(text);
  const body = withLineEnding(content, eol);
  const sep = appendSeparator(text, body, ensureNewline);
  if (!ensureNewline || text === '' || !text.endsWith('\n')) return sep + body;
  return sep + (body === '' || body.endsWith('\n') ? body : body + eol);
}

/**
 * The line break put between a note and the text appended to it: with `ensureNewline`, one
 * when the note is not empty and does not end in a line break, and a blank line more when the
 * appended text starts with a `===`/`---` line or a setext heading right after a paragraph
 * line, which would otherwise become a heading ({@link keepBlocksApart}); without it, one only when the
 * note ends right after its closing frontmatter `---` and `body` would otherwise continue
 * that line (note-body.ts `fenceSeparators`); else `''`.
 * @param text the note's whole text. @param body the appended content, already in the note's line-ending style.
 */
export function appendSeparator(text: string, body: string, ensureNewline: boolean): string {
  const eol = lineEndingOf(text);
  if (ensureNewline) return (text !== '' && !text.endsWith('\n') ? eol : '') + keepBlocksApart(text, text.length, body, eol).lead;
  return fenceSeparators(text, text.length, text.length, body, eol).before;
}

/** Occurrences of an ambiguous anchor whose lines the error lists. */
const LISTED_OCCURRENCES = 20;

/**
 * Line numbers in ascending order as a message names them: `line 4`, `lines 1, 7`, and a line holding
 * several occurrences once with their count (`line 1 (20 times)`), not `lines 1, 1, 1, …`.
 */
function listedLines(lines: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  const shown = [...counts].map(([line, n]) => (n > 1 ? `${line} (${n} times)` : `${line}`));
  return `${counts.size === 1 ? 'line' : 'lines'} ${shown.join(', ')}`;
}

/**
 * Finds `anchor` in `text`; it must occur exactly once (overlapping occurrences count).
 * Line breaks in the anchor match `\n` or `\r\n` (anchor-match.ts: plain string search, so an
 * anchor of any length is only text).
 * @returns the char range of the one occurrence.
 * @throws ToolError('invalid_argument') for an empty anchor; ToolError('not_found') when it
 *   does not occur (with a hint when it occurs ignoring case and spacing, withheld from a key that may
 *   not read notes: ToolError.withheld);
 *   ToolError('ambiguous') when it occurs more than once, with the count ("more than 20" past that) and the first 20 lines.
 */
export function findAnchor(text: string, anchor: string, notePath: string): { from: number; to: number } {
  if (anchor === '') throw new ToolError('invalid_argument', 'The anchor is empty; give a piece of the note that occurs exactly once.');
  // One past the lines listed: enough to tell "more than listed" without counting every overlap.
  const hits = anchorOccurrences(text, anchor, LISTED_OCCURRENCES + 1);
  if (hits.length === 1) return hits[0];
  if (hits.length > 1) {
    const lines = listedLines(hits.slice(0, LISTED_OCCURRENCES).map((h) => lineAt(text, h.from)));
    const more = hits.length > LISTED_OCCURRENCES;
    throw new ToolError(
      'ambiguous',
      `The anchor occurs ${more ? `more than ${LISTED_OCCURRENCES}` : hits.length} times in '${notePath}' (${lines}${more ? ', ...' : ''}); include more surrounding text so it occurs once.`,
    );
  }
  const near = looseOccurrences(text, anchor, 5);
  const hint =
    near.length > 0
      ? ` Text differing only in case or spacing is on ${listedLines(near.map((h) => lineAt(text, h.from)))}; copy it exactly from read_note.`
      : ' Copy the anchor exactly from read_note (character for character), or address a heading instead.';
  throw new ToolError(
    'not_found',
    `The anchor was not found in '${notePath}'.${hint}`,
    undefined,
    withoutText(`The anchor was not found in '${notePath}'; give it exactly as the note has it, or a heading`),
  );
}

/**
 * `edit_note` by anchor: `replace` swaps the anchor for `content` (empty content deletes it),
 * `insert_before`/`insert_after` put `content` right before/after it, verbatim.
 * @throws as {@link findAnchor}; ToolError('invalid_argument') for `append_within`.
 */
export function editAtAnchor(text: string, anchor: string, op: EditOp, content: string, notePath: string): TextEditResult {
  if (op === 'append_within') {
    throw new ToolError('invalid_argument', "op 'append_within' needs a heading; use insert_after with the anchor, or give a heading.");
  }
  let found: { from: number; to: number };
  try {
    found = findAnchor(text, anchor, notePath);
  } catch (error) {
    throw withAlreadyMadeHint(error, text, content);
  }
  const { from, to } = found;
  const insert = withLineEnding(content, lineEndingOf(text));
  const at = op === 'insert_before' ? from : to;
  const result = op === 'replace' ? splice(text, from, to, insert) : splice(text, at, at, insert);
  assertFenceKept(text, result.text, notePath);
  return result;
}

/**
 * An anchor not found while the text the edit would put in is there already: an earlier call (a
 * retry after a timeout, say) may have made this very edit, which "copy the anchor from read_note"
 * does not tell (session 44's newcomer). The hint is added to the not-found error, withheld from a
 * key that may not read notes as the rest of it is. Other errors are returned as they are.
 * @param error what findAnchor threw. @param content the edit's new text, looked for verbatim when 4 chars or longer.
 */
function withAlreadyMadeHint(error: unknown, text: string, content: string): unknown {
  if (!(error instanceof ToolError) || error.code !== 'not_found' || content.trim() === '') return error;
  const probe = withLineEnding(content, lineEndingOf(text));
  // Below 4 characters text is found by chance (`a`, `1.`): no hint.
  if (probe.trim().length < 4 || !text.includes(probe)) return error;
  return new ToolError(
    'not_found',
    `${error.message} The content this edit would put in is in the note already: an earlier call may have made this edit; read_note to check before sending it again.`,
    error.why,
    error.withheld,
  );
}

/**
 * Refuses an edit of a note with frontmatter whose result no longer opens with that block's
 * `---` line, or has no frontmatter block at all: text put before (or glued onto) the opening
 * fence, or a fence broken or removed, turns every property into body text (Obsidian reads a
 * frontmatter block only as a note's very first line, getFrontMatterInfo).
 * @param before the note's text. @param after the edited text.
 * @throws ToolError('invalid_argument') saying what to do instead.
 */
export function assertFenceKept(before: string, after: string, notePath: string): void {
  if (!frontMatterInfo(before).exists) return;
  const openEnd = before.indexOf('\n') + 1;
  if (frontMatterInfo(after).exists && after.slice(0, openEnd) === before.slice(0, openEnd)) return;
  throw new ToolError(
    'invalid_argument',
    `That edit would break the frontmatter's --- fence in '${notePath}' or put text before it, turning its properties into body text; change properties with set_properties, and put text after the closing --- (an anchor in the body, or a heading).`,
  );
}

/**
 * `edit_note` by heading, on the section `heading` names (see findHeadingSection). A section
 * runs from its heading line to the next heading of the same or a higher level (its
 * subsections included). Content is written as whole lines (a line break is added when
 * missing):
 * - `replace`: the section's body (everything after the heading line, subsections included)
 *   becomes `content`; the heading line stays, and blank lines before and after the old body
 *   are kept. Empty content leaves only the heading (and one blank line before the next one).
 * - `insert_before`: `content` goes on the lines just before the heading line.
 * - `insert_after`: `content` goes on the lines right after the heading line.
 * - `append_within`: `content` goes after the section's last non-blank line, before the next
 *   heading of the same or a higher level.
 * The preamble (section `0`, `(preamble)`: the body before the first heading, after the
 * frontmatter; see sections.ts withPreamble) has no heading line: `replace` swaps all of it,
 * `insert_after` puts `content` at its start (right after the frontmatter), `append_within`
 * after its last non-blank line; `(preamble)` names it even when the note has no text before
 * its first heading (it is then empty).
 * @throws as findHeadingSection; ToolError('invalid_argument') for `insert_before` on the preamble.
 */
export function editAtHeading(
  text: string,
  sections: readonly NoteSection[],
  heading: string,
  op: EditOp,
  content: string,
  notePath: string,
): TextEditResult {
  const section = findHeadingSection(withEditablePreamble(sections, text, heading), heading, notePath);
  if (section.level === 0 && op === 'insert_before') {
    throw new ToolError(
      'invalid_argument',
      `The preamble of '${notePath}' has no heading line to insert before; use insert_after to put text at its start (right after the frontmatter), or append_within for its end.`,
    );
  }
  const eol = lineEndingOf(text);
  const lines = asLines(content, eol);
  const headingEnd = headingLinesEnd(text, section.start, section.end, section.level);
  const headingTerminated =
    section.level === 0 ? atLineStart(text, headingEnd) : headingEnd > section.start && text[headingEnd - 1] === '\n';
  if (op === 'insert_before') {
    const { lead, trail } = keepBlocksApart(text, section.start, lines, eol);
    const out = splice(text, section.start, section.start, lead + lines + trail);
    const start = section.start + lead.length;
    return { text: out.text, lines: insertedLines(out.text, start, lines.length) };
  }
  if (op === 'insert_after' || (op === 'append_within' && text.slice(headingEnd, section.end).trim() === '')) {
    // New list items (quote lines, rows) going in above a list set off by a blank line join it there, keeping it tight.
    const joined = headingTerminated && op === 'insert_after' ? joinedBlockStart(text, headingEnd, section.end, lines) : headingEnd;
    return insertAt(text, joined, lines, headingTerminated ? '' : eol);
  }
  if (op === 'append_within') {
    let last = section.end;
    while (last > headingEnd && /\s/.test(text[last - 1])) last--;
    const lineBreak = text.indexOf('\n', last);
    if (lineBreak < 0 || lineBreak >= section.end)
      return insertAt(text, lineBreak < 0 ? text.length : section.end, lines, lineBreak < 0 ? eol : '');
    return insertAt(text, lineBreak + 1, lines, '');
  }
  const body = text.slice(headingEnd, section.end);
  const leading = /^(?:[ \t]*\r?\n)*/.exec(body)?.[0] ?? '';
  const trailing = section.end < text.length ? trailingBlankLines(body.slice(leading.length)) : '';
  const keepTrailing = trailing.replace(/^\r?\n/, '');
  const prefix = headingTerminated || lines === '' ? '' : eol;
  const blank = section.end < text.length && leading + keepTrailing !== '' ? eol : '';
  const { lead, trail } = keepBlocksApart(text, section.end, lines, eol, text.slice(0, headingEnd) + prefix + leading);
  const guarded = lead + lines + (keepTrailing === '' ? trail : '');
  const replacement = lines === '' ? blank : prefix + leading + guarded + keepTrailing;
  const next = text.slice(0, headingEnd) + replacement + text.slice(section.end);
  const start = headingEnd + prefix.length + leading.length;
  const replaced = { text: next, lines: insertedLines(next, start + (lines === '' ? 0 : lead.length), lines === '' ? 0 : lines.length) };
  const note = droppedSubsectionsRemark(sections, section, content);
  return note === undefined ? replaced : { ...replaced, note };
}

/**
 * The remark for a heading `replace` that took subsections with it: a section runs to the next
 * heading of its level or higher, so `### Step 1` under `## Plan` went with Plan's text, which an
 * agent asking to replace "the text under Plan" does not expect (session 43's newcomer). Headings
 * the new content writes again are not counted as gone.
 * @returns the sentence, or undefined when no subsection went.
 */
function droppedSubsectionsRemark(sections: readonly NoteSection[], section: NoteSection, content: string): string | undefined {
  const written = new Set<string>();
  for (const line of content.split(/\r?\n/)) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (heading) written.add(collapseWhitespace(heading[1]));
  }
  const gone = sections.filter((s) => s.level > 0 && s.start > section.start && s.start < section.end && !written.has(s.heading));
  if (gone.length === 0) return undefined;
  const names =
    gone
      .slice(0, 5)
      .map((s) => quoteInput(s.heading))
      .join(', ') + (gone.length > 5 ? ` and ${gone.length - 5} more` : '');
  return (
    `The section ${quoteInput(section.heading)} held the subsection${gone.length === 1 ? '' : 's'} ${names}, which this replace ` +
    'removed with it (a section runs to the next heading of its level or higher). To change only the text above them, ' +
    'replace that text by anchor; if they were meant to stay, ask the user to revert this change (Agent activity).'
  );
}

/**
 * `sections` with the preamble (sections.ts withPreamble) listed, so edit_note's `heading`
 * reaches section `0` as read_note's `section` does; when `query` names the preamble
 * (`(preamble)`, or `0` with no heading of that text) and the note has no text before its first
 * heading, an empty preamble at the body's start is listed, so text can go there.
 */
function withEditablePreamble(sections: readonly NoteSection[], text: string, query: string): NoteSection[] {
  const listed = withPreamble(sections, text);
  if (listed.length > 0 && listed[0].level === 0) return listed;
  const wanted = collapseWhitespace(query);
  const names =
    wanted.toLowerCase() === PREAMBLE_HEADING || (wanted === PREAMBLE_PATH && !sections.some((s) => s.heading === PREAMBLE_PATH));
  if (!names) return listed;
  const start = Math.min(bodyStart(text), sections.length > 0 ? sections[0].start : text.length);
  const end = sections.length > 0 ? sections[0].start : text.length;
  return [{ path: PREAMBLE_PATH, heading: PREAMBLE_HEADING, level: 0, start, end }, ...listed];
}

/**
 * Where new `lines` going in right after a heading join the block that starts the section: past the
 * blank lines after the heading when the first line after them is a list item, a quote line or a
 * table row like the new lines' last (`## List` + blank + `- one`, with `- zero` going in, becomes
 * `## List` + blank + `- zero` + `- one`, one tight list, not two lists made loose by the blank
 * line between: session 44's newcomer); else `at` itself.
 * @param at the heading lines' end (a line start); `end` the section's end.
 */
function joinedBlockStart(text: string, at: number, end: number, lines: string): number {
  let pos = at;
  while (pos < end && lineFrom(text, pos).trim() === '') {
    const brk = text.indexOf('\n', pos);
    if (brk < 0 || brk >= end) return at;
    pos = brk + 1;
  }
  if (pos === at || pos >= end) return at;
  const [last, first] = [lastLine(lines), lineFrom(text, pos)];
  const same =
    (LIST_ITEM.test(last) && LIST_ITEM.test(first)) ||
    (QUOTE.test(last) && QUOTE.test(first)) ||
    (last.includes('|') && first.includes('|') && /^ {0,3}\|/.test(first) && /^ {0,3}\|/.test(last));
  return same ? pos : at;
}

/** True when `at` starts a line of `text` (its start, past a BOM, or right after a line break). */
function atLineStart(text: string, at: number): boolean {
  return at === 0 || text[at - 1] === '\n' || (at === 1 && text.charCodeAt(0) === 0xfeff);
}

/**
 * Inserts `lines` at `at`, after a `prefix` line break when the text there is not at a line
 * start, kept apart from the blocks around it ({@link keepBlocksApart}).
 */
function insertAt(text: string, at: number, lines: string, prefix: string): TextEditResult {
  const { lead, trail } = keepBlocksApart(text, at, lines, lineEndingOf(text), text.slice(0, at) + prefix);
  const next = text.slice(0, at) + prefix + lead + lines + trail + text.slice(at);
  return { text: next, lines: insertedLines(next, at + prefix.length + lead.length, lines.length) };
}

/**
 * Where the heading's own lines end (past the line break) for a section starting at `start`
 * and ending at `end`: the heading line of an ATX heading (`## Title`); through the `===` /
 * `---` underline of a setext heading (`Title` then `=====`), whose text may run over several
 * lines. Content going in "after the heading line" goes there, never between a setext
 * heading's text and its underline. The preamble (level 0) has no heading: its start.
 */
function headingLinesEnd(text: string, start: number, end: number, level: number): number {
  const lineEnd = (at: number): number => {
    const brk = text.indexOf('\n', at);
    return brk < 0 || brk >= end ? end : brk + 1;
  };
  if (level === 0) return start;
  const first = lineEnd(start);
  if (ATX_HEADING.test(lineFrom(text, start))) return first;
  for (let at = first; at < end; at = lineEnd(at)) {
    const line = lineFrom(text, at);
    if (UNDERLINE.test(line)) return lineEnd(at);
    if (line.trim() === '') break;
  }
  return first;
}

/** An ATX heading line (`#` to `######`, then a space, a tab or the line's end). */
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** A line that underlines a setext heading (`===` or `---`, one mark only) or, after a blank line, is a thematic break. */
const UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;

/** The line of `text` starting at `at`, without its line break. */
function lineFrom(text: string, at: number): string {
  const end = text.indexOf('\n', at);
  return text.slice(at, end < 0 ? text.length : end).replace(/\r$/, '');
}

/** The last line of `text` (the one ending at its end, or before its final line break), without its line break. */
function lastLine(text: string): string {
  const body = text.replace(/\r?\n$/, '');
  return lineFrom(body, body.lastIndexOf('\n') + 1);
}

/**
 * True when the lines of `text` from `at` are a setext heading's: text lines (not blank, not
 * an ATX heading) then a `===` / `---` underline; or when the line at `at` is itself such an
 * underline (a paragraph line put before it would become a heading).
 */
function startsSetext(text: string, at: number): boolean {
  for (let pos = at; pos < text.length;) {
    const line = lineFrom(text, pos);
    if (UNDERLINE.test(line)) return true;
    if (line.trim() === '' || ATX_HEADING.test(line)) return false;
    const end = text.indexOf('\n', pos);
    if (end < 0) return false;
    pos = end + 1;
  }
  return false;
}

/**
 * The blank line to put before (`lead`) and after (`trail`) `lines` (whole lines going in at
 * `at` of `text`), each `eol` or `''`: one is needed where
 * without one the new lines and their neighbours would read as other Markdown than each alone:
 * a paragraph line before new lines that start with a `===`/`---` line or a setext heading
 * would become (part of) that heading, and new lines ending in text right before a setext
 * heading or a `===`/`---` line would become part of that heading (the next section's title)
 * or turn the line into a heading underline; and a line that would be read as part of the table,
 * quote or list it follows (or that the new lines end with) is kept apart from it ({@link wouldContinue}).
 * So an edit by heading never changes the structure of another part. A line counts as a paragraph line here when it is not blank and not an
 * ATX heading.
 * @param text the note's text. @param at where the lines go (a line start).
 * @param lines the new lines, each ending in `eol`. @param eol the note's line break.
 * @param before the text that will precede the lines (default: `text` up to `at`).
 */
function keepBlocksApart(
  text: string,
  at: number,
  lines: string,
  eol: string,
  before = text.slice(0, at),
): { lead: string; trail: string } {
  if (lines === '') return { lead: '', trail: '' };
  const previous = lastLine(before);
  const setextLead = before !== '' && previous.trim() !== '' && !ATX_HEADING.test(previous) && startsSetext(lines, 0);
  const lead = setextLead || wouldContinue(blockEndingAt(before), lineFrom(lines, 0)) ? eol : '';
  const trail =
    lastLine(lines).trim() !== '' && (startsSetext(text, at) || wouldContinue(blockEndingAt(lines), lineFrom(text, at))) ? eol : '';
  return { lead, trail };
}

/** A table's delimiter row (`| --- | :-: |`, `--- | ---`): GFM's rule that makes the lines above and below a table. */
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
/** A list item's first line (`- `, `* `, `+ `, `1. `, `1) `, a task `- [ ] ` among them). */
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A blockquote or callout line (`> text`, `> [!note]`). */
const QUOTE = /^ {0,3}>/;
/** A footnote definition's first line (`[^1]: text`), which a plain line right after continues. */
const FOOTNOTE = /^ {0,3}\[\^[^\]\s]+\]:/;

/** The block (the run of non-blank lines) `text` ends with, first line first; [] when it ends in a blank line or is empty. */
function blockEndingAt(text: string): string[] {
  // Read back from the end, line by line: a note of megabytes is not split whole for each append.
  const block: string[] = [];
  let end = text.endsWith('\n') ? text.length - 1 : text.length;
  for (;;) {
    const start = end === 0 ? 0 : text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (line.trim() === '') break;
    block.unshift(line);
    if (start === 0) break;
    end = start - 1;
  }
  return block;
}

/**
 * True when the line `next`, right after the lines `block`, would be read as part of that block's
 * table, quote, list or footnote though it is none of their lines (GFM: a line after a table's
 * rows is another row, a line after a quote, a list item or a footnote definition continues it lazily): `Plain text` after
 * `| a | b |` becomes a table row, after `> [!warning]` part of the callout, after `- [ ] task`
 * part of the task (session 44's newcomer). A row, a quote line, a list item or an indented line
 * of the same block continues it as meant; a blank, a heading or a fence ends it anyway.
 */
function wouldContinue(block: readonly string[], next: string): boolean {
  if (block.length === 0 || next.trim() === '' || ATX_HEADING.test(next) || /^ {0,3}(?:```|~~~)/.test(next)) return false;
  const last = block[block.length - 1];
  if (block.some((line) => line.includes('|') && TABLE_DELIMITER.test(line)) && last.includes('|')) return !next.includes('|');
  if (QUOTE.test(last)) return !QUOTE.test(next);
  if (block.some((line) => LIST_ITEM.test(line))) return !LIST_ITEM.test(next) && !/^[ \t]/.test(next);
  if (block.some((line) => FOOTNOTE.test(line))) return !FOOTNOTE.test(next) && !/^[ \t]/.test(next);
  return false;
}

/** `content` in the note's line ending, ending with one line break (empty stays empty). */
function asLines(content: string, eol: string): string {
  if (content === '') return '';
  const converted = withLineEnding(content, eol);
  return converted.endsWith(eol) ? converted : converted + eol;
}
