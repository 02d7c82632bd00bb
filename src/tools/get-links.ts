import { z } from 'zod';
import { defineTool } from './tool';

/** `get_links`: a note's place in the link graph. */
export const getLinksTool = defineTool({
  name: 'get_links',
  title: 'Get links',
  description:
    'Links of one note: outgoing (notes and files it links to), backlinks (notes linking to it), each {path, count}, ' +
    'and unresolved links ({link, count}: link text that matches no file).',
  kind: 'read',
  inputSchema: {
    path: z.string().describe('Vault path of the note (".md" optional), a note name as in a [[wikilink]], or its id.'),
  },
  annotations: { title: 'Get links', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const file = ctx.notes.resolveNote({ path: args.path }, ctx.scope);
    return { path: file.path, ...ctx.notes.linksOf(file, ctx.scope) };
  },
});
