import * as z from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { NOTE_ARG_DESCRIPTION } from '../args';
import { defineTool } from '../tool';

/** `append_note`: add text at the end of a note. */
export const appendNoteTool = defineTool({
  name: 'append_note',
  title: 'Append to note',
  description:
    "Append `content` at a note's end, on a new line unless ensure_newline is false, keeping its final line break and line endings (CRLF).",
  kind: 'write',
  inputSchema: {
    path: z.string().describe(NOTE_ARG_DESCRIPTION),
    content: z.string().describe('Text to append.'),
    ensure_newline: z.boolean().optional().describe('Default true.'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Append to note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    return submitWrite(ctx, {
      tool: 'append_note',
      kind: 'append',
      path: args.path,
      content: args.content,
      ensureNewline: args.ensure_newline ?? true,
      expectedHash: args.expected_hash,
    });
  },
});
