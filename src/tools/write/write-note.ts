import * as z from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { NOTE_ARG_DESCRIPTION } from '../args';
import { defineTool } from '../tool';

/** `write_note`: replace the body and/or patch the frontmatter. */
export const writeNoteTool = defineTool({
  name: 'write_note',
  title: 'Write note',
  description:
    "Replace a note's body (all after the frontmatter, which is kept; must not start with ---) and/or patch its frontmatter " +
    '(a value sets, null deletes, types kept). Give at least one.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe(NOTE_ARG_DESCRIPTION),
    body: z.string().optional().describe('New body, no frontmatter.'),
    frontmatter_patch: z.record(z.string(), z.unknown()).optional().describe('E.g. {"status": "done", "draft": null}.'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Write note', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    return submitWrite(ctx, {
      tool: 'write_note',
      kind: 'write',
      path: args.path,
      body: args.body,
      frontmatterPatch: args.frontmatter_patch,
      expectedHash: args.expected_hash,
    });
  },
});
