import { ALL_TOOLS, toolsForKey } from '../../../src/tools/registry';
import { normalizeKeyTools } from '../../../src/settings/key-record';
import { keyToolsSummary } from '../../../src/ui/settings/client-snippets';
import { ROUTE_TOOLS, SIGHT_TOOLS, toolSetServes, toolSetSight, type ContentRoute } from '../../../src/server/content/tool-set-routes';
import { ToolError } from '../../../src/errors';

/** registry.ts toolsForKey: the pure filter behind a key's tools/list and tools/call. */
describe('toolsForKey', () => {
  const names = (set: Parameters<typeof toolsForKey>[1]): string[] => toolsForKey(ALL_TOOLS, set).map((t) => t.name);

  test('all (and a missing set) keeps every given tool in order', () => {
    expect(names('all')).toEqual(ALL_TOOLS.map((t) => t.name));
    expect(names(undefined)).toEqual(ALL_TOOLS.map((t) => t.name));
  });

  test('read keeps the read tools only', () => {
    expect(names('read')).toEqual(ALL_TOOLS.filter((t) => t.kind === 'read').map((t) => t.name));
    expect(names('read')).not.toContain('append_note');
  });

  test('a list keeps the named tools in registry order; unknown names add nothing; an empty list gives none', () => {
    expect(names(['append_note', 'search', 'nope'])).toEqual(['search', 'append_note']);
    expect(names([])).toEqual([]);
  });

  test('it never adds a tool that is not given (a disabled tool stays absent)', () => {
    const enabled = ALL_TOOLS.filter((t) => t.name !== 'search');
    expect(toolsForKey(enabled, ['search', 'read_note']).map((t) => t.name)).toEqual(['read_note']);
  });
});

describe('normalizeKeyTools and the Connect summary', () => {
  test('unknown values mean all; lists are trimmed and deduplicated', () => {
    expect(normalizeKeyTools(undefined)).toBe('all');
    expect(normalizeKeyTools('write')).toBe('all');
    expect(normalizeKeyTools('read')).toBe('read');
    expect(normalizeKeyTools([' a ', 'a', 2, 'b'])).toEqual(['a', 'b']);
  });

  test('the summary names the set and the tools a client will see', () => {
    expect(keyToolsSummary({ label: 'Reader', tools: 'read' }, ['search', 'read_note'])).toBe(
      'A client using "Reader" sees 2 tools (read tools only; change under Keys → Tools): search, read_note.',
    );
    expect(keyToolsSummary({ label: 'Empty', tools: ['append_note'] }, [])).toMatch(
      /^A client using "Empty" sees no tools \(chosen tools, none of them enabled\)/,
    );
  });
});

/** tool-set-routes.ts: the one rule by which a tool set reaches resources, prompts and completion. */
describe('toolSetServes', () => {
  test('every tool a content route stands in for is a read tool, so "all" and "read" serve every route', () => {
    const readTools = ALL_TOOLS.filter((t) => t.kind === 'read').map((t) => t.name);
    for (const tools of Object.values(ROUTE_TOOLS)) for (const tool of tools) expect(readTools).toContain(tool);
    for (const route of Object.keys(ROUTE_TOOLS) as ContentRoute[]) {
      expect([toolSetServes('all', route), toolSetServes('read', route), toolSetServes(undefined, route)]).toEqual([true, true, true]);
    }
  });

  test('a chosen list is served a route only when it names every tool the route stands in for', () => {
    const served = (set: string[]): ContentRoute[] => (Object.keys(ROUTE_TOOLS) as ContentRoute[]).filter((r) => toolSetServes(set, r));
    expect(served([])).toEqual([]);
    expect(served(['append_note', 'search'])).toEqual([]);
    expect(served(['read_note'])).toEqual(['read']);
    expect(served(['list_notes'])).toEqual([]);
    expect(served(['list_notes', 'read_note'])).toEqual(['read', 'list']);
    expect(served(['skill_read'])).toEqual(['prompt']);
    expect(served(['skills_list', 'skill_read'])).toEqual(['prompt', 'prompts']);
  });
});

/** tool-set-routes.ts toolSetSight and ToolError.messageFor: what a key's refusals may show of the vault (docs/security.md#keys). */
describe('toolSetSight', () => {
  test('every tool that gives sight is a read tool, so "all", "read" and a missing set see names and text', () => {
    const readTools = ALL_TOOLS.filter((t) => t.kind === 'read').map((t) => t.name);
    for (const tools of Object.values(SIGHT_TOOLS)) for (const tool of tools) expect(readTools).toContain(tool);
    for (const set of ['all', 'read', undefined] as const) expect(toolSetSight(set)).toEqual({ names: true, text: true });
  });

  test('a chosen list sees names with any tool that lists notes, text with any tool that reads one', () => {
    expect(toolSetSight([])).toEqual({ names: false, text: false });
    expect(toolSetSight(['append_note', 'edit_note', 'get_links', 'list_tags', 'list_folders', 'active_note'])).toEqual({
      names: false,
      text: false,
    });
    expect(toolSetSight(['search'])).toEqual({ names: true, text: false });
    expect(toolSetSight(['query_notes'])).toEqual({ names: true, text: false });
    expect(toolSetSight(['list_notes', 'append_note'])).toEqual({ names: true, text: false });
    expect(toolSetSight(['read_note'])).toEqual({ names: false, text: true });
    expect(toolSetSight(['read_notes'])).toEqual({ names: false, text: true });
    expect(toolSetSight(['list_notes', 'read_note'])).toEqual({ names: true, text: true });
  });

  test('messageFor gives the withheld sentence only to a sight lacking what the message shows', () => {
    const error = new ToolError('not_found', 'full: Did you mean A.md?', undefined, { shows: 'names', message: 'plain' });
    expect(error.messageFor(undefined)).toBe('full: Did you mean A.md?');
    expect(error.messageFor({ names: true, text: false })).toBe('full: Did you mean A.md?');
    expect(error.messageFor({ names: false, text: true })).toBe('plain');
    expect(new ToolError('conflict', 'no detail').messageFor({ names: false, text: false })).toBe('no detail');
  });
});
