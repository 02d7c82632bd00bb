import * as z from 'zod';
import { ToolError } from '../../errors';
import { expectedHashArg, submitWrite } from './write-gate';
import { NOTE_ARG_DESCRIPTION } from '../args';
import { defineTool } from '../tool';

/** `edit_note`: change one part of a note, found by a unique anchor or by a heading. */
export const editNoteTool = defineTool({
  name: 'edit_note',
  title: 'Edit note',
  description:
    'Change part of a note, found by `anchor` (text occurring exactly once, copied from read_note; \\n for line breaks) or ' +
    '`heading` (its section runs to the next heading of its level or higher). op: ' +
    'replace (anchor: swap it for content; heading: the text under the heading line; "" deletes), insert_before / ' +
    'insert_after (next to the anchor; before the heading / after its line), append_within (heading only: at the end, ' +
    'after subsections).',
  kind: 'write',
  inputSchema: {
    path: z.string().describe(NOTE_ARG_DESCRIPTION),
    anchor: z.string().optional().describe('Text occurring once.'),
    heading: z.string().optional().describe('Heading text, outline path ("1.2") or "Parent/Child".'),
    op: z.enum(['replace', 'insert_before', 'insert_after', 'append_within']).describe('What to do there.'),
    content: z.string().describe('New text.'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Edit note', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    if ((args.anchor === undefined) === (args.heading === undefined)) {
      throw new ToolError('invalid_argument', 'Give exactly one of anchor or heading to say where to edit.');
    }
    const target = args.anchor !== undefined ? { anchor: args.anchor } : { heading: args.heading as string };
    return submitWrite(ctx, {
      tool: 'edit_note',
      kind: 'edit',
      path: args.path,
      target,
      op: args.op,
      content: args.content,
      expectedHash: args.expected_hash,
    });
  },
});
