import * as z from 'zod';
import { defineTool } from '../tool';

/** `get_links`: a note's place in the link graph. */
export const getLinksTool = defineTool({
  name: 'get_links',
  title: 'Get links',
  description: "A note's outgoing links and backlinks ({path, count}) and unresolved links ({link, count}: text matching no file).",
  kind: 'read',
  inputSchema: {
    path: z.string().describe('Note path, [[wikilink]] name or id.'),
  },
  annotations: { title: 'Get links', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const file = ctx.notes.policy.resolveNote({ path: args.path }, ctx.scope);
    return { path: file.path, ...ctx.notes.linksOf(file, ctx.scope) };
  },
});
