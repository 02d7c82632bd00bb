import { z } from 'zod';
import { ToolError } from '../../../src/errors';
import type { SearchIndex } from '../../../src/search/search-index';
import type { SearchOptions, SearchPage } from '../../../src/search/types';
import { SEARCH_DEFAULT_LIMIT, SEARCH_PROGRESS_STEP, searchProgress, searchTool } from '../../../src/tools/read/search';
import type { ToolContext } from '../../../src/tools/tool';
import type { AccessScope } from '../../../src/vault/access/access';

const scope: AccessScope = { label: 'Claude Code', roots: ['Projects'] };
const page: SearchPage = {
  results: [
    {
      path: 'Projects/A.md',
      id: 'path:Projects/A.md',
      title: 'A',
      score: 1.5,
      snippet: 'the **plan**',
      section: '1',
      section_heading: 'Plan',
      source: 'lexical',
    },
    { path: 'Projects/B.md', id: 'b-7', title: 'Beta plan', score: 0.5, section: null, section_heading: null, source: 'lexical' },
  ],
  next_cursor: 'abc',
  total: 3,
};
/** `page` as the agent receives it: no synthetic id, no title equal to the file name, no source, no heading without a section. */
const compactPage = {
  results: [
    { path: 'Projects/A.md', score: 1.5, snippet: 'the **plan**', section: '1', section_heading: 'Plan' },
    { path: 'Projects/B.md', id: 'b-7', title: 'Beta plan', score: 0.5, section: null },
  ],
  next_cursor: 'abc',
  total: 3,
};

/** A context whose search index records its calls and answers `page`. */
function context(): { ctx: ToolContext; calls: Array<{ query: string; scope: AccessScope; options: SearchOptions }> } {
  const calls: Array<{ query: string; scope: AccessScope; options: SearchOptions }> = [];
  const search = {
    async search(query: string, s: AccessScope, options: SearchOptions): Promise<SearchPage> {
      calls.push({ query, scope: s, options });
      return page;
    },
  } as unknown as SearchIndex;
  return { ctx: { search, scope } as unknown as ToolContext, calls };
}

describe('search tool', () => {
  it('is a read-only tool with the contract inputs', () => {
    expect(searchTool).toMatchObject({ name: 'search', kind: 'read', annotations: { readOnlyHint: true } });
    expect(Object.keys(searchTool.inputSchema).sort()).toEqual(['cursor', 'fields', 'limit', 'mode', 'query', 'regex']);
    const schema = z.object(searchTool.inputSchema);
    expect(schema.safeParse({ query: 'x', limit: 100, mode: 'lexical', fields: 'metadata', regex: true }).success).toBe(true);
    expect(schema.safeParse({ query: '' }).success).toBe(false);
    expect(schema.safeParse({ query: 'x', limit: 101 }).success).toBe(false);
    expect(schema.safeParse({ query: 'x', mode: 'fuzzy' }).success).toBe(false);
  });

  it('falls back to lexical in hybrid mode (the default) and says so', async () => {
    const { ctx, calls } = context();
    const out = await searchTool.handler({ query: 'plan tag:#work', limit: 5, cursor: 'c1', fields: 'metadata' }, ctx);
    expect(out).toEqual({
      ...compactPage,
      // The agent cannot tell Obsidian from a headless run: the note names the flags of the one without a settings tab too.
      note: 'Semantic ranking unavailable (semantic search is off; turn on "Index for semantic search" in Settings → Vault MCP → AI provider (in a run of npm start, which has no settings tab: its --embed-url and --embed-model flags)); lexical results only.',
    });
    expect(calls).toEqual([{ query: 'plan tag:#work', scope, options: { limit: 5, cursor: 'c1', fields: 'metadata', regex: undefined } }]);
  });

  it('answers lexical mode without the note and passes regex through', async () => {
    const { ctx, calls } = context();
    const out = await searchTool.handler({ query: '^- \\[ \\]', mode: 'lexical', regex: true }, ctx);
    expect(out).toEqual(compactPage);
    expect(calls[0].options).toMatchObject({ regex: true, limit: SEARCH_DEFAULT_LIMIT });
    expect(SEARCH_DEFAULT_LIMIT).toBe(10);
  });

  it('refuses semantic mode without an embedding index, naming the setting and lexical/hybrid', async () => {
    const { ctx, calls } = context();
    const err: unknown = await searchTool.handler({ query: 'x', mode: 'semantic' }, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).code).toBe('unavailable');
    expect((err as ToolError).message).toMatch(/Index for semantic search.*lexical.*hybrid/);
    expect(calls).toHaveLength(0);
  });

  it('refuses a filter query in semantic mode (invalid_argument, as regex) before asking for the index', async () => {
    const { ctx, calls } = context();
    for (const query of ['tag:index', '-starter', '"starter jar"', '(starter jar)', 'a OR b', '[status:done]', '/re/']) {
      const err: unknown = await searchTool.handler({ query, mode: 'semantic' }, ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ToolError);
      expect([query, (err as ToolError).code, (err as ToolError).message]).toEqual([
        query,
        'invalid_argument',
        expect.stringMatching(
          /^Semantic search reads plain language, not search syntax \(.*\); call search with mode "lexical" or "hybrid" to filter\.$/,
        ),
      ]);
    }
    expect(calls).toHaveLength(0);
  });
});

describe('search progress', () => {
  it('is absent when the client asked for none, and reports every SEARCH_PROGRESS_STEP notes read otherwise', () => {
    expect(searchProgress(undefined)).toBeUndefined();
    const sent: Array<[number, number | undefined, string | undefined]> = [];
    const onTextRead = searchProgress((progress, total, message) => sent.push([progress, total, message]))!;
    for (let read = 1; read <= SEARCH_PROGRESS_STEP * 2 + 5; read++) onTextRead(read);
    expect(sent).toEqual([
      [SEARCH_PROGRESS_STEP, undefined, `checked the text of ${SEARCH_PROGRESS_STEP} notes`],
      [SEARCH_PROGRESS_STEP * 2, undefined, `checked the text of ${SEARCH_PROGRESS_STEP * 2} notes`],
    ]);
  });

  it('passes the reporter to the search index only when the client asked for progress', async () => {
    const { ctx, calls } = context();
    await searchTool.handler({ query: 'plan', mode: 'lexical' }, ctx);
    await searchTool.handler({ query: 'plan', mode: 'lexical' }, { ...ctx, progress: () => undefined });
    expect(calls.map((c) => typeof c.options.onTextRead)).toEqual(['undefined', 'function']);
  });
});
