import { DEFAULT_WIDGETS_FOLDER } from '../../settings/settings';
import { lexicalVaultPath } from '../paths/paths';

/**
 * The vault path of the widgets folder from the setting: normalized like any vault path;
 * an empty, absolute, escaping or otherwise invalid setting (or the vault root) means
 * {@link DEFAULT_WIDGETS_FOLDER}, so there is always exactly one widgets folder.
 * @param setting settings `widgets.folder` as saved (may be anything after a hand edit).
 * @returns a vault-relative folder path, never `''`.
 */
export function widgetsFolderPath(setting: unknown): string {
  if (typeof setting !== 'string') return DEFAULT_WIDGETS_FOLDER;
  try {
    const path = lexicalVaultPath(setting.trim());
    return path === '' ? DEFAULT_WIDGETS_FOLDER : path;
  } catch {
    return DEFAULT_WIDGETS_FOLDER;
  }
}
