import * as z from 'zod';
import { isPathInside } from '../../../vault/paths/paths';
import { defineTool } from '../../tool';

/** `list_folders`: the vault's folders as a flat list with note counts. */
export const listFoldersTool = defineTool({
  name: 'list_folders',
  title: 'List folders',
  description:
    'Folders sorted by path: {path, parent ("/" = vault root), note_count (notes directly inside)}. folder lists only the ' +
    'folders below it.',
  kind: 'read',
  inputSchema: {
    folder: z.string().optional().describe('E.g. "Projects"; default all.'),
  },
  annotations: { title: 'List folders', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const { notes, scope } = ctx;
    const under = notes.requireFolder(args.folder, scope);
    const counts = notes.noteCountsByFolder(scope);
    const folders = notes
      .readableFolders(scope)
      .filter((folder) => folder.path !== under && isPathInside(folder.path, under))
      .map((folder) => ({
        path: folder.path,
        parent: folder.parent === '' ? '/' : folder.parent,
        note_count: counts.get(folder.path) ?? 0,
      }));
    return { folders };
  },
});
