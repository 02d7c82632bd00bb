import { normalizePath } from 'obsidian';
import { isPathInside } from './paths/paths';

/** Default of the "Skills folder" setting. */
export const DEFAULT_SKILLS_FOLDER = 'Skills';

/**
 * The vault-relative skills folder named by the setting: normalized (Obsidian's
 * `normalizePath`, no leading/trailing slashes); empty means {@link DEFAULT_SKILLS_FOLDER}.
 */
export function skillsFolderOf(setting: string | undefined): string {
  const path = normalizePath((setting ?? '').trim()).replace(/^\/+|\/+$/g, '');
  return path === '' || path === '/' ? DEFAULT_SKILLS_FOLDER : path;
}

/**
 * True when a change at `path` can change the skills under `folder` (anything inside the
 * folder, or the folder itself): what makes a session check whether its key's prompts changed
 * (`notifications/prompts/list_changed`, SkillPrompts.digest).
 */
export function touchesSkills(path: string, folder: string): boolean {
  return isPathInside(path, folder, true) || isPathInside(folder, path, true);
}
