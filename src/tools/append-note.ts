import { z } from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool } from './tool';

/** `append_note`: add text at the end of a note. */
export const appendNoteTool = defineTool({
  name: 'append_note',
  title: 'Append to note',
  description:
    'Append `content` at the end of an existing note. With ensure_newline (default true) a note that does not end with a line break ' +
    'gets one first. Line breaks follow the note (CRLF notes stay CRLF). Returns {status, path, hash, size_before, size_after, lines} ' +
    'where lines is the appended range.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Vault path of the note (".md" optional) or its name as in a [[wikilink]].'),
    content: z.string().describe('Text to append.'),
    ensure_newline: z.boolean().optional().describe('Start the content on a new line (default true).'),
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
