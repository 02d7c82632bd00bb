import * as z from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool } from '../tool';
import { otherFileTypeRemark } from '../../vault/paths/note-names';
import { joinRemarks } from '../../vault/remarks';

/** `move_note`: move or rename a note or folder; Obsidian updates the links. */
export const moveNoteTool = defineTool({
  name: 'move_note',
  title: 'Move note',
  description:
    'Move or rename a note or folder to `to`; Obsidian updates links to it. A note target gets ".md"; missing folders are ' +
    'created. Never overwrites.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Note path or [[wikilink]] name, or a folder.'),
    to: z.string().describe('New path, e.g. "Archive/Plan.md".'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Move note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const result = await submitWrite(ctx, {
      tool: 'move_note',
      kind: 'move',
      path: args.path,
      to: args.to,
      expectedHash: args.expected_hash,
    });
    const to = result.status === 'pending' ? result.to : result.path;
    const remark = typeof to === 'string' ? otherFileTypeRemark(args.to, to) : null;
    return remark === null ? result : { ...result, note: joinRemarks(result.note, remark) };
  },
});
