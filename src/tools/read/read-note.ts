import * as z from 'zod';
import type { TFile } from 'obsidian';
import { ToolError } from '../../errors';
import { findHeadingSection } from '../../vault/content/heading-target';
import { clusterAround } from '../../vault/content/text/graphemes';
import { bodyStart } from '../../vault/content/note-body';
import { withPreamble } from '../../vault/content/sections';
import type { AgentInstructions } from '../../vault/note-store';
import { parseFrontmatter } from '../../vault/writes/frontmatter/frontmatter-guard';
import { wikilinkSubpath } from '../../vault/paths/note-ref';
import { defineTool, type ToolContext } from '../tool';
import { NOTE_HEADER_FIELDS, NOTE_HEADER_REQUIRED, objectOf } from '../output-schema';

/** Default cap on returned body/outline text, chars (docs/architecture.md#tool-contract, `read_note`). */
export const BODY_BUDGET = 8000;

/** One page of a longer text. Offsets and lengths are in chars (UTF-16 code units). */
export interface TextPage {
  text: string;
  /** Length of the whole text. */
  length: number;
  /** Where this page starts in the whole text. */
  offset: number;
  /** Where the next page starts; equals `length` when nothing is left. */
  next: number;
  hasMore: boolean;
}

/**
 * Cuts one page out of `text`. A page never splits a character as a reader sees it (a grapheme
 * cluster, see vault/content/text/graphemes.ts: a surrogate pair, a letter with its combining
 * accents, an emoji with its skin tone or joined parts, a flag): an `offset` inside one starts
 * the page at its start (the page's `offset` says where it really starts, and its `maxChars`
 * are counted from there), and a page that would end inside one ends before it, unless that
 * leaves the page empty, when it takes the whole cluster (more than `maxChars` units): a page
 * is never longer otherwise.
 * With `atLine` a cut page ends after its last line break when it has one.
 * @param offset start, 0 ≤ offset ≤ text length. @param maxChars page size; 0 = no cap.
 * @throws ToolError('invalid_argument') when `offset` is past the end of the text.
 */
export function pageText(text: string, offset: number, maxChars: number, atLine = false): TextPage {
  if (offset > text.length) {
    throw new ToolError(
      'invalid_argument',
      `offset ${offset} is past the end (the text has ${text.length} chars); use an offset below that.`,
    );
  }
  const start = clusterAround(text, offset).start;
  // Counted from where the page really starts: from `offset` a page moved back would hold max_chars + 1 units.
  let end = maxChars === 0 ? text.length : Math.min(text.length, start + maxChars);
  if (end < text.length) {
    if (atLine) {
      const lastBreak = text.lastIndexOf('\n', end - 1);
      if (lastBreak >= start) end = lastBreak + 1;
    }
    const cluster = clusterAround(text, end);
    end = cluster.start > start ? cluster.start : cluster.end;
  }
  return { text: text.slice(start, end), length: text.length, offset: start, next: end, hasMore: end < text.length };
}

/**
 * What every note-reading tool says about a note besides its text: path, id, title,
 * frontmatter, tags (id/title/frontmatter/tags as of `text`, see NoteStore.describeText) (with `#`, as Obsidian's `getAllTags`), links (readable outgoing link
 * targets), ctime/mtime (ISO 8601), size (bytes) and `hash` (SHA-256 hex of the whole text,
 * to pass back as `expected_hash`). A frontmatter block that does not parse as YAML (Obsidian then
 * shows no properties, and the body starts after the block) adds `frontmatter_error` (the parser's
 * first line) and `frontmatter_block` (the block's text between the `---` lines, at most
 * {@link BODY_BUDGET} chars): without them an agent told to fix the YAML could not see it.
 */
export function noteHeader(ctx: ToolContext, file: TFile, text: string): Record<string, unknown> {
  const { notes, scope } = ctx;
  const { id, title, frontmatter, tags } = notes.describeText(file, text);
  const out: Record<string, unknown> = {
    path: file.path,
    id,
    title,
    frontmatter,
    tags,
    links: notes.outgoingLinks(file, scope).map((l) => l.path),
    ctime: new Date(file.stat.ctime).toISOString(),
    mtime: new Date(file.stat.mtime).toISOString(),
    size: file.stat.size,
    hash: notes.hashOf(text),
  };
  // Only a note showing no properties can have a block that does not parse: the others are not parsed again.
  if (Object.keys(frontmatter ?? {}).length === 0) {
    const parsed = parseFrontmatter(text);
    if (parsed.state === 'invalid') {
      out.frontmatter_error = parsed.error;
      // Without the line break before the closing `---`, so the text is an anchor whose replacement keeps the fence on its line.
      out.frontmatter_block = pageText(parsed.block.replace(/\r?\n$/, ''), 0, BODY_BUDGET).text;
    }
  }
  return out;
}

/** read_note's sentence for a note whose frontmatter does not parse (see {@link noteHeader}). */
const UNPARSED_FRONTMATTER =
  'The frontmatter does not parse as YAML (frontmatter_error), so Obsidian shows no properties; its text is frontmatter_block. ' +
  'Fix it with edit_note, replacing the whole block (anchor: its text) in one edit, or ask the user.';

/** `read_note`: one note with paging, outline or one section. */
export const readNoteTool = defineTool({
  name: 'read_note',
  title: 'Read note',
  description:
    'Read a note by path or id: frontmatter, tags, links, times, `hash` (for ' +
    'expected_hash) and body up to 8000 chars (page with offset; max_chars:0 = all). outline:true lists ' +
    '"path<TAB>chars<TAB>heading" per section ("0" = text before the first heading); then section reads one part. Follow ' +
    '`agent_md` (AGENTS.md instructions) when present.',
  kind: 'read',
  inputSchema: {
    path: z.string().optional().describe('E.g. "Projects/Plan.md" (".md" optional) or a [[wikilink]] name.'),
    id: z.union([z.string(), z.number()]).optional().describe('Note id, instead of path.'),
    offset: z.number().int().min(0).optional().describe('Char offset (after has_more).'),
    max_chars: z.number().int().min(0).optional().describe('Default 8000; 0 = all.'),
    outline: z.boolean().optional().describe('The outline instead of the body.'),
    section: z.string().optional().describe('Outline path ("2.1"), heading text or "Parent/Child".'),
  },
  outputSchema: objectOf(NOTE_HEADER_FIELDS, NOTE_HEADER_REQUIRED),
  annotations: { title: 'Read note', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    if (args.outline && args.section !== undefined) {
      throw new ToolError('invalid_argument', 'Ask for outline or section, not both: read the outline first, then the section.');
    }
    const ref = { path: args.path, id: args.id === undefined ? undefined : String(args.id) };
    const { file, text } = await ctx.notes.resolveAndRead(ref, ctx.scope);
    // A pasted [[Note#Heading]] reads that heading's section, as the link shows it in Obsidian (it read the whole note, silently).
    const linked = args.path === undefined ? null : wikilinkSubpath(args.path);
    const sectionAsked = args.section ?? (linked !== null && 'heading' in linked && !args.outline ? linked.heading : undefined);
    const out = noteHeader(ctx, file, text);
    const offset = args.offset ?? 0;
    const maxChars = args.max_chars ?? BODY_BUDGET;
    if (args.outline) {
      const headings = ctx.notes.outline(file, text);
      const sections = withPreamble(headings, text);
      const outline = sections.map((s) => `${s.path}\t${s.end - s.start}\t${s.heading}`).join('\n');
      const page = pageText(outline, offset, maxChars, true);
      Object.assign(out, { outline: page.text, outline_length: page.length, outline_offset: page.offset, has_more: page.hasMore });
      if (headings.length === 0) out.note = 'This note has no headings; read its body with offset paging instead.';
      else if (page.hasMore)
        out.note = `Outline cut at ${page.next} of ${page.length} chars; call read_note with outline:true and offset=${page.next} for the rest.`;
    } else if (sectionAsked !== undefined) {
      const section = findHeadingSection(withPreamble(ctx.notes.outline(file, text), text), sectionAsked, file.path, 'read_note');
      const page = pageText(text.slice(section.start, section.end), offset, maxChars);
      Object.assign(out, { section: { path: section.path, heading: section.heading, level: section.level }, ...bodyFields(page) });
      if (page.hasMore) {
        out.note = `Section cut at ${page.next} of ${page.length} chars; call read_note with section:"${section.path}" and offset=${page.next} for the rest.`;
      }
    } else {
      const page = pageText(text.slice(bodyStart(text)), offset, maxChars);
      Object.assign(out, bodyFields(page));
      if (page.hasMore) {
        out.note =
          `Body cut at ${page.next} of ${page.length} chars; call read_note with offset=${page.next} for more, ` +
          'or outline:true to see the headings and then section:"<path>" to read one part.';
      }
    }
    if (linked !== null && 'block' in linked) {
      const blockNote = `The link's block reference ^${linked.block} is not read on its own: this is the whole note, where the block is the line or paragraph ending in ^${linked.block}.`;
      out.note = typeof out.note === 'string' ? `${blockNote} ${out.note}` : blockNote;
    }
    if (out.frontmatter_error !== undefined)
      out.note = typeof out.note === 'string' ? `${UNPARSED_FRONTMATTER} ${out.note}` : UNPARSED_FRONTMATTER;
    const agentMd = await ctx.notes.agentInstructionsFor(file, ctx.scope);
    if (agentMd) out.agent_md = cappedInstructions(agentMd);
    return out;
  },
});

/**
 * An `agent_md` entry as sent: the instructions' path and text, the text capped at
 * {@link BODY_BUDGET} chars like a body; a cut one adds `content_length` and `has_more: true`.
 */
export function cappedInstructions(instructions: AgentInstructions): Record<string, unknown> {
  const page = pageText(instructions.content, 0, BODY_BUDGET);
  if (!page.hasMore) return { path: instructions.path, content: instructions.content };
  return { path: instructions.path, content: page.text, content_length: page.length, has_more: true };
}

/** The paging fields of a body reply. */
function bodyFields(page: TextPage): Record<string, unknown> {
  return { body: page.text, body_length: page.length, body_offset: page.offset, has_more: page.hasMore };
}
