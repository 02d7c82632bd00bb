import { z } from 'zod';
import { submitWrite } from './write-gate';
import { defineTool } from './tool';

/** `create_note`: a new note with full content; never overwrites. */
export const createNoteTool = defineTool({
  name: 'create_note',
  title: 'Create note',
  description:
    'Create a new note at `path` with the full `content` (a frontmatter block is allowed; `access` and `agent_overrides` are not). ' +
    '".md" is added when missing and missing folders are created. Never overwrites: when the path is taken or not available, it answers ' +
    '"Cannot create at <path>; choose another path". Names may not contain * " \\ < > : | ? # ^ [ ]. ' +
    'Returns {status, path, hash, size_before, size_after, lines}.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Vault path of the new note, e.g. "Projects/Alpha/Plan.md" (".md" optional).'),
    content: z.string().describe('The whole note text, frontmatter included.'),
    expected_hash: z.string().optional().describe('Not used by create_note (a new note has no earlier version); accepted like on every write tool.'),
  },
  annotations: { title: 'Create note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    return submitWrite(ctx, { tool: 'create_note', kind: 'create', path: args.path, content: args.content });
  },
});
