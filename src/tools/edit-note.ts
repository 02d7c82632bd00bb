import { z } from 'zod';
import { ToolError } from '../errors';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool } from './tool';

/** `edit_note`: change one part of a note, found by a unique anchor or by a heading. */
export const editNoteTool = defineTool({
  name: 'edit_note',
  title: 'Edit note',
  description:
    'Change part of a note. Address it by `anchor` (text that occurs exactly once; copy it from read_note, line breaks may be \\n) ' +
    'or by `heading` (text as in the outline, an outline path like "1.2", or "Parent/Child"). ' +
    'op with an anchor: replace (swap the anchor for content; empty content deletes it), insert_before, insert_after (verbatim, right next to it). ' +
    "op with a heading, on its section (the heading line up to the next heading of the same or higher level, subsections included): " +
    'replace (the body under the heading line becomes content, the heading stays; empty content empties it), ' +
    'insert_before (lines before the heading), insert_after (lines right after the heading line), append_within (lines after the ' +
    "section's last line, before the next heading). A missing or repeated anchor/heading is an error listing what exists. " +
    'Returns {status, path, hash, size_before, size_after, lines} where lines is the changed range in the new text.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Vault path of the note (".md" optional) or its name as in a [[wikilink]].'),
    anchor: z.string().optional().describe('Exact text that occurs once in the note.'),
    heading: z.string().optional().describe('Heading text, outline path ("1.2") or "Parent/Child".'),
    op: z.enum(['replace', 'insert_before', 'insert_after', 'append_within']).describe('What to do at the anchor or heading.'),
    content: z.string().describe('The new text ("" with replace deletes).'),
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
