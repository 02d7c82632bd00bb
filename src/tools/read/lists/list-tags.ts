import { defineTool } from '../../tool';

/** `list_tags`: every tag on at least one readable note, with how many notes carry it. */
export const listTagsTool = defineTool({
  name: 'list_tags',
  title: 'List tags',
  description:
    'Tags in use (frontmatter and inline, with "#", case-insensitive) with note counts, most used first; find notes with search tag:<name>.',
  kind: 'read',
  inputSchema: {},
  annotations: { title: 'List tags', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    return { tags: ctx.notes.tagCounts(ctx.scope) };
  },
});
