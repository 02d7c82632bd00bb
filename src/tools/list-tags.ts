import { defineTool } from './tool';

/** `list_tags`: every tag on at least one readable note, with how many notes carry it. */
export const listTagsTool = defineTool({
  name: 'list_tags',
  title: 'List tags',
  description:
    'List the tags used in the vault (frontmatter and inline, with their leading "#"), each with the number of notes carrying it, ' +
    'most used first. Tags differing only in case count as one. Use search with tag:<name> to find the notes.',
  kind: 'read',
  inputSchema: {},
  annotations: { title: 'List tags', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    return { tags: ctx.notes.tagCounts(ctx.scope) };
  },
});
