import { TFolder, type App } from 'obsidian';
import { ToolError } from '../../errors';
import type { AccessScope } from '../access/access';
import type { NoteReader } from '../note-reader';
import type { WriteResult } from './write-types';

/**
 * Takes away the empty folder at `path` (to the system trash, else the vault's `.trash`, as
 * delete_note does; never a hard delete): how a logged create_folder is undone. The path is
 * checked as every write path is (quarantine, roots).
 * @returns `{status: 'applied', path}`.
 * @throws ToolError('forbidden') for a quarantined path or one outside `scope.roots`;
 *   ToolError('not_found') when no folder is there; ToolError('conflict') when it holds
 *   anything now (its contents are never removed with it); ToolError('unavailable') when the vault's
 *   `.trash` is a link that could carry it away (NotePolicy.localTrashRefusal).
 */
export async function removeEmptyFolder(app: App, notes: NoteReader, path: string, scope: AccessScope): Promise<WriteResult> {
  const checked = notes.policy.checkedPath(notes.policy.normalizePath(path, scope), scope);
  const folder = notes.policy.entryAt(checked);
  if (!(folder instanceof TFolder) || folder.isRoot()) throw new ToolError('not_found', `There is no folder '${checked}' any more.`);
  if (folder.children.length > 0)
    throw new ToolError('conflict', `Folder '${folder.path}' is no longer empty, and what is in it now stays.`);
  const away = notes.policy.localTrashRefusal();
  if (away !== null) throw away;
  try {
    await app.vault.trash(folder, true);
  } catch {
    await app.vault.trash(folder, false);
  }
  return { status: 'applied', path: folder.path };
}
