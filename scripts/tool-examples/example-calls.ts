/**
 * One representative call per tool, keyed by tool name: the arguments docs/tools.md shows and
 * scripts/tool-examples/generate.ts sends. Calls run in tools/list order against one copy of
 * the demo vault with a `force` key, so the write examples build on each other: create_note
 * makes `Inbox/Weekly review.md`, the next writes change it, move_note moves it to
 * `Archive/`, delete_note trashes it there.
 *
 * Adding a tool: add one line `tool_name: { ...arguments },` here. A tool in tools/list
 * without a line makes the generator fail naming it (see {@link missingExamples}).
 */

/** A tool call's arguments, as sent in `tools/call` (`params.arguments`). */
export type ExampleArguments = Record<string, unknown>;

/** The example arguments of every documented tool, by tool name. */
export const EXAMPLE_CALLS: Readonly<Record<string, ExampleArguments>> = {
  search: { query: 'sourdough starter', limit: 3 },
  list_notes: { folder: 'Projects/Alpha', limit: 3 },
  query_notes: { query: 'WHERE file.folder under "Projects" AND status exists SORT file.name LIMIT 3 COLUMNS title, status' },
  read_note: { path: 'Projects/Alpha/Risks', max_chars: 400 },
  read_notes: { paths: ['People/Ana Ruiz', 'People/Ben Okafor', 'People/Nobody'] },
  list_folders: { folder: 'Projects' },
  list_tags: {},
  get_links: { path: 'Projects/Alpha/Alpha overview' },
  active_note: {},
  proposal_status: {},
  vaults: {},
  skills_list: {},
  skill_read: { id: 'weekly-review' },
  create_note: {
    path: 'Inbox/Weekly review',
    content: '---\nstatus: draft\n---\n# Weekly review\n\n## Done\n\n- Shipped the Alpha dashboard mock-ups\n\n## Next\n',
  },
  write_note: { path: 'Inbox/Weekly review', frontmatter_patch: { week: '2026-W06' } },
  append_note: { path: 'Inbox/Weekly review', content: '- Book the Beta retrospective' },
  edit_note: { path: 'Inbox/Weekly review', heading: 'Done', op: 'append_within', content: '- Renewed the garden plan' },
  set_properties: { path: 'Inbox/Weekly review', properties: { status: 'done', tags: ['review'] } },
  move_note: { path: 'Inbox/Weekly review', to: 'Archive/Weekly review 2026-W06' },
  delete_note: { path: 'Archive/Weekly review 2026-W06', confirm: true },
  create_folder: { path: 'Projects/Gamma/Research' },
  widget_list: {},
  widget_write: {
    id: 'open-tasks',
    html: '<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">{"name": "Open tasks", "description": "Notes still marked in progress.", "query": "WHERE status = \\"in progress\\" LIMIT 10 COLUMNS title"}</script></head><body><ol id="tasks"></ol></body></html>',
  },
};

/**
 * The tools of `listed` (names from tools/list) that have no entry in `calls`.
 * @returns the missing names, in tools/list order (empty when every tool has an example)
 */
export function missingExamples(listed: readonly string[], calls: Readonly<Record<string, ExampleArguments>> = EXAMPLE_CALLS): string[] {
  return listed.filter((name) => !Object.prototype.hasOwnProperty.call(calls, name));
}
