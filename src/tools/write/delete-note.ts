import * as z from 'zod';
import { ToolError } from '../../errors';
import { expectedHashArg, submitWrite } from './write-gate';
import { NOTE_ARG_DESCRIPTION } from '../args';
import { defineTool } from '../tool';

/** `delete_note`: a note to the trash, never a hard delete. */
export const deleteNoteTool = defineTool({
  name: 'delete_note',
  title: 'Delete note',
  description: "Move a note (not a folder) to the system trash, else the vault's .trash; never deleted for good.",
  kind: 'write',
  inputSchema: {
    path: z.string().describe(NOTE_ARG_DESCRIPTION),
    confirm: z.boolean().describe('Must be true.'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Delete note', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    if (args.confirm !== true) throw new ToolError('invalid_argument', 'delete_note needs confirm: true; nothing was deleted.');
    return submitWrite(ctx, { tool: 'delete_note', kind: 'delete', path: args.path, expectedHash: args.expected_hash });
  },
});
