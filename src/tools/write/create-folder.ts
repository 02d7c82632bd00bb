import * as z from 'zod';
import { defineTool } from '../tool';
import { hashNotApplicable } from '../../vault/writes/write-errors';
import { submitWrite } from './write-gate';

/** `create_folder`: a folder, nested paths allowed. */
export const createFolderTool = defineTool({
  name: 'create_folder',
  title: 'Create folder',
  description:
    'Create a folder and its missing parents, e.g. "Projects/Gamma". An existing folder is an error. Names may not contain * ' +
    '" \\ < > : | ? # ^ [ ].',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Folder path.'),
    expected_hash: z.string().optional().describe('Unused here.'),
  },
  annotations: { title: 'Create folder', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    if (args.expected_hash !== undefined) throw hashNotApplicable('a folder (create_folder)');
    return submitWrite(ctx, { tool: 'create_folder', kind: 'folder', path: args.path });
  },
});
