import { z } from 'zod';
import { ToolError } from '../errors';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool } from './tool';

/** `delete_note`: a note to the trash, never a hard delete. */
export const deleteNoteTool = defineTool({
  name: 'delete_note',
  title: 'Delete note',
  description:
    "Move a note to the system trash (else the vault's .trash folder); it is never deleted for good. Needs confirm: true. " +
    'Notes only, not folders. Returns {status, path, hash (of the trashed text), size_before, size_after: 0}.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Vault path of the note (".md" optional) or its name as in a [[wikilink]].'),
    confirm: z.boolean().describe('Must be true.'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Delete note', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    if (args.confirm !== true) throw new ToolError('invalid_argument', 'delete_note needs confirm: true; nothing was deleted.');
    return submitWrite(ctx, { tool: 'delete_note', kind: 'delete', path: args.path, expectedHash: args.expected_hash });
  },
});
