import * as z from 'zod';
import { searchByMode } from '../../search/hybrid/mode-search';
import { EMPTY_QUERY } from '../../search/query/parser/query-parser';
import type { SearchHit } from '../../search/types';
import { syntheticId } from '../../vault/paths/note-ref';
import { defineTool, type ToolContext } from '../tool';
import { arrayOf, INTEGER, NUMBER, objectOf, STRING } from '../output-schema';

/** Results per page when the caller gives no `limit`: enough to choose from, cheap to read. */
export const SEARCH_DEFAULT_LIMIT = 10;

/**
 * Notes read between two progress notifications of a search that checks note texts (phrases,
 * regexes, `content:`): one notification per batch the engine reads, not one per note.
 */
export const SEARCH_PROGRESS_STEP = 32;

/**
 * The `onTextRead` of a search whose client asked for progress: every
 * {@link SEARCH_PROGRESS_STEP} notes read it reports the count so far (no total: how many notes
 * the query must read is not known up front).
 * @returns undefined when the client sent no progressToken (`progress` absent).
 */
export function searchProgress(progress: ToolContext['progress']): ((notesRead: number) => void) | undefined {
  if (!progress) return undefined;
  return (notesRead) => {
    if (notesRead % SEARCH_PROGRESS_STEP === 0) progress(notesRead, undefined, `checked the text of ${notesRead} notes`);
  };
}

/**
 * One hit as the agent receives it, without repeated facts: `id` only when the note has a
 * frontmatter id (else it is `path:<path>`, the path again), `title` only when it differs
 * from the file name, `section_heading` only with a section, and `source` only when the page
 * mixes rankings (hybrid or semantic with a usable embedding index; a lexical-only page says so
 * in its `note`).
 * @param hit a hit as the search index returns it
 * @param withSource include `source` (lexical | semantic | both)
 * @returns a new plain object: path, id?, title?, score, snippet?, section, section_heading?, source?
 */
export function compactHit(hit: SearchHit, withSource = false): Record<string, unknown> {
  const out: Record<string, unknown> = { path: hit.path };
  if (hit.id !== syntheticId(hit.path)) out.id = hit.id;
  if (hit.title !== hit.path.slice(hit.path.lastIndexOf('/') + 1).replace(/\.md$/i, '')) out.title = hit.title;
  out.score = hit.score;
  if (hit.snippet !== undefined) out.snippet = hit.snippet;
  out.section = hit.section;
  if (hit.section !== null) out.section_heading = hit.section_heading;
  if (withSource) out.source = hit.source;
  if (hit.all_terms !== undefined) out.all_terms = hit.all_terms;
  if (hit.missing_terms !== undefined) out.missing_terms = hit.missing_terms;
  return out;
}

/** `search`: ranked search over the notes the caller may read, with Obsidian's query operators. */
export const searchTool = defineTool({
  name: 'search',
  title: 'Search notes',
  description:
    'Search, Obsidian syntax. Plain words are ranked, stemmed: notes with all first (all_terms; else missing_terms). ' +
    'An operator makes a filter, all words required: "phrase", -x, a OR b, (groups), file:, path:, content:, tag:#x, ' +
    '[prop], [prop:value], [prop:>5], /regex/, match-case:, ignore-case:, line:(a b), block:, section:, task:, ' +
    'task-todo:, task-done:. Hits: snippet (**bold** matches), `section` for read_note; hybrid mode (default) adds ' +
    'notes close in meaning (source: lexical/semantic/both).',
  kind: 'read',
  inputSchema: {
    query: z
      .string()
      .min(1, { error: EMPTY_QUERY })
      .describe('E.g. `meeting tag:#work -draft`, `task-todo:(call OR email)`; ≤ 1000 chars, 64 terms.'),
    mode: z
      .enum(['hybrid', 'lexical', 'semantic'])
      .optional()
      .describe('Default hybrid (lexical, saying why, until the semantic index is ready).'),
    limit: z.number().int().min(1).max(100).optional().describe('Per page; default 10.'),
    cursor: z.string().optional().describe('next_cursor of the previous page.'),
    fields: z.enum(['full', 'metadata']).optional().describe('"metadata": no snippets.'),
    regex: z.boolean().optional().describe('The whole query is one case-sensitive JS regex on note bodies.'),
  },
  outputSchema: objectOf(
    {
      results: arrayOf(objectOf({ path: STRING, score: NUMBER, section: { type: ['string', 'null'] } }, ['path', 'score', 'section'])),
      next_cursor: STRING,
      total: INTEGER,
    },
    ['results', 'total'],
  ),
  annotations: { title: 'Search notes', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const mode = args.mode ?? 'hybrid';
    const { page, mixed } = await searchByMode(
      { notes: ctx.notes, lexical: ctx.search, semantic: ctx.semantic ?? null },
      mode,
      args.query,
      ctx.scope,
      {
        limit: args.limit ?? SEARCH_DEFAULT_LIMIT,
        cursor: args.cursor,
        fields: args.fields,
        regex: args.regex,
        onTextRead: searchProgress(ctx.progress),
      },
    );
    return { ...page, results: page.results.map((h) => compactHit(h, mixed)) };
  },
});
