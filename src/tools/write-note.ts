import { z } from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool } from './tool';

/** `write_note`: replace the body and/or patch the frontmatter. */
export const writeNoteTool = defineTool({
  name: 'write_note',
  title: 'Write note',
  description:
    'Replace the body of an existing note (everything after the frontmatter; the frontmatter is kept) and/or patch its frontmatter ' +
    '(`frontmatter_patch`: a value sets a property, null deletes it, other properties are kept; types are kept). Give at least one. ' +
    'The body must not start with a --- block. Returns {status, path, hash, size_before, size_after, lines}.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Vault path of the note (".md" optional) or its name as in a [[wikilink]].'),
    body: z.string().optional().describe('The new body (no frontmatter).'),
    frontmatter_patch: z.record(z.string(), z.unknown()).optional().describe('Properties to set ({"status": "done"}) or delete ({"draft": null}).'),
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
