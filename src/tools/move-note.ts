import { z } from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool } from './tool';

/** `move_note`: move or rename a note or folder; Obsidian updates the links. */
export const moveNoteTool = defineTool({
  name: 'move_note',
  title: 'Move note',
  description:
    'Move or rename a note or a folder to `to`; Obsidian updates every link to it. A note target gets ".md" when missing; missing ' +
    'folders are created. Never overwrites: a taken target answers "Cannot move to <path>; choose another path". ' +
    'Returns {status, path (new), from, hash, size_before, size_after} (a folder: {status, path, from}).',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('The note (path, ".md" optional, or [[wikilink]] name) or folder to move.'),
    to: z.string().describe('The new vault path, e.g. "Archive/2026/Plan.md".'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Move note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    return submitWrite(ctx, { tool: 'move_note', kind: 'move', path: args.path, to: args.to, expectedHash: args.expected_hash });
  },
});
