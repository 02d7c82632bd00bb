import * as z from 'zod';
import { submitWrite } from './write-gate';
import { defineTool } from '../tool';
import { hashNotApplicable } from '../../vault/writes/write-errors';
import { otherFileTypeRemark } from '../../vault/paths/note-names';
import { joinRemarks } from '../../vault/remarks';

/** `create_note`: a new note with full content; never overwrites. */
export const createNoteTool = defineTool({
  name: 'create_note',
  title: 'Create note',
  description:
    'Create a note with the whole `content` (frontmatter allowed, but not access/agent_overrides); adds ".md" and missing ' +
    'folders. Never overwrites. Names may not contain * " \\ < > : | ? # ^ [ ' +
    '].',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('E.g. "Projects/Plan.md".'),
    content: z.string().describe('Whole note text, frontmatter included.'),
    expected_hash: z.string().optional().describe('Unused here.'),
  },
  annotations: { title: 'Create note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    if (args.expected_hash !== undefined) throw hashNotApplicable('a new note (create_note)');
    const result = await submitWrite(ctx, { tool: 'create_note', kind: 'create', path: args.path, content: args.content });
    const remark = typeof result.path === 'string' ? otherFileTypeRemark(args.path, result.path) : null;
    return remark === null ? result : { ...result, note: joinRemarks(result.note, remark) };
  },
});
