import { z } from 'zod';
import { ToolError } from '../errors';
import { defineTool } from './tool';

/** Said in hybrid mode while there is no embedding index (DESIGN.md, `search`: hybrid falls back and says so). */
export const SEMANTIC_UNAVAILABLE_NOTE = 'Semantic index not available; lexical results only.';

/** `search`: ranked search over the notes the caller may read, with Obsidian's query operators. */
export const searchTool = defineTool({
  name: 'search',
  title: 'Search notes',
  description:
    'Ranked search over the vault. Query syntax as in Obsidian: words (all must match), "exact phrase", -word to exclude, ' +
    'a OR b, (groups), path:folder, file:name, tag:#project (nested tags included), [prop] / has:prop, [prop:value], ' +
    '[prop:>5] or [due:<=2024-06-01] (ops > < >= <= =), /regex/ on the body. A query of filters only lists matching notes. ' +
    'Each result has a snippet with the match in **bold** and the `section` holding it: pass path and section to read_note ' +
    'to read just that part. Page with next_cursor; fields:"metadata" drops snippets.',
  kind: 'read',
  inputSchema: {
    query: z
      .string()
      .min(1)
      .describe('Search query, e.g. `meeting tag:#work -draft` or `"exact phrase" path:Projects`; at most 1000 characters and 64 terms.'),
    mode: z
      .enum(['hybrid', 'lexical', 'semantic'])
      .optional()
      .describe('hybrid (default) combines keyword and semantic ranking; lexical is keyword only; semantic is meaning only.'),
    limit: z.number().int().min(1).max(100).optional().describe('Results per page, 1-100; default 20.'),
    cursor: z.string().optional().describe('next_cursor from the previous page of the same query.'),
    fields: z.enum(['full', 'metadata']).optional().describe('"metadata" returns results without snippets; default "full".'),
    regex: z.boolean().optional().describe('Treat the whole query as one JavaScript regular expression matched against note bodies.'),
  },
  annotations: { title: 'Search notes', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const mode = args.mode ?? 'hybrid';
    if (mode === 'semantic') {
      throw new ToolError('unavailable', 'Semantic search is not available in this vault yet; call search with mode "lexical" or "hybrid".');
    }
    const page = await ctx.search.search(args.query, ctx.scope, {
      limit: args.limit,
      cursor: args.cursor,
      fields: args.fields,
      regex: args.regex,
    });
    const out: Record<string, unknown> = { ...page };
    if (mode === 'hybrid') out.note = page.note === undefined ? SEMANTIC_UNAVAILABLE_NOTE : `${page.note} ${SEMANTIC_UNAVAILABLE_NOTE}`;
    return out;
  },
});
