import { z } from 'zod';
import { defineTool } from './tool';
import { submitWrite } from './write-gate';

/** `create_folder`: a folder, nested paths allowed. */
export const createFolderTool = defineTool({
  name: 'create_folder',
  title: 'Create folder',
  description:
    'Create a folder (missing parent folders too), e.g. "Projects/Gamma/Notes". Names may not contain * " \\ < > : | ? # ^ [ ]. ' +
    'An existing folder is an error. Returns {status, path}.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Vault path of the folder; a trailing "/" is fine.'),
    expected_hash: z.string().optional().describe('Not used by create_folder (a folder has no text); accepted like on every write tool.'),
  },
  annotations: { title: 'Create folder', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    return submitWrite(ctx, { tool: 'create_folder', kind: 'folder', path: args.path });
  },
});
